// The back office's answer types (issue 45 §3, decision 074), moved from apps/web/src/features/ops beside their descriptors (./ops.ts).
import type { OpsMe } from '../ops';

// From features/ops/api/ops-http.ts.
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

export interface OpsFeeHistoryRow extends OpsFee {
  effectiveFrom: string;
  enteredBy: string | null;
  enteredAt: string;
  state: 'FUTURE' | 'IN_FORCE' | 'PAST';
}

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

// From features/ops/api/ops-rates-http.ts.
/** The back office's exchange rates (issue 46, docs/backoffice.md "Exchange rates"). */
export interface OpsRate {
  date: string;
  from: string;
  to: string;
  rate: string;
  entryId: number;
  source: string;
  sourceRef: string | null;
  versions: number;
  settledCount: number;
}

export interface OpsRateRequest {
  id: number;
  date: string;
  from: string;
  to: string;
  rate: string;
  correction: boolean;
  note: string | null;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  proposedBy: string;
  proposedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
  entryId: number | null;
  currentRate: string | null;
  settledWithCurrent: number;
}

export interface OpsRateVersion {
  entryId: number;
  rate: string;
  source: string;
  sourceRef: string | null;
  supersedes: number | null;
  createdAt: string;
  settledCount: number;
  current: boolean;
}

export interface OpsFxWaiting {
  total: number;
  pairs: { pair: string; count: number; since: string | null }[];
}

// From features/ops/api/ops-notices-http.ts.
/** The back office's notices (decision 044). */
export interface OpsNoticeBody {
  title: string;
  summary?: string;
  content: string;
  level: 'info' | 'important';
  target: 'all' | 'merchants' | 'group';
  merchants?: string[];
  groupId?: string;
  publishAt?: string;
  timeZone?: string;
  files?: { name: string; contentBase64: string }[];
  removeAttachments?: number[];
}

// From features/ops/api/view-as-api.ts.
/** Support "view as" (decision 046): the back office's calls. */
export interface ViewAsOpened {
  id: number;
  token: string;
  merId: string;
  merName: string;
  expiresAt: string;
}

// From features/ops/api/ops-disputes-http.ts.
/** The back office's disputes (issue 48): every merchant's, the inbox's filters; the outcome a gateway reported by e-mail. */
export type OpsDisputeQuery = Partial<Record<'state' | 'kind' | 'merId' | 'reasonCode' | 'brand' | 'deadlineBefore', string>> & { page: number; size: number };

// From features/sso/ops-sso-page.tsx.
/** A merchant group with an identity provider, as the back office sees it (GET /api/ops/sso/merchants). */
export interface OpsSsoMerchant {
  merId: string;
  merName: string;
  kind: 'oidc' | 'saml';
  providerName: string;
  enabled: boolean;
  ssoRequired: boolean;
  verifiedDomains: number;
  ssoUsers: number;
  pendingRequest: { id: number; requestedBy: string } | null;
}
