import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { PayInStoreApi } from '@portal/contract';
import { apiQuery, areaKey } from '../../../lib/api-query';

export type PisWireQuery = Record<string, string | number | undefined>;

/** GET /payInStore/list */
export const usePisList = (q: PisWireQuery) => useQuery({ ...apiQuery(PayInStoreApi.list, q), placeholderData: keepPreviousData });

/** GET /payInStore/{id} */
export const getPisDetail = (id: string | number, signal?: AbortSignal) => http.call(PayInStoreApi.detail, { id }, { signal });
export const usePisDetail = (id: string, enabled = true) => useQuery({ ...apiQuery(PayInStoreApi.detail, { id }), enabled });

/** GET /payInStore/orderno/{no}: what the QR dialog polls every 3 s. Quiet: the next poll retries. */
export const getPisStatus = (orderNo: string, signal?: AbortSignal) => http.call(PayInStoreApi.orderStatus, { no: orderNo }, { signal, quiet: true });

/** GET /payInStore/export with the list filters (a file). */
export const exportPis = async (q: PisWireQuery): Promise<string> => {
  const file = await http.call(PayInStoreApi.export, { ...q, format: 'xlsx' });
  saveFile(file);
  return file.filename;
};

export function useInvalidatePis() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: areaKey(PayInStoreApi.list) });
}

/** POST /payInStore/add (form: storeId, orderCurrency, totalAmount, goodsName). Quiet: the dialog maps errors onto its fields. */
export function useAddPis() {
  const invalidate = useInvalidatePis();
  return useMutation({
    mutationFn: (body: Record<string, string>) => http.call(PayInStoreApi.add, body, { quiet: true }),
    onSuccess: invalidate,
  });
}
