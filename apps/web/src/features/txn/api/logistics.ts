import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { TxnApi, type LogisticsQuery } from '@portal/contract';
import { apiKey, apiQuery } from '../../../lib/api-query';
export type { LogisticsQuery } from '@portal/contract';

/** GET /txn/settleLogisticsList; key from the descriptor (['txn', 'settleLogisticsList', q]): an upload invalidates that endpoint, a refund ['txn']. */
export const logisticsQuery = (q: LogisticsQuery) => queryOptions({ ...apiQuery(TxnApi.logisticsList, q), placeholderData: keepPreviousData });
export const useLogistics = (q: LogisticsQuery) => useQuery(logisticsQuery(q));

/** GET /txn/logisticsTemplate (file). */
export const downloadLogisticsTemplate = async (format: 'xlsx' | 'csv') => saveFile(await http.call(TxnApi.logisticsTemplate, { format }));

/** POST /txn/uploadLogisticsInfo (multipart file): all rows or none; errors per row. */
const uploadLogistics = (file: File) => {
  const body = new FormData();
  body.append('file', file);
  return http.callEnvelope(TxnApi.uploadLogistics, { multipart: body });
};

export function useUploadLogistics() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: uploadLogistics, onSuccess: () => qc.invalidateQueries({ queryKey: apiKey(TxnApi.logisticsList) }) });
}
