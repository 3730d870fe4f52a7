import type { OpsMe } from '@portal/contract';
import { createClient } from '../../../lib/request';
import { getCookie, removeCookie, setCookie } from '../../../lib/cookies';
import { currentLanguage } from '../../../lib/i18n';
import { displayOffsetHours } from '../../../lib/time';
import { antdUi } from '../../../app/antd-ui';

/**
 * The back office's request client (decision 038): the same rules as the merchant portal's
 * (lib/request.ts), against /api/ops with the operator's own token pair — kept in cookies of its
 * own, so an operator's and a merchant user's sessions in one browser never meet.
 */
const OPS_COOKIE = { token: 'mp_ops_token', refreshToken: 'mp_ops_refresh' } as const;
const TWELVE_HOURS = 12 * 3600;

export const opsTokens = {
  getToken: () => getCookie(OPS_COOKIE.token) || undefined,
  getRefreshToken: () => getCookie(OPS_COOKIE.refreshToken) || undefined,
  setTokens(pair: { token: string; refreshToken: string }) {
    setCookie(OPS_COOKIE.token, pair.token, TWELVE_HOURS);
    setCookie(OPS_COOKIE.refreshToken, pair.refreshToken, TWELVE_HOURS);
  },
  clear() {
    removeCookie(OPS_COOKIE.token);
    removeCookie(OPS_COOKIE.refreshToken);
  },
};

export const opsHttp = createClient({
  fetch: (...args) => fetch(...args),
  tokens: opsTokens,
  baseUrl: '/api/ops',
  refreshPath: '/auth/refreshToken',
  ui: {
    showError: (msg) => antdUi.showError(msg),
    showTransportError: (err) => antdUi.showTransportError(err),
    confirmLogout() {
      opsTokens.clear();
      location.assign(`/ops/login?redirect=${encodeURIComponent(location.pathname)}`);
    },
  },
  language: currentLanguage,
  timezoneOffset: () => displayOffsetHours(),
});

export interface OperatorRow {
  id: number;
  username: string;
  email: string;
  role: OpsMe['role'];
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  createdAt: string;
  locked: boolean;
}

export interface OpsSession {
  id: number;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export const opsApi = {
  login: (form: { username: string; password: string; verifyCode: string }) =>
    opsHttp.request<{ token: string; refreshToken: string } | { remaining: number }>({ method: 'POST', url: '/auth/login', form, quiet: true }),
  logout: () => opsHttp.request<null>({ method: 'POST', url: '/auth/logout', quiet: true }),
  activation: (token: string) =>
    opsHttp.request<{ username: string; email: string; role: OpsMe['role']; totpSecret: string; otpauthUri: string }>({ url: '/auth/activation', params: { token }, quiet: true }),
  activate: (form: { token: string; newPassword: string; confirmPassword: string; totpCode: string }) =>
    opsHttp.request<{ username: string; recoveryCodes: string[] }>({ method: 'POST', url: '/auth/activate', form, quiet: true }),
  me: () => opsHttp.request<OpsMe>({ url: '/me' }),
  sessions: () => opsHttp.request<OpsSession[]>({ url: '/sessions' }),
  revokeSession: (id: number) => opsHttp.request<null>({ method: 'POST', url: `/sessions/${id}/revoke` }),
  operators: () => opsHttp.request<OperatorRow[]>({ url: '/operators' }),
  invite: (form: { username: string; email: string; role: string }) => opsHttp.request<{ id: number }>({ method: 'POST', url: '/operators', form }),
  setRole: (id: number, role: string) => opsHttp.request<null>({ method: 'POST', url: `/operators/${id}/role`, form: { role } }),
  setEnabled: (id: number, enabled: boolean) => opsHttp.request<null>({ method: 'POST', url: `/operators/${id}/${enabled ? 'enable' : 'disable'}` }),
  resendActivation: (id: number) => opsHttp.request<null>({ method: 'POST', url: `/operators/${id}/resendActivation` }),
};

export interface OpsFee {
  busLine: string;
  mdrBp: number;
  fixedFee: number;
  cycleDays: number;
  reserveBp: number;
  reserveHoldDays: number;
  tranThreshold: number;
  tranFee: number;
  transferPeriod: string;
  /** Issue 48: the fee of each dispute that arrives (minor units of the settlement currency). */
  disputeFee: number;
  effectiveFrom?: string | null;
}

export interface OpsMerchant {
  merId: string;
  attribute: 'GROUP' | 'SUB' | 'INDEPENDENT';
  parentId: string | null;
  parentName: string | null;
  name: string;
  corporationName: string | null;
  country: string | null;
  mcc: string | null;
  defaultCurrency: string;
  settleCurrency: string;
  channels: string[];
  currencies: string[];
  locked: boolean;
  lockReason: string | null;
  createdAt: string;
  [field: string]: unknown;
}

export interface OpsMerchantDetail extends OpsMerchant {
  fees: OpsFee[];
  bankAccounts: { id: number; beneficiaryBank: string; swiftCode: string; accountName: string; accountNumber: string; country: string; currency: string; isDefault: boolean }[];
  users: { username: string; email: string; status: string; main: boolean }[];
}

export const opsMerchantsApi = {
  list: (params: Record<string, unknown>) => opsHttp.request<{ content: OpsMerchant[]; totalElements: number }>({ url: '/merchants', params }),
  get: (merId: string) => opsHttp.request<OpsMerchantDetail>({ url: `/merchants/${merId}` }),
  create: (json: unknown) => opsHttp.request<{ merId: string; mainUserId: number | null; mailed: boolean }>({ method: 'POST', url: '/merchants', json }),
  edit: (merId: string, json: unknown) => opsHttp.request<null>({ method: 'POST', url: `/merchants/${merId}`, json }),
  lock: (merId: string, reason: string) => opsHttp.request<null>({ method: 'POST', url: `/merchants/${merId}/lock`, form: { reason } }),
  unlock: (merId: string) => opsHttp.request<null>({ method: 'POST', url: `/merchants/${merId}/unlock` }),
  resendActivation: (merId: string) => opsHttp.request<null>({ method: 'POST', url: `/merchants/${merId}/resendActivation` }),
};

export interface OpsFeeHistoryRow extends OpsFee {
  effectiveFrom: string;
  enteredBy: string | null;
  enteredAt: string;
  state: 'FUTURE' | 'IN_FORCE' | 'PAST';
}

export const opsFeesApi = {
  history: (merId: string) => opsHttp.request<OpsFeeHistoryRow[]>({ url: `/merchants/${merId}/fees` }),
  add: (merId: string, json: { effectiveFrom: string; fees: OpsFee[] }) => opsHttp.request<null>({ method: 'POST', url: `/merchants/${merId}/fees`, json }),
};

export interface OpsBankChange {
  id: number;
  merId: string;
  merName: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  beneficiaryBank: string;
  swiftCode: string;
  accountName: string;
  accountNumber: string;
  country: string;
  currency: string;
  documentName: string;
  requestedBy: string;
  requestedAt: string;
  changedBy: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
}

export const opsApprovalsApi = {
  list: (status?: string) => opsHttp.request<OpsBankChange[]>({ url: '/bankChanges', params: { status } }),
  decide: (id: number, decision: 'approve' | 'reject', reason: string) => opsHttp.request<unknown>({ method: 'POST', url: `/bankChanges/${id}/${decision}`, form: { reason } }),
};

export interface OpsAuditRow {
  id: number;
  at: string;
  actor: string | null;
  byOperator: boolean;
  merId: string | null;
  action: string;
  outcome: string;
  target: string | null;
  detail: string;
  ip: string | null;
}

export const opsAuditApi = {
  search: (params: Record<string, unknown>) => opsHttp.request<{ content: OpsAuditRow[]; totalElements: number }>({ url: '/audit', params }),
};

/** The runs screen (issue 26, decision 045). Amounts are minor units as strings. */
export interface OpsRunTotal {
  currency: string;
  rows: number;
  txnCount: number;
  reconAmount: string;
  feeAmount: string;
  transAmount: string;
}
export interface OpsRunAttempt {
  id: number;
  state: 'running' | 'done' | 'skipped' | 'failed';
  trigger: 'job' | 'cli' | 'operator';
  operator: string | null;
  startedAt: string;
  endedAt: string | null;
  txnCount: number | null;
  rowCount: number | null;
  unconverted: number | null;
  error: string | null;
}
export interface OpsSettlementRun {
  date: string;
  state: 'running' | 'done' | 'failed' | 'pending';
  txnCount: number | null;
  rowCount: number | null;
  finishedAt: string | null;
  totals: OpsRunTotal[];
  attempts: OpsRunAttempt[];
}
export interface OpsExportRow {
  id: number;
  merId: string;
  merName: string;
  kind: string;
  format: string;
  status: 'queued' | 'running' | 'ready' | 'failed';
  requestedBy: string;
  scheduled: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  sizeBytes: number | null;
  rowCount: number | null;
  attempts: number;
  error: string | null;
}
export interface OpsJobRow {
  id: number;
  kind: string;
  key: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  progress: number;
  runAt: string;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}
export interface OpsGatewayRow {
  id: string;
  name: string;
  merchants: string[];
  enabled: boolean;
  createdAt: string;
  activeKeys: number;
  txnCount: number;
  lastTxnAt: string | null;
  imports: number;
  differences: number;
  lastImport: {
    id: number;
    fileName: string;
    status: string;
    rowsRead: number;
    accepted: number;
    duplicate: number;
    rejected: number;
    controlOk: boolean | null;
    message: string | null;
    startedAt: string;
    finishedAt: string | null;
  } | null;
}

export const opsRunsApi = {
  settlement: (from: string, to: string) => opsHttp.request<{ lastRunDate: string | null; yesterday: string; content: OpsSettlementRun[] }>({ url: '/runs/settlement', params: { from, to } }),
  rerun: (date: string) =>
    opsHttp.request<{ date: string; skipped: boolean; txnCount: number; rowCount: number; unconverted: number; alsoRan: string[] }>({ method: 'POST', url: `/runs/settlement/${date}/rerun` }),
  exports: (status?: string) => opsHttp.request<OpsExportRow[]>({ url: '/runs/exports', params: { status } }),
  jobs: (status?: string) => opsHttp.request<OpsJobRow[]>({ url: '/runs/jobs', params: { status } }),
  retry: (id: number) => opsHttp.request<unknown>({ method: 'POST', url: `/runs/jobs/${id}/retry` }),
  gateways: () => opsHttp.request<OpsGatewayRow[]>({ url: '/runs/gateways' }),
};
