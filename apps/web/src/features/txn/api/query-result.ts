import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TxnApi } from '@portal/contract';
import { areaKey } from '../../../lib/api-query';

/** GET /txn/queryResult?id: asks the acquirer for a processing transaction's result. */
const queryResult = (id: number) => http.call(TxnApi.queryResult, { id });

export function useQueryResult() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: queryResult, onSuccess: () => qc.invalidateQueries({ queryKey: areaKey(TxnApi.list) }) });
}
