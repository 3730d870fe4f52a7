import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogisticsRow, Page, RowError } from '@portal/contract';
import { http, saveFile } from '../../../lib/http';

export type LogisticsQuery = { page: number; size: number; merId?: string; orderNum?: string; shipmentNo?: string; beginDate?: string; endDate?: string };

/** GET /txn/settleLogisticsList */
const getLogistics = (q: LogisticsQuery, signal?: AbortSignal) => http.get<Page<LogisticsRow>>('/txn/settleLogisticsList', q, { signal });
const logisticsQuery = (q: LogisticsQuery) => queryOptions({ queryKey: ['txn', 'logistics', q], queryFn: ({ signal }) => getLogistics(q, signal), placeholderData: keepPreviousData });
export const useLogistics = (q: LogisticsQuery) => useQuery(logisticsQuery(q));

/** GET /txn/logisticsTemplate (file). */
export const downloadLogisticsTemplate = async (format: 'xlsx' | 'csv') => saveFile(await http.file('/txn/logisticsTemplate', { format }));

/** POST /txn/uploadLogisticsInfo (multipart file): all rows or none; errors per row. */
const uploadLogistics = (file: File) => {
  const body = new FormData();
  body.append('file', file);
  return http.envelope<{ imported: number; errors: RowError[] }>({ url: '/txn/uploadLogisticsInfo', multipart: body, method: 'POST' });
};

export function useUploadLogistics() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: uploadLogistics, onSuccess: () => qc.invalidateQueries({ queryKey: ['txn', 'logistics'] }) });
}
