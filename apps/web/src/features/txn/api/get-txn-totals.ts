import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import type { TxnWireQuery } from './get-txn-list';
import { TxnApi } from '@portal/contract';

/** GET /txn/totals: per-currency totals of the rows matching the filter (page and size left out). */
const getTxnTotals = (q: TxnWireQuery, signal?: AbortSignal) => http.call(TxnApi.totals, q, { signal });

const txnTotalsQuery = (q: TxnWireQuery) => queryOptions({ queryKey: ['txn', 'totals', q], queryFn: ({ signal }) => getTxnTotals(q, signal) });

export const useTxnTotals = (q: TxnWireQuery) => useQuery(txnTotalsQuery(q));
