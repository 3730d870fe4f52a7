import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SsoApi, type OidcForm, type SamlForm, type SsoRole } from '@portal/contract';
import { http } from '../../../lib/http';
import { apiKey, apiQuery } from '../../../lib/api-query';
export type { OidcForm, SamlForm } from '@portal/contract';

/** Team → Sign-in (issue 51): the group's identity provider, mapping, domains and policy. */
export const useSsoConfig = () => useQuery(apiQuery(SsoApi.config, undefined));

function useSsoMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: apiKey(SsoApi.config) }) });
}

export const useSaveProvider = () => useSsoMutation((f: OidcForm) => http.call(SsoApi.saveProvider, { kind: 'oidc', ...f, clientSecret: f.clientSecret || undefined }, { quiet: true }));
export const useSaveSamlProvider = () =>
  useSsoMutation((f: SamlForm) => http.call(SsoApi.saveProvider, { kind: 'saml', ...f, metadataXml: f.metadataXml || undefined, metadataUrl: f.metadataUrl || undefined }, { quiet: true }));
export const useRemoveProvider = () => useSsoMutation(() => http.call(SsoApi.removeProvider));
export const useSaveMapping = () => useSsoMutation((f: { claimValue: string; role: SsoRole; roleId?: number; priority: number }) => http.call(SsoApi.saveMapping, f, { quiet: true }));
export const useRemoveMapping = () => useSsoMutation((id: number) => http.call(SsoApi.removeMapping, { id }));
export const useClaimDomain = () => useSsoMutation((domain: string) => http.call(SsoApi.claimDomain, { domain }, { quiet: true }));
export const useVerifyDomain = () => useSsoMutation((id: number) => http.call(SsoApi.verifyDomain, { id }));
export const useRemoveDomain = () => useSsoMutation((id: number) => http.call(SsoApi.removeDomain, { id }));
export const useSavePolicy = () => useSsoMutation((f: { ssoRequired: boolean; breakGlass: number[] }) => http.call(SsoApi.savePolicy, f));
