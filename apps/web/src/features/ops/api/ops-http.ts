import { OpsApi, OpsMerchantsApi, OpsWorkApi, type OpsFee, type OpsMerchantCreate, type OpsMerchantFields, type OpsRole } from '@portal/contract';
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
  revokeSession: (id: number) => opsHttp.call(OpsApi.revokeSession, { id }),
  invite: (form: { username: string; email: string; role: OpsRole }) => opsHttp.call(OpsApi.invite, form),
  setRole: (id: number, role: OpsRole) => opsHttp.call(OpsApi.setRole, { id, role }),
  setEnabled: (id: number, enabled: boolean) => opsHttp.call(enabled ? OpsApi.enable : OpsApi.disable, { id }),
  resendActivation: (id: number) => opsHttp.call(OpsApi.resendActivation, { id }),
};

export const opsMerchantsApi = {
  create: (json: OpsMerchantCreate) => opsHttp.call(OpsMerchantsApi.create, json),
  edit: (merId: string, json: OpsMerchantFields) => opsHttp.call(OpsMerchantsApi.edit, { ...json, merId }),
  lock: (merId: string, reason: string) => opsHttp.call(OpsMerchantsApi.lock, { merId, reason }),
  unlock: (merId: string) => opsHttp.call(OpsMerchantsApi.unlock, { merId }),
  resendActivation: (merId: string) => opsHttp.call(OpsMerchantsApi.resendActivation, { merId }),
};

export const opsFeesApi = {
  add: (merId: string, json: { effectiveFrom: string; fees: OpsFee[] }) => opsHttp.call(OpsMerchantsApi.addFees, { ...json, merId }),
};

export const opsApprovalsApi = {
  decide: (id: number, decision: 'approve' | 'reject', reason: string) => opsHttp.call(decision === 'approve' ? OpsMerchantsApi.approveBankChange : OpsMerchantsApi.rejectBankChange, { id, reason }),
};

export const opsRunsApi = {
  rerun: (date: string) => opsHttp.call(OpsWorkApi.rerun, { date }),
  retry: (id: number) => opsHttp.call(OpsWorkApi.retryJob, { id }),
};
