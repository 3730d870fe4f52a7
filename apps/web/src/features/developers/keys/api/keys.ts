import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../../lib/http';
import { apiKey, apiQuery } from '../../../../lib/api-query';
import { ApiKeysApi, type CreateKeyForm } from '@portal/contract';
export type { CreateKeyForm } from '@portal/contract';

/** GET /developer/keys: the merchant's API keys, newest first. */
const keysQuery = (page: number, size: number) =>
  queryOptions({
    ...apiQuery(ApiKeysApi.list, { page, size }),
    placeholderData: keepPreviousData,
  });
export const useKeys = (page: number, size: number) => useQuery(keysQuery(page, size));

/** POST /developer/keys/create (quiet: the dialog shows the error). The answer holds the secret, shown once. */
export const useCreateKey = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (f: CreateKeyForm) => http.call(ApiKeysApi.create, { ...f }, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKey(ApiKeysApi.list) }),
  });
};

/** POST /developer/keys/revoke. */
export const useRevokeKey = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.call(ApiKeysApi.revoke, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKey(ApiKeysApi.list) }),
  });
};
