import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TxnDetail } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /txn/{id} — quiet: the page shows 'not found' itself. */
const getTxnDetail = (id: string, signal?: AbortSignal) => http.get<TxnDetail>(`/txn/${encodeURIComponent(id)}`, undefined, { signal, quiet: true });

const txnDetailQuery = (id: string) => queryOptions({ queryKey: ['txn', 'detail', id], queryFn: ({ signal }) => getTxnDetail(id, signal) });

export const useTxnDetail = (id: string) => useQuery(txnDetailQuery(id));
