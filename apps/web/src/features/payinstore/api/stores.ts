import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { PayInStoreApi } from '@portal/contract';

/** GET /payInStore/storeList: the stores of the caller's merchants (enabled false: pay in store not enabled). */
export const useStores = () => useQuery({ queryKey: ['payInStore', 'stores'], queryFn: ({ signal }) => http.call(PayInStoreApi.stores, undefined, { signal }), staleTime: 60_000 });

/** GET /payInStore/logoList?storeId&orderCurrency: the logos under the QR. */
export const useLogoList = (storeId: string, orderCurrency: string) =>
  useQuery({
    queryKey: ['payInStore', 'logoList', storeId, orderCurrency],
    queryFn: ({ signal }) => http.call(PayInStoreApi.logoList, { storeId, orderCurrency }, { signal }),
    enabled: !!storeId && !!orderCurrency,
    staleTime: 60_000,
  });
