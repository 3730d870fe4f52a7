import { TeamApi, UsersApi } from '@portal/contract';
import { ofEndpoints } from '../../../lib/api-query';

/**
 * The team screens' queries — users, roles, audit, approvals and the four-eyes policy, the access
 * policy and reviews — whose keys come from their descriptors (issue 45 §3): they live under /user,
 * /role, /audit, /approval and /access, beside other screens' (the signed-in user's own /user/security,
 * /user/sessions), so a change on the team screens invalidates exactly these, as the hand-named
 * ['team'] prefix did.
 */
export const TEAM_ENDPOINTS = [
  UsersApi.list,
  TeamApi.roles,
  TeamApi.auditList,
  TeamApi.approvals,
  TeamApi.approvalPolicy,
  TeamApi.accessPolicy,
  TeamApi.review,
  TeamApi.reviewHistory,
  TeamApi.reviewRecord,
] as const;
export const teamQueries = ofEndpoints(...TEAM_ENDPOINTS);
