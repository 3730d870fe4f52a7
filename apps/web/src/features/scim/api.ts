import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { ScimApi } from '@portal/contract';

/** Team → Provisioning (issue 51): SCIM tokens, group → role mappings, the pushed groups; the sign-in IP allow-list. */
export const scimTokensQuery = () => queryOptions({ queryKey: ['scim', 'tokens'], queryFn: ({ signal }) => http.call(ScimApi.tokens, undefined, { signal }) });
export const scimMappingsQuery = () => queryOptions({ queryKey: ['scim', 'mappings'], queryFn: ({ signal }) => http.call(ScimApi.mappings, undefined, { signal }) });
export const scimGroupsQuery = () => queryOptions({ queryKey: ['scim', 'groups'], queryFn: ({ signal }) => http.call(ScimApi.groups, undefined, { signal }) });
export const signInIpQuery = () => queryOptions({ queryKey: ['scim', 'signin-ip'], queryFn: ({ signal }) => http.call(ScimApi.signInIp, undefined, { signal }) });

export const useScimTokens = () => useQuery(scimTokensQuery());
export const useScimMappings = () => useQuery(scimMappingsQuery());
export const useScimGroups = () => useQuery(scimGroupsQuery());
export const useSignInIp = () => useQuery(signInIpQuery());

export const createScimToken = (name: string) => http.call(ScimApi.createToken, { name }, { quiet: true });
export const revokeScimToken = (id: number) => http.call(ScimApi.revokeToken, { id }, { quiet: true });
export const saveScimMapping = (groupName: string, roleId: number) => http.call(ScimApi.saveMapping, { groupName, roleId }, { quiet: true });
export const removeScimMapping = (id: number) => http.call(ScimApi.removeMapping, { id }, { quiet: true });
export const saveSignInIp = (ranges: string) => http.call(ScimApi.saveSignInIp, { ranges }, { quiet: true });
