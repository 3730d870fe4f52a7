import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScimGroupRow, ScimMappingRow, ScimTokenRow, SignInIp } from '@portal/contract';
import { http } from '../../lib/http';

/** Team → Provisioning (issue 51): SCIM tokens, group → role mappings, the pushed groups; the sign-in IP allow-list. */
export const scimTokensQuery = () => queryOptions({ queryKey: ['scim', 'tokens'], queryFn: ({ signal }) => http.get<ScimTokenRow[]>('/team/scim/tokens', {}, { signal }) });
export const scimMappingsQuery = () => queryOptions({ queryKey: ['scim', 'mappings'], queryFn: ({ signal }) => http.get<ScimMappingRow[]>('/team/scim/mappings', {}, { signal }) });
export const scimGroupsQuery = () => queryOptions({ queryKey: ['scim', 'groups'], queryFn: ({ signal }) => http.get<ScimGroupRow[]>('/team/scim/groups', {}, { signal }) });
export const signInIpQuery = () => queryOptions({ queryKey: ['scim', 'signin-ip'], queryFn: ({ signal }) => http.get<SignInIp>('/team/signin-ip', {}, { signal }) });

export const useScimTokens = () => useQuery(scimTokensQuery());
export const useScimMappings = () => useQuery(scimMappingsQuery());
export const useScimGroups = () => useQuery(scimGroupsQuery());
export const useSignInIp = () => useQuery(signInIpQuery());

export const createScimToken = (name: string) => http.post<{ token: ScimTokenRow; secret: string }>('/team/scim/tokens/create', { name }, { quiet: true });
export const revokeScimToken = (id: number) => http.post<ScimTokenRow>('/team/scim/tokens/revoke', { id }, { quiet: true });
export const saveScimMapping = (groupName: string, roleId: number) => http.post<ScimMappingRow[]>('/team/scim/mappings/save', { groupName, roleId }, { quiet: true });
export const removeScimMapping = (id: number) => http.post<ScimMappingRow[]>('/team/scim/mappings/remove', { id }, { quiet: true });
export const saveSignInIp = (ranges: string) => http.post<SignInIp>('/team/signin-ip/save', { ranges }, { quiet: true });
