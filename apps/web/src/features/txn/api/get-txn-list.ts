import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TxnApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** The wire query of spec §3 (times in the platform zone, paymentBrand comma-joined, page 0-based). */
export type TxnWireQuery = Record<string, string | number | undefined>;

/** GET /txn/list (totalExact false: 'more than totalElements'; exactTotal=true asks for the exact count); key from the descriptor: ['txn', 'list', q]. */
export const txnListQuery = (q: TxnWireQuery) => queryOptions({ ...apiQuery(TxnApi.list, q), placeholderData: keepPreviousData });

export const useTxnList = (q: TxnWireQuery) => useQuery(txnListQuery(q));
