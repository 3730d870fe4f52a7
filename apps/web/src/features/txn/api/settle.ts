import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TxnApi, type SettleQuery } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
export type { SettleQuery } from '@portal/contract';

/** GET /txn/settleList; key from the descriptor (['txn', 'settleList', q]): a refund's ['txn'] invalidates it. */
export const settleListQuery = (q: SettleQuery & { page: number; size: number }) => queryOptions({ ...apiQuery(TxnApi.settleList, q), placeholderData: keepPreviousData });

export const useSettleList = (q: SettleQuery & { page: number; size: number }, enabled: boolean) => useQuery({ ...settleListQuery(q), enabled });

/** GET /txn/settleExportBack: queues the settle list export. */
export const settleExportBack = (q: SettleQuery & { format?: 'xlsx' | 'csv' }) => http.call(TxnApi.settleExportBack, { ...q });
