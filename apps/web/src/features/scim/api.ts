import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { ScimApi } from '@portal/contract';
import { apiQuery, ofEndpoints } from '../../lib/api-query';

/** Team → Provisioning (issue 51): SCIM tokens, group → role mappings, the pushed groups; the sign-in IP allow-list. */
/** Keys from the descriptors (['team', 'scim', 'tokens'], ['team', 'signin-ip']); `scimQueries` matches the four, as the hand-named ['scim'] prefix did. */
export const scimTokensQuery = () => apiQuery(ScimApi.tokens, undefined);
export const scimMappingsQuery = () => apiQuery(ScimApi.mappings, undefined);
export const scimGroupsQuery = () => apiQuery(ScimApi.groups, undefined);
export const signInIpQuery = () => apiQuery(ScimApi.signInIp, undefined);
export const scimQueries = ofEndpoints(ScimApi.tokens, ScimApi.mappings, ScimApi.groups, ScimApi.signInIp);

export const useScimTokens = () => useQuery(scimTokensQuery());
export const useScimMappings = () => useQuery(scimMappingsQuery());
export const useScimGroups = () => useQuery(scimGroupsQuery());
export const useSignInIp = () => useQuery(signInIpQuery());

export const createScimToken = (name: string) => http.call(ScimApi.createToken, { name }, { quiet: true });
export const revokeScimToken = (id: number) => http.call(ScimApi.revokeToken, { id }, { quiet: true });
export const saveScimMapping = (groupName: string, roleId: number) => http.call(ScimApi.saveMapping, { groupName, roleId }, { quiet: true });
export const removeScimMapping = (id: number) => http.call(ScimApi.removeMapping, { id }, { quiet: true });
export const saveSignInIp = (ranges: string) => http.call(ScimApi.saveSignInIp, { ranges }, { quiet: true });
