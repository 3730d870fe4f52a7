import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { PayInStoreApi } from '@portal/contract';
import { apiQuery, areaKey } from '../../../lib/api-query';

/** GET /payInStore/cashier/list?storeId */
export const useCashiers = (storeId: string | undefined, refetchInterval?: number) =>
  useQuery({
    ...apiQuery(PayInStoreApi.cashiers, { storeId: storeId || undefined }),
    refetchInterval,
  });

/** POST /payInStore/cashier/bindQr (form storeId) → the WeChat authorisation URL the QR shows. */
export const getBindQr = (storeId: string) => http.call(PayInStoreApi.bindQr, { storeId });

/** POST /payInStore/cashier/unbind (form cashierId). */
export function useUnbind() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cashierId: string) => http.call(PayInStoreApi.unbind, { cashierId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: areaKey(PayInStoreApi.cashiers) }),
  });
}
