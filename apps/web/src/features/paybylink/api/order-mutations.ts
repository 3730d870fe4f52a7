import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayByLinkAddResult, PayByLinkOrder } from '@portal/contract';
import { http } from '../../../lib/http';

export type PblFormBody = Record<string, string | undefined>;

/** POST /payByLink/add (form) → orderNo, payByLink, emailStatus. Quiet: the dialog maps errors onto its fields. */
const addOrder = (body: PblFormBody) => http.post<PayByLinkAddResult>('/payByLink/add', body, { quiet: true });

/** POST /payByLink/updateOrder (form: id and the editable fields) → the order. */
const updateOrder = (body: PblFormBody) => http.post<PayByLinkOrder>('/payByLink/updateOrder', body, { quiet: true });

/** GET /payByLink/closeOrder/{id} → '00' closed, '01' order already paid, processing or closed. */
export const closeOrder = (id: number) => http.get<'00' | '01'>(`/payByLink/closeOrder/${id}`);

/** After a change: every pay-by-link list and detail is fetched again. */
export function useInvalidatePbl() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['payByLink'] });
}

export function useAddOrder() {
  const invalidate = useInvalidatePbl();
  return useMutation({ mutationFn: addOrder, onSuccess: invalidate });
}
export function useUpdateOrder() {
  const invalidate = useInvalidatePbl();
  return useMutation({ mutationFn: updateOrder, onSuccess: invalidate });
}
