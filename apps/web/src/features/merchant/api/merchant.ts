import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BankRequest, DepositDetail, MerchantBankRow, MerchantDetail, MerchantFeeRow, MerchantListRow, Page } from '@portal/contract';
import { http } from '../../../lib/http';

export interface MerchantListParams {
  page: number;
  size: number;
  keyword?: string;
  attribute?: string;
}

/** GET /merchant/list */
const getMerchantList = (q: MerchantListParams, signal?: AbortSignal) => http.get<Page<MerchantListRow>>('/merchant/list', { ...q }, { signal });
const merchantListQuery = (q: MerchantListParams) => queryOptions({ queryKey: ['merchant', 'list', q], queryFn: ({ signal }) => getMerchantList(q, signal), placeholderData: keepPreviousData });
export const useMerchantList = (q: MerchantListParams) => useQuery(merchantListQuery(q));

/** GET /merchant/{id} */
export const useMerchantDetail = (id: string) => useQuery({ queryKey: ['merchant', 'detail', id], queryFn: ({ signal }) => http.get<MerchantDetail>(`/merchant/${id}`, undefined, { signal }) });

/** GET /merchant/listMerchantFee */
export const useMerchantFees = (merId: string, enabled: boolean) =>
  useQuery({ queryKey: ['merchant', 'fees', merId], enabled, queryFn: ({ signal }) => http.get<Page<MerchantFeeRow>>('/merchant/listMerchantFee', { merId }, { signal }) });

/** GET /merchant/listMerchantBank */
export const useMerchantBanks = (merId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['merchant', 'banks', merId],
    enabled,
    queryFn: ({ signal }) => http.get<Page<MerchantBankRow> & { requests: BankRequest[] }>('/merchant/listMerchantBank', { merId }, { signal }),
  });

/** GET /merchant/detailDeposit/{id} */
export const useMerchantDeposit = (merId: string, enabled: boolean) =>
  useQuery({ queryKey: ['merchant', 'deposit', merId], enabled, queryFn: ({ signal }) => http.get<DepositDetail>(`/merchant/detailDeposit/${merId}`, undefined, { signal }) });

/** POST /merchant/bankChangeRequest (multipart: the new details and a document). */
export function useBankChangeRequest(merId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => http.upload<BankRequest>('/merchant/bankChangeRequest', form),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['merchant', 'banks', merId] }),
  });
}
