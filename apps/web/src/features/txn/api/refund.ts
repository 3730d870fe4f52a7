import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { AuthApi, SsoApi, TxnApi } from '@portal/contract';
import { areaKey } from '../../../lib/api-query';

/** POST /user/checkPassword (form password): a successful check allows refunds for 5 minutes. */
export const checkPassword = (password: string) => http.call(AuthApi.checkPassword, { password });

export const stepUpOptions = () => http.call(SsoApi.stepUp, undefined, { quiet: true });
/** POST /sso/step-up/start: the identity provider's URL to open (a fresh sign-in there grants the session's step-up). */
export const startSsoStepUp = () => http.call(SsoApi.stepUpStart);

/** POST /txn/refund (form id = gateway transaction id, amount, txnschema, requestKey). data.code 0 = success. */
const refund = (input: { id: string; amount: string; txnschema: string; requestKey: string }) => http.call(TxnApi.refund, input);

export function useRefund() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: refund, onSettled: () => qc.invalidateQueries({ queryKey: areaKey(TxnApi.list) }) });
}
