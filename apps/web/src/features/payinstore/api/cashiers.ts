import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Cashier } from '@portal/contract';
import { http } from '../../../lib/http';

/** GET /payInStore/cashier/list?storeId */
export const useCashiers = (storeId: string | undefined, refetchInterval?: number) =>
  useQuery({
    queryKey: ['payInStore', 'cashiers', storeId ?? ''],
    queryFn: ({ signal }) => http.get<Cashier[]>('/payInStore/cashier/list', storeId ? { storeId } : undefined, { signal }),
    refetchInterval,
  });

/** POST /payInStore/cashier/bindQr (form storeId) → the WeChat authorisation URL the QR shows. */
export const getBindQr = (storeId: string) => http.post<{ url: string; expiresIn: number }>('/payInStore/cashier/bindQr', { storeId });

/** POST /payInStore/cashier/unbind (form cashierId). */
export function useUnbind() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cashierId: string) => http.post<null>('/payInStore/cashier/unbind', { cashierId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['payInStore'] }),
  });
}
