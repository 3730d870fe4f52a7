import { useQuery } from '@tanstack/react-query';
import { TxnApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /txn/{id} — quiet: the page shows 'not found' itself. Key from the descriptor (['txn', ':id', { id }]): the refund's and query-result's ['txn'] invalidate it. */
export const txnDetailQuery = (id: string) => apiQuery(TxnApi.detail, { id }, { quiet: true });

export const useTxnDetail = (id: string) => useQuery(txnDetailQuery(id));
