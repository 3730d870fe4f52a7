import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TxnRow } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /txn/queryResult?id: asks the acquirer for a processing transaction's result. */
const queryResult = (id: number) => http.get<TxnRow>('/txn/queryResult', { id });

export function useQueryResult() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: queryResult, onSuccess: () => qc.invalidateQueries({ queryKey: ['txn'] }) });
}
