import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TxnApi, type SettleQuery } from '@portal/contract';
export type { SettleQuery } from '@portal/contract';

/** GET /txn/settleList */
const getSettleList = (q: SettleQuery & { page: number; size: number }, signal?: AbortSignal) => http.call(TxnApi.settleList, { ...q }, { signal });

const settleListQuery = (q: SettleQuery & { page: number; size: number }) =>
  queryOptions({ queryKey: ['txn', 'settleList', q], queryFn: ({ signal }) => getSettleList(q, signal), placeholderData: keepPreviousData });

export const useSettleList = (q: SettleQuery & { page: number; size: number }, enabled: boolean) => useQuery({ ...settleListQuery(q), enabled });

/** GET /txn/settleExportBack: queues the settle list export. */
export const settleExportBack = (q: SettleQuery & { format?: 'xlsx' | 'csv' }) => http.call(TxnApi.settleExportBack, { ...q });
