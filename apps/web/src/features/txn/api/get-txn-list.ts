import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page, TxnRow } from '@portal/contract';
import { http } from '../../../lib/http';

/** The wire query of spec §3 (times in the platform zone, paymentBrand comma-joined, page 0-based). */
export type TxnWireQuery = Record<string, string | number | undefined>;

/** GET /txn/list */
export const getTxnList = (q: TxnWireQuery, signal?: AbortSignal) => http.get<Page<TxnRow>>('/txn/list', q, { signal });

export const txnListQuery = (q: TxnWireQuery) =>
  queryOptions({ queryKey: ['txn', 'list', q], queryFn: ({ signal }) => getTxnList(q, signal), placeholderData: keepPreviousData });

export const useTxnList = (q: TxnWireQuery) => useQuery(txnListQuery(q));
