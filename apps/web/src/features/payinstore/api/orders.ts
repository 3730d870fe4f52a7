import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, PayInStoreAddResult, PayInStoreDetail, PayInStoreRow } from '@portal/contract';
import { http, saveFile } from '../../../lib/http';

export type PisWireQuery = Record<string, string | number | undefined>;

/** GET /payInStore/list */
export const usePisList = (q: PisWireQuery) =>
  useQuery({ queryKey: ['payInStore', 'list', q], queryFn: ({ signal }) => http.get<Page<PayInStoreRow>>('/payInStore/list', q, { signal }), placeholderData: keepPreviousData });

/** GET /payInStore/{id} */
export const getPisDetail = (id: string | number, signal?: AbortSignal) => http.get<PayInStoreDetail>(`/payInStore/${encodeURIComponent(String(id))}`, undefined, { signal });
export const usePisDetail = (id: string, enabled = true) => useQuery({ queryKey: ['payInStore', 'detail', id], queryFn: ({ signal }) => getPisDetail(id, signal), enabled });

/** GET /payInStore/orderno/{no}: what the QR dialog polls every 3 s. Quiet: the next poll retries. */
export const getPisStatus = (orderNo: string, signal?: AbortSignal) =>
  http.get<{ orderno: string; status: string; openStatus: string; closeReason: string | null }>(`/payInStore/orderno/${encodeURIComponent(orderNo)}`, undefined, { signal, quiet: true });

/** GET /payInStore/export with the list filters (a file). */
export const exportPis = async (q: PisWireQuery): Promise<string> => {
  const file = await http.file('/payInStore/export', { ...q, format: 'xlsx' });
  saveFile(file);
  return file.filename;
};

export function useInvalidatePis() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['payInStore'] });
}

/** POST /payInStore/add (form: storeId, orderCurrency, totalAmount, goodsName). Quiet: the dialog maps errors onto its fields. */
export function useAddPis() {
  const invalidate = useInvalidatePis();
  return useMutation({
    mutationFn: (body: Record<string, string>) => http.post<PayInStoreAddResult>('/payInStore/add', body, { quiet: true }),
    onSuccess: invalidate,
  });
}
