import { useQuery } from '@tanstack/react-query';
import { TxnApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
import type { TxnWireQuery } from './get-txn-list';

/** GET /txn/totals: per-currency totals of the rows matching the filter (page and size left out); key ['txn', 'totals', q]. */
export const txnTotalsQuery = (q: TxnWireQuery) => apiQuery(TxnApi.totals, q);

export const useTxnTotals = (q: TxnWireQuery) => useQuery(txnTotalsQuery(q));
