import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { MerchantApi, type MerchantListParams } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
export type { MerchantListParams } from '@portal/contract';

/** GET /merchant/list; keys from the descriptors (['merchant', 'list', q], ['merchant', 'listMerchantBank', { merId }], …). */
const merchantListQuery = (q: MerchantListParams) => queryOptions({ ...apiQuery(MerchantApi.list, q), placeholderData: keepPreviousData });
export const useMerchantList = (q: MerchantListParams) => useQuery(merchantListQuery(q));

/** GET /merchant/{id} */
export const useMerchantDetail = (id: string) => useQuery(apiQuery(MerchantApi.detail, { id }));

/** GET /merchant/listMerchantFee */
export const useMerchantFees = (merId: string, enabled: boolean) => useQuery({ ...apiQuery(MerchantApi.fees, { merId }), enabled });

/** GET /merchant/listMerchantBank: a bank change request invalidates this merchant's. */
export const merchantBanksQuery = (merId: string) => apiQuery(MerchantApi.banks, { merId });
export const useMerchantBanks = (merId: string, enabled: boolean) => useQuery({ ...merchantBanksQuery(merId), enabled });

/** GET /merchant/detailDeposit/{id} */
export const useMerchantDeposit = (merId: string, enabled: boolean) => useQuery({ ...apiQuery(MerchantApi.deposit, { id: merId }), enabled });

/** POST /merchant/bankChangeRequest (multipart: the new details and a document). */
export function useBankChangeRequest(merId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => http.call(MerchantApi.bankChangeRequest, { multipart: form }),
    onSuccess: () => qc.invalidateQueries({ queryKey: merchantBanksQuery(merId).queryKey }),
  });
}
