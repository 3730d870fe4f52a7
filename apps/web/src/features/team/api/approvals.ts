import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

/** GET /approval/list: requests the caller may decide or asked itself (issue 28). */
export const approvalListQuery = (q: Record<string, string | number | undefined>) => queryOptions({ ...apiQuery(TeamApi.approvals, q), placeholderData: keepPreviousData });
export const useApprovalList = (q: Record<string, string | number | undefined>) => useQuery(approvalListQuery(q));

/** POST /approval/approve or /approval/reject. */
export const decideApproval = (id: number, approve: boolean, note = '') => http.call(approve ? TeamApi.approve : TeamApi.reject, { id, note }, { quiet: true });

/** GET/POST /approval/policy: the merchant's four-eyes policy (administrators). */
export const usePolicy = (merId: string) => useQuery(apiQuery(TeamApi.approvalPolicy, { merId }));
export const savePolicy = (p: { merId: string; refundLimits: string[]; permissionRaise: boolean; bankChange: boolean; expiryHours: number; approverCooldownDays: number }) =>
  http.call(TeamApi.saveApprovalPolicy, { ...p }, { quiet: true });
