import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundResult } from '@portal/contract';
import { http } from '../../../lib/http';

/** POST /user/checkPassword (form password): a successful check allows refunds for 5 minutes. */
export const checkPassword = (password: string) => http.post<boolean>('/user/checkPassword', { password });

/** POST /txn/refund (form id = gateway transaction id, amount, txnschema, requestKey). data.code 0 = success. */
export const refund = (input: { id: string; amount: string; txnschema: string; requestKey: string }) => http.post<RefundResult>('/txn/refund', input);

export function useRefund() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: refund, onSettled: () => qc.invalidateQueries({ queryKey: ['txn'] }) });
}
