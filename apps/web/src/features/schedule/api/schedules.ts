import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { ScheduleApi } from '@portal/contract';
import { apiQuery, areaKey } from '../../../lib/api-query';

/** GET /report/schedule/list: the user's scheduled reports. Keys from the descriptors, under ['report', 'schedule'] (what a change invalidates). */
export const schedulesQuery = (page: number, size: number) =>
  queryOptions({
    ...apiQuery(ScheduleApi.list, { page, size }),
    placeholderData: keepPreviousData,
  });
export const useSchedules = (page: number, size: number) => useQuery(schedulesQuery(page, size));

/** GET /report/schedule/recipients: the active users of the user's merchants. */
export const useRecipients = (enabled: boolean) =>
  useQuery({
    ...apiQuery(ScheduleApi.recipients, undefined),
    enabled,
    staleTime: 60_000,
  });

/** The create / update form as sent (params: the screen's wire query as JSON). */
export type ScheduleForm = Record<string, string | number | undefined>;

function useScheduleMutation<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: areaKey(ScheduleApi.list, 2) }) });
}

/** POST /report/schedule/create or /update (quiet: the dialog shows the error). */
export const useSaveSchedule = () => useScheduleMutation((f: ScheduleForm) => http.call(f.id ? ScheduleApi.update : ScheduleApi.create, f, { quiet: true }));
export const usePauseSchedule = () => useScheduleMutation(({ id, paused }: { id: number; paused: boolean }) => http.call(paused ? ScheduleApi.pause : ScheduleApi.resume, { id }));
export const useDeleteSchedule = () => useScheduleMutation((id: number) => http.call(ScheduleApi.delete, { id }));
/** POST /report/schedule/sendNow: queued for the job runner; the list is fetched again a little later. */
export const useSendNow = () => useScheduleMutation((id: number) => http.call(ScheduleApi.sendNow, { id }));
