import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoConfig, SsoDomainRow, SsoMapping, SsoProvider, SsoRole } from '@portal/contract';
import { http } from '../../../lib/http';

/** Team → Sign-in (issue 51): the group's identity provider, mapping, domains and policy. */
export const useSsoConfig = () => useQuery({ queryKey: ['sso', 'config'], queryFn: ({ signal }) => http.get<SsoConfig>('/sso/config', undefined, { signal }) });

/** A JSON body (booleans, nulls and lists as they are). */
const postJson = <T>(url: string, json: unknown, quiet = false) => http.request<T>({ method: 'POST', url, json, quiet });

function useSsoMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['sso'] }) });
}

export interface OidcForm {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}

export const useSaveProvider = () => useSsoMutation((f: OidcForm) => postJson<SsoProvider>('/sso/provider', { kind: 'oidc', ...f, clientSecret: f.clientSecret || undefined }, true));
export interface SamlForm {
  name: string;
  metadataXml?: string;
  metadataUrl?: string;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}
export const useSaveSamlProvider = () =>
  useSsoMutation((f: SamlForm) => postJson<SsoProvider>('/sso/provider', { kind: 'saml', ...f, metadataXml: f.metadataXml || undefined, metadataUrl: f.metadataUrl || undefined }, true));
export const useRemoveProvider = () => useSsoMutation(() => http.post<null>('/sso/provider/remove', {}));
export const useSaveMapping = () => useSsoMutation((f: { claimValue: string; role: SsoRole; roleId?: number; priority: number }) => postJson<SsoMapping[]>('/sso/mapping', f, true));
export const useRemoveMapping = () => useSsoMutation((id: number) => http.post<null>('/sso/mapping/remove', { id }));
export const useClaimDomain = () => useSsoMutation((domain: string) => http.post<SsoDomainRow>('/sso/domain', { domain }, { quiet: true }));
export const useVerifyDomain = () => useSsoMutation((id: number) => http.post<SsoDomainRow>('/sso/domain/verify', { id }));
export const useRemoveDomain = () => useSsoMutation((id: number) => http.post<null>('/sso/domain/remove', { id }));
export const useSavePolicy = () => useSsoMutation((f: { ssoRequired: boolean; breakGlass: number[] }) => postJson<{ ssoRequired: boolean; breakGlass: number[] }>('/sso/policy', f));
