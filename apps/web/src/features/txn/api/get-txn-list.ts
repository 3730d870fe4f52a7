import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TxnApi } from '@portal/contract';

/** The wire query of spec §3 (times in the platform zone, paymentBrand comma-joined, page 0-based). */
export type TxnWireQuery = Record<string, string | number | undefined>;

/** GET /txn/list (totalExact false: 'more than totalElements'; exactTotal=true asks for the exact count) */
const getTxnList = (q: TxnWireQuery, signal?: AbortSignal) => http.call(TxnApi.list, q, { signal });

const txnListQuery = (q: TxnWireQuery) => queryOptions({ queryKey: ['txn', 'list', q], queryFn: ({ signal }) => getTxnList(q, signal), placeholderData: keepPreviousData });

export const useTxnList = (q: TxnWireQuery) => useQuery(txnListQuery(q));
