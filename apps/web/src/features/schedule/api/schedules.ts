import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, Schedule, ScheduleRecipient } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /report/schedule/list: the user's scheduled reports. */
const schedulesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['schedules', 'list', { page, size }],
    queryFn: ({ signal }) => http.get<Page<Schedule>>('/report/schedule/list', { page, size }, { signal }),
    placeholderData: keepPreviousData,
  });
export const useSchedules = (page: number, size: number) => useQuery(schedulesQuery(page, size));

/** GET /report/schedule/recipients: the active users of the user's merchants. */
export const useRecipients = (enabled: boolean) =>
  useQuery({
    queryKey: ['schedules', 'recipients'],
    queryFn: ({ signal }) => http.get<ScheduleRecipient[]>('/report/schedule/recipients', undefined, { signal }),
    enabled,
    staleTime: 60_000,
  });

/** The create / update form as sent (params: the screen's wire query as JSON). */
export type ScheduleForm = Record<string, string | number | undefined>;

function useScheduleMutation<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['schedules'] }) });
}

/** POST /report/schedule/create or /update (quiet: the dialog shows the error). */
export const useSaveSchedule = () => useScheduleMutation((f: ScheduleForm) => http.post<Schedule>(f.id ? '/report/schedule/update' : '/report/schedule/create', f, { quiet: true }));
export const usePauseSchedule = () =>
  useScheduleMutation(({ id, paused }: { id: number; paused: boolean }) => http.post<Schedule>(paused ? '/report/schedule/pause' : '/report/schedule/resume', { id }));
export const useDeleteSchedule = () => useScheduleMutation((id: number) => http.post<null>('/report/schedule/delete', { id }));
/** POST /report/schedule/sendNow: queued for the job runner; the list is fetched again a little later. */
export const useSendNow = () => useScheduleMutation((id: number) => http.post<null>('/report/schedule/sendNow', { id }));
