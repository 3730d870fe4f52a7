import { OpsApi, OpsMerchantsApi, OpsWorkApi, type EndpointIn, type OpsAuditQuery, type OpsFee, type OpsMerchantCreate, type OpsMerchantFields, type OpsRole } from '@portal/contract';
import { createClient } from '../../../lib/request';
import { getCookie, removeCookie, setCookie } from '../../../lib/cookies';
import { currentLanguage } from '../../../lib/i18n';
import { displayOffsetHours } from '../../../lib/time';
import { antdUi } from '../../../app/antd-ui';
export type {
  OperatorRow,
  OpsSession,
  OpsFee,
  OpsMerchant,
  OpsMerchantDetail,
  OpsFeeHistoryRow,
  OpsBankChange,
  OpsAuditRow,
  OpsSettlementRun,
  OpsExportRow,
  OpsJobRow,
  OpsGatewayRow,
} from '@portal/contract';

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

export const opsApi = {
  login: (form: { username: string; password: string; verifyCode: string }) => opsHttp.call(OpsApi.login, form, { quiet: true }),
  logout: () => opsHttp.call(OpsApi.logout, undefined, { quiet: true }),
  activation: (token: string) => opsHttp.call(OpsApi.activation, { token }, { quiet: true }),
  activate: (form: { token: string; newPassword: string; confirmPassword: string; totpCode: string }) => opsHttp.call(OpsApi.activate, form, { quiet: true }),
  me: () => opsHttp.call(OpsApi.me),
  sessions: () => opsHttp.call(OpsApi.sessions),
  revokeSession: (id: number) => opsHttp.call(OpsApi.revokeSession, { id }),
  operators: () => opsHttp.call(OpsApi.operators),
  invite: (form: { username: string; email: string; role: OpsRole }) => opsHttp.call(OpsApi.invite, form),
  setRole: (id: number, role: OpsRole) => opsHttp.call(OpsApi.setRole, { id, role }),
  setEnabled: (id: number, enabled: boolean) => opsHttp.call(enabled ? OpsApi.enable : OpsApi.disable, { id }),
  resendActivation: (id: number) => opsHttp.call(OpsApi.resendActivation, { id }),
};

export const opsMerchantsApi = {
  list: (params: Record<string, unknown>) => opsHttp.call(OpsMerchantsApi.list, params),
  get: (merId: string) => opsHttp.call(OpsMerchantsApi.get, { merId }),
  create: (json: OpsMerchantCreate) => opsHttp.call(OpsMerchantsApi.create, json),
  edit: (merId: string, json: OpsMerchantFields) => opsHttp.call(OpsMerchantsApi.edit, { ...json, merId }),
  lock: (merId: string, reason: string) => opsHttp.call(OpsMerchantsApi.lock, { merId, reason }),
  unlock: (merId: string) => opsHttp.call(OpsMerchantsApi.unlock, { merId }),
  resendActivation: (merId: string) => opsHttp.call(OpsMerchantsApi.resendActivation, { merId }),
};

export const opsFeesApi = {
  history: (merId: string) => opsHttp.call(OpsMerchantsApi.fees, { merId }),
  add: (merId: string, json: { effectiveFrom: string; fees: OpsFee[] }) => opsHttp.call(OpsMerchantsApi.addFees, { ...json, merId }),
};

export const opsApprovalsApi = {
  list: (status?: EndpointIn<typeof OpsMerchantsApi.bankChanges>['status']) => opsHttp.call(OpsMerchantsApi.bankChanges, { status }),
  decide: (id: number, decision: 'approve' | 'reject', reason: string) => opsHttp.call(decision === 'approve' ? OpsMerchantsApi.approveBankChange : OpsMerchantsApi.rejectBankChange, { id, reason }),
};

export const opsAuditApi = {
  search: (params: OpsAuditQuery) => opsHttp.call(OpsMerchantsApi.audit, params),
};

export const opsRunsApi = {
  settlement: (from: string, to: string) => opsHttp.call(OpsWorkApi.settlementRuns, { from, to }),
  rerun: (date: string) => opsHttp.call(OpsWorkApi.rerun, { date }),
  exports: (status?: EndpointIn<typeof OpsWorkApi.exports>['status']) => opsHttp.call(OpsWorkApi.exports, { status }),
  jobs: (status?: EndpointIn<typeof OpsWorkApi.jobs>['status']) => opsHttp.call(OpsWorkApi.jobs, { status }),
  retry: (id: number) => opsHttp.call(OpsWorkApi.retryJob, { id }),
  gateways: () => opsHttp.call(OpsWorkApi.gateways),
};
