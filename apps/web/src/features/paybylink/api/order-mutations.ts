import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { PayByLinkApi } from '@portal/contract';
import { areaKey } from '../../../lib/api-query';

export type PblFormBody = Record<string, string | undefined>;

/** POST /payByLink/add (form) → orderNo, payByLink, emailStatus. Quiet: the dialog maps errors onto its fields. */
const addOrder = (body: PblFormBody) => http.call(PayByLinkApi.add, body, { quiet: true });

/** POST /payByLink/updateOrder (form: id and the editable fields) → the order. */
const updateOrder = (body: PblFormBody) => http.call(PayByLinkApi.update, body, { quiet: true });

/** GET /payByLink/closeOrder/{id} → '00' closed, '01' order already paid, processing or closed. */
export const closeOrder = (id: number) => http.call(PayByLinkApi.close, { id });

/** After a change: every pay-by-link list and detail is fetched again. */
export function useInvalidatePbl() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: areaKey(PayByLinkApi.list) });
}

export function useAddOrder() {
  const invalidate = useInvalidatePbl();
  return useMutation({ mutationFn: addOrder, onSuccess: invalidate });
}
export function useUpdateOrder() {
  const invalidate = useInvalidatePbl();
  return useMutation({ mutationFn: updateOrder, onSuccess: invalidate });
}
