import type { Page } from '../api';
import type { z } from 'zod';
import type { ExportStatus } from '../files';
import type { OpsMe, OpsRole, opsBankAccountSchema, opsCreateMerchantSchema, opsMerchantFieldsSchema } from '../ops';
import type { JOB_STATUSES } from '../ops-runs';
import type { SignInRefusal } from './user';
import type { OpsNoticeRow, OpsNoticeStatus } from '../ops-notices';
import type { OpsRatePropose } from '../ops-rates';
import type { DisputeDetail, DisputeRow } from './disputes';
import { get, post, type OpsAccess } from './endpoint';
import type {
  OperatorRow,
  OpsAuditRow,
  OpsBankChange,
  OpsDisputeQuery,
  OpsExportRow,
  OpsFee,
  OpsFeeHistoryRow,
  OpsFxWaiting,
  OpsGatewayRow,
  OpsJobRow,
  OpsMerchant,
  OpsMerchantDetail,
  OpsNoticeBody,
  OpsRate,
  OpsRateRequest,
  OpsRateVersion,
  OpsSession,
  OpsSettlementRun,
  OpsSsoMerchant,
  ViewAsOpened,
} from './ops-types';

/** The roles that may call (the administrator always may; none listed: the administrator only). */
const roles = (...r: OpsRole[]): OpsAccess => ({ opsRoles: r });
const ANY = roles('administrator', 'onboarding', 'risk', 'support', 'read-only');
const ADMIN = roles();
const READERS = roles('onboarding', 'risk', 'support', 'read-only');
type Id = { id: number };
type MerId = { merId: string };
type Reason = { reason: string };
type JobStatus = (typeof JOB_STATUSES)[number];
/** What the merchant forms send (JSON): the input of the route's own schemas, types only (no zod value reaches the web). */
export type OpsMerchantCreate = z.input<typeof opsCreateMerchantSchema>;
export type OpsMerchantFields = z.input<typeof opsMerchantFieldsSchema>;
export type OpsBankAccount = z.input<typeof opsBankAccountSchema>;
/** GET /api/ops/audit: by merchant, action prefix, actor, platform days (at most 92). */
export interface OpsAuditQuery {
  page?: number;
  size?: number;
  merId?: string;
  action?: string;
  actor?: string;
  operatorsOnly?: 'true' | 'false';
  from: string;
  to: string;
}

/** The back office's sign-in, session and operators (decision 038): its own realm under /api/ops. */
export const OpsApi = {
  login: post<{ username: string; password: string; verifyCode: string }, { token: string; refreshToken: string }, SignInRefusal>('/api/ops/auth/login', 'public'),
  refreshToken: post<{ refreshToken: string }, { token: string; refreshToken: string }>('/api/ops/auth/refreshToken', 'public'),
  logout: post<void, null>('/api/ops/auth/logout', 'public'),
  activation: get<{ token: string }, { username: string; email: string; role: OpsMe['role']; totpSecret: string; otpauthUri: string }>('/api/ops/auth/activation', 'public'),
  activate: post<{ token: string; newPassword: string; confirmPassword: string; totpCode: string }, { username: string; recoveryCodes: string[] }>('/api/ops/auth/activate', 'public'),
  me: get<void, OpsMe>('/api/ops/me', ANY),
  sessions: get<void, OpsSession[]>('/api/ops/sessions', ANY),
  revokeSession: post<Id, null>('/api/ops/sessions/:id/revoke', ANY),
  operators: get<void, OperatorRow[]>('/api/ops/operators', ADMIN),
  invite: post<{ username: string; email: string; role: OpsRole }, { id: number }>('/api/ops/operators', ADMIN),
  resendActivation: post<Id, null>('/api/ops/operators/:id/resendActivation', ADMIN),
  setRole: post<Id & { role: OpsRole }, null>('/api/ops/operators/:id/role', ADMIN),
  disable: post<Id, null>('/api/ops/operators/:id/disable', ADMIN),
  enable: post<Id, null>('/api/ops/operators/:id/enable', ADMIN),
  /** Development only (loopback, never in production): an operator for the e2e specs. */
  devAddOperator: post<{ username: string; email: string; role?: OpsRole }, { id: number; link: string }>('/api/ops/dev/addOperator', 'public', 'json'),
} as const;

/** Merchants, their fees and bank changes, the audit log, notices (issues 26, 30). */
export const OpsMerchantsApi = {
  list: get<Record<string, unknown>, Page<OpsMerchant>>('/api/ops/merchants', ANY),
  get: get<MerId, OpsMerchantDetail>('/api/ops/merchants/:merId', ANY),
  create: post<OpsMerchantCreate, { merId: string; mainUserId: number | null; mailed: boolean }>('/api/ops/merchants', roles('onboarding'), 'json'),
  edit: post<MerId & OpsMerchantFields, null>('/api/ops/merchants/:merId', roles('onboarding'), 'json'),
  fees: get<MerId, OpsFeeHistoryRow[]>('/api/ops/merchants/:merId/fees', ANY),
  addFees: post<MerId & { effectiveFrom: string; fees: OpsFee[] }, null>('/api/ops/merchants/:merId/fees', roles('onboarding'), 'json'),
  resendActivation: post<MerId, null>('/api/ops/merchants/:merId/resendActivation', roles('onboarding')),
  lock: post<MerId & Reason, null>('/api/ops/merchants/:merId/lock', roles('risk')),
  unlock: post<MerId, null>('/api/ops/merchants/:merId/unlock', roles('risk')),
  bankChanges: get<{ status?: 'PENDING' | 'APPROVED' | 'REJECTED' }, OpsBankChange[]>('/api/ops/bankChanges', ANY),
  bankChange: post<Id & OpsBankAccount, null>('/api/ops/bankChanges/:id', roles('onboarding')),
  approveBankChange: post<Id & Reason, unknown>('/api/ops/bankChanges/:id/approve', roles('risk')),
  rejectBankChange: post<Id & Reason, unknown>('/api/ops/bankChanges/:id/reject', roles('risk')),
  audit: get<OpsAuditQuery, Page<OpsAuditRow>>('/api/ops/audit', ANY),
  notices: get<{ status?: OpsNoticeStatus; page: number; size: number }, Page<OpsNoticeRow>>('/api/ops/notices', ANY),
  notice: get<Id, OpsNoticeRow>('/api/ops/notices/:id', ANY),
  createNotice: post<OpsNoticeBody, OpsNoticeRow>('/api/ops/notices', roles('support', 'onboarding'), 'json'),
  editNotice: post<Id & OpsNoticeBody, OpsNoticeRow>('/api/ops/notices/:id', roles('support', 'onboarding'), 'json'),
  withdrawNotice: post<Id, OpsNoticeRow>('/api/ops/notices/:id/withdraw', roles('support', 'onboarding')),
} as const;

/** View-as, runs, rates, SSO requests and disputes of the back office (issues 26, 38, 48, 51). */
export const OpsWorkApi = {
  viewAs: post<MerId & Reason, ViewAsOpened>('/api/ops/merchants/:merId/view-as', roles('support'), 'json'),
  endViewAs: post<Id, null>('/api/ops/view-as/:id/end', roles('support')),
  viewAsList: get<void, unknown[]>('/api/ops/view-as', roles('support')),
  settlementRuns: get<{ from: string; to: string }, { lastRunDate: string | null; yesterday: string; content: OpsSettlementRun[]; waitingForRate: OpsFxWaiting }>(
    '/api/ops/runs/settlement',
    roles('risk', 'support'),
  ),
  rerun: post<{ date: string }, { date: string; skipped: boolean; txnCount: number; rowCount: number; unconverted: number; alsoRan: string[] }>('/api/ops/runs/settlement/:date/rerun', ADMIN),
  exports: get<{ status?: ExportStatus }, OpsExportRow[]>('/api/ops/runs/exports', roles('risk', 'support')),
  jobs: get<{ status?: JobStatus }, OpsJobRow[]>('/api/ops/runs/jobs', roles('risk', 'support')),
  retryJob: post<Id, unknown>('/api/ops/runs/jobs/:id/retry', ADMIN),
  gateways: get<void, OpsGatewayRow[]>('/api/ops/runs/gateways', roles('risk', 'support')),
  rates: get<{ from: string; to: string; pair?: string }, { rates: OpsRate[]; pending: OpsRateRequest[] }>('/api/ops/rates', READERS),
  rateHistory: get<{ date: string; from: string; to: string }, { date: string; from: string; to: string; versions: OpsRateVersion[]; requests: OpsRateRequest[] }>('/api/ops/rates/history', READERS),
  proposeRate: post<OpsRatePropose, { id: number; status: 'PENDING'; currentRate: string | null; settledWithCurrent: number }>('/api/ops/rates/requests', roles('risk'), 'json'),
  approveRate: post<Id & Reason, RateDecision>('/api/ops/rates/requests/:id/approve', roles('risk'), 'json'),
  rejectRate: post<Id & Reason, RateDecision>('/api/ops/rates/requests/:id/reject', roles('risk'), 'json'),
  ssoMerchants: get<void, OpsSsoMerchant[]>('/api/ops/sso/merchants', READERS),
  ssoRequireOff: post<MerId & Reason, { id: number }>('/api/ops/sso/merchants/:merId/requireOff', roles('risk', 'support'), 'json'),
  approveSso: post<Id, { id: number; status: string }>('/api/ops/sso/requests/:id/approve', roles('risk', 'support')),
  rejectSso: post<Id, { id: number; status: string }>('/api/ops/sso/requests/:id/reject', roles('risk', 'support')),
  disputes: get<OpsDisputeQuery, Page<DisputeRow>>('/api/ops/disputes', roles('risk', 'support', 'read-only')),
  dispute: get<Id, DisputeDetail>('/api/ops/disputes/:id', roles('risk', 'support', 'read-only')),
  disputeOutcome: post<Id & { outcome: 'under_review' | 'won' | 'lost'; note: string | null }, null>('/api/ops/disputes/:id/outcome', roles('risk'), 'json'),
} as const;
type RateDecision = { id: number; status: string; entryId: number | null; msg: string | null; settledWithPrevious: number };
