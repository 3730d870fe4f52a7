import type { AccessPolicy, ReviewDecideInput, ReviewRecord, ReviewRecordItem, ReviewState } from '../access';
import type { Page } from '../api';
import type { ApprovalRow, FourEyesPolicy, FourEyesPolicyInput } from '../approvals';
import { Perm } from '../permissions';
import type { ScimGroupRow, ScimMappingRow, ScimTokenRow, SignInIp } from '../scim';
import type { AuditRow, TeamRoleRow } from '../team';
import { get, post } from './endpoint';
import type { WireQuery } from './wire';

export interface SaveRoleBody {
  roleId?: number;
  name: string;
  description: string;
  permissions: string[];
  /** "CUR:perRefund:perDay" (either amount may be empty). */
  refundCaps: string[];
}
type Approvers = readonly [typeof Perm.txnRefund, typeof Perm.merchantUserManage, typeof Perm.merchantBankChange];
const APPROVERS: Approvers = [Perm.txnRefund, Perm.merchantUserManage, Perm.merchantBankChange];

/** Team: the audit log, named roles, four-eyes approvals, access reviews (issues 10, 28, 47, 48). */
export const TeamApi = {
  auditList: get<WireQuery, Page<AuditRow>>('/api/audit/list', Perm.merchantAudit),
  auditExport: post<WireQuery, { id: number; status: string }>('/api/audit/export', Perm.merchantAudit),
  roles: get<void, TeamRoleRow[]>('/api/role/list', Perm.merchantUser),
  saveRole: post<SaveRoleBody, TeamRoleRow>('/api/role/save', Perm.merchantUserManage),
  removeRole: post<{ roleId: number }, null>('/api/role/remove', Perm.merchantUserManage),
  approvalPolicy: get<{ merId: string }, FourEyesPolicy>('/api/approval/policy', Perm.merchantUser),
  saveApprovalPolicy: post<FourEyesPolicyInput, FourEyesPolicy>('/api/approval/policy', Perm.merchantUserManage),
  approvals: get<WireQuery, Page<ApprovalRow>>('/api/approval/list', APPROVERS),
  approve: post<{ id: number; note: string }, ApprovalRow>('/api/approval/approve', APPROVERS),
  reject: post<{ id: number; note: string }, ApprovalRow>('/api/approval/reject', APPROVERS),
  accessPolicy: get<{ merId: string }, AccessPolicy>('/api/access/policy', Perm.merchantUser),
  saveAccessPolicy: post<{ merId: string; inactiveDays: number }, AccessPolicy>('/api/access/policy', Perm.merchantUserManage),
  review: get<{ merId: string }, ReviewState>('/api/access/review', Perm.merchantUserManage),
  reviewDecide: post<ReviewDecideInput, ReviewState>('/api/access/review/decide', Perm.merchantUserManage),
  reviewComplete: post<{ merId: string }, ReviewRecord>('/api/access/review/complete', Perm.merchantUserManage),
  reviewHistory: get<{ merId: string; page: number; size: number }, Page<ReviewRecord>>('/api/access/review/history', Perm.merchantUserManage),
  reviewRecord: get<{ id: number }, { review: ReviewRecord; items: ReviewRecordItem[] }>('/api/access/review/:id', Perm.merchantUserManage),
} as const;

/** Team → Sign-in: SCIM provisioning and the sign-in IP allow-list (issue 51). */
export const ScimApi = {
  tokens: get<void, ScimTokenRow[]>('/api/team/scim/tokens', Perm.teamScimManage),
  createToken: post<{ name: string }, { token: ScimTokenRow; secret: string }>('/api/team/scim/tokens/create', Perm.teamScimManage),
  revokeToken: post<{ id: number }, ScimTokenRow>('/api/team/scim/tokens/revoke', Perm.teamScimManage),
  mappings: get<void, ScimMappingRow[]>('/api/team/scim/mappings', Perm.teamScimManage),
  saveMapping: post<{ groupName: string; roleId: number }, ScimMappingRow[]>('/api/team/scim/mappings/save', Perm.teamScimManage),
  removeMapping: post<{ id: number }, ScimMappingRow[]>('/api/team/scim/mappings/remove', Perm.teamScimManage),
  groups: get<void, ScimGroupRow[]>('/api/team/scim/groups', Perm.teamScimManage),
  signInIp: get<void, SignInIp>('/api/team/signin-ip', Perm.merchantUserManage),
  saveSignInIp: post<{ ranges: string }, SignInIp>('/api/team/signin-ip/save', Perm.merchantUserManage),
} as const;
