import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TxnApi } from '@portal/contract';

/** GET /txn/{id} — quiet: the page shows 'not found' itself. */
const getTxnDetail = (id: string, signal?: AbortSignal) => http.call(TxnApi.detail, { id }, { signal, quiet: true });

const txnDetailQuery = (id: string) => queryOptions({ queryKey: ['txn', 'detail', id], queryFn: ({ signal }) => getTxnDetail(id, signal) });

export const useTxnDetail = (id: string) => useQuery(txnDetailQuery(id));
