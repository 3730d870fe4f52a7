import { useQuery } from '@tanstack/react-query';
import { PayInStoreApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /payInStore/storeList: the stores of the caller's merchants (enabled false: pay in store not enabled). */
export const useStores = () => useQuery({ ...apiQuery(PayInStoreApi.stores, undefined), staleTime: 60_000 });

/** GET /payInStore/logoList?storeId&orderCurrency: the logos under the QR. */
export const useLogoList = (storeId: string, orderCurrency: string) =>
  useQuery({
    ...apiQuery(PayInStoreApi.logoList, { storeId, orderCurrency }),
    enabled: !!storeId && !!orderCurrency,
    staleTime: 60_000,
  });
