import { describe, expect, it } from 'vitest';
import { AccountApi, FilesApi, NoticeApi, ScimApi, TeamApi } from '@portal/contract';
import { apiKey, apiQuery, areaKey } from '../../../lib/api-query';
import { matched } from '../../../lib/matched-queries.testing';
import { userListQuery } from './get-user-list';
import { roleListQuery } from './roles';
import { auditListQuery } from './audit';
import { approvalListQuery } from './approvals';
import { TEAM_ENDPOINTS, teamQueries } from './team-queries';
import { accountQueries } from '../../account/api/account';
import { fileQueries } from '../../files/api/files';
import { scimGroupsQuery, scimMappingsQuery, scimQueries, scimTokensQuery, signInIpQuery } from '../../scim/api';

/**
 * The team, provisioning and security screens' keys come from their descriptors (issue 45 §3), which
 * put them under /user, /role, /audit, /approval, /access and /team/scim — no longer one hand-named
 * prefix each. Their invalidations name exactly the queries the old prefixes covered.
 */
const team = [
  userListQuery({ page: 0, size: 20 }).queryKey,
  roleListQuery().queryKey,
  auditListQuery({ page: 0, size: 20 }).queryKey,
  approvalListQuery({ page: 0, size: 20 }).queryKey,
  apiQuery(TeamApi.approvalPolicy, { merId: 'm' }).queryKey,
  apiQuery(TeamApi.accessPolicy, { merId: 'm' }).queryKey,
  apiQuery(TeamApi.review, { merId: 'm' }).queryKey,
  apiQuery(TeamApi.reviewHistory, { merId: 'm', page: 0, size: 10 }).queryKey,
  apiQuery(TeamApi.reviewRecord, { id: 3 }).queryKey,
];
const scim = [scimTokensQuery().queryKey, scimMappingsQuery().queryKey, scimGroupsQuery().queryKey, signInIpQuery().queryKey];
const account = [AccountApi.security, AccountApi.sessions, AccountApi.loginHistory, AccountApi.passwordPolicy, AccountApi.passkeys].map((e) => apiQuery(e, undefined).queryKey);
const ALL = [...team, ...scim, ...account];

describe('team, provisioning and security query keys', () => {
  it("the team screens' refresh (was ['team']): the nine team queries, not provisioning's nor the user's own security", () => {
    expect(TEAM_ENDPOINTS).toHaveLength(team.length);
    expect(team[0]).toEqual(['user', 'list', { page: 0, size: 20 }]);
    expect(matched({ predicate: teamQueries }, ALL)).toEqual(team);
  });

  it("the narrower team refreshes: approvals (was ['team', 'approvals']), the policy (['team', 'policy']), access (['team', 'access'])", () => {
    expect(matched({ queryKey: apiKey(TeamApi.approvals) }, ALL)).toEqual([team[3]]);
    expect(matched({ queryKey: apiKey(TeamApi.approvalPolicy) }, ALL)).toEqual([team[4]]);
    expect(matched({ queryKey: areaKey(TeamApi.accessPolicy) }, ALL)).toEqual(team.slice(5));
  });

  it("provisioning's refresh (was ['scim']): its four, the sign-in IP list alone after a save", () => {
    expect(scim[0]).toEqual(['team', 'scim', 'tokens']);
    expect(matched({ predicate: scimQueries }, ALL)).toEqual(scim);
    expect(matched({ queryKey: apiKey(ScimApi.signInIp) }, ALL)).toEqual([scim[3]]);
  });

  it("the security screen's refresh (was ['account']): its five, not the team's user list beside them under /user", () => {
    expect(account[0]).toEqual(['user', 'security']);
    expect(matched({ predicate: accountQueries }, ALL)).toEqual(account);
  });

  it("deleting an export file (was ['files']): the export files and the published documents", () => {
    const files = apiQuery(FilesApi.list, { page: 0, size: 20 }).queryKey;
    const documents = apiQuery(NoticeApi.documents, { page: 0, size: 20 }).queryKey;
    const notices = apiQuery(NoticeApi.list, { page: 0, size: 20 }).queryKey;
    expect(matched({ predicate: fileQueries }, [files, documents, notices])).toEqual([files, documents]);
  });
});
