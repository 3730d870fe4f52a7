import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { MerchantApi, type MerchantListParams } from '@portal/contract';
export type { MerchantListParams } from '@portal/contract';

/** GET /merchant/list */
const getMerchantList = (q: MerchantListParams, signal?: AbortSignal) => http.call(MerchantApi.list, { ...q }, { signal });
const merchantListQuery = (q: MerchantListParams) => queryOptions({ queryKey: ['merchant', 'list', q], queryFn: ({ signal }) => getMerchantList(q, signal), placeholderData: keepPreviousData });
export const useMerchantList = (q: MerchantListParams) => useQuery(merchantListQuery(q));

/** GET /merchant/{id} */
export const useMerchantDetail = (id: string) => useQuery({ queryKey: ['merchant', 'detail', id], queryFn: ({ signal }) => http.call(MerchantApi.detail, { id }, { signal }) });

/** GET /merchant/listMerchantFee */
export const useMerchantFees = (merId: string, enabled: boolean) =>
  useQuery({ queryKey: ['merchant', 'fees', merId], enabled, queryFn: ({ signal }) => http.call(MerchantApi.fees, { merId }, { signal }) });

/** GET /merchant/listMerchantBank */
export const useMerchantBanks = (merId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['merchant', 'banks', merId],
    enabled,
    queryFn: ({ signal }) => http.call(MerchantApi.banks, { merId }, { signal }),
  });

/** GET /merchant/detailDeposit/{id} */
export const useMerchantDeposit = (merId: string, enabled: boolean) =>
  useQuery({ queryKey: ['merchant', 'deposit', merId], enabled, queryFn: ({ signal }) => http.call(MerchantApi.deposit, { id: merId }, { signal }) });

/** POST /merchant/bankChangeRequest (multipart: the new details and a document). */
export function useBankChangeRequest(merId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => http.call(MerchantApi.bankChangeRequest, { multipart: form }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['merchant', 'banks', merId] }),
  });
}
