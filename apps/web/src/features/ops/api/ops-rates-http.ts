import type { OpsRatePropose } from '@portal/contract';
import { opsHttp } from './ops-http';

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

export const opsRatesApi = {
  list: (from: string, to: string, pair?: string) => opsHttp.request<{ rates: OpsRate[]; pending: OpsRateRequest[] }>({ url: '/rates', params: { from, to, pair } }),
  history: (date: string, from: string, to: string) =>
    opsHttp.request<{ date: string; from: string; to: string; versions: OpsRateVersion[]; requests: OpsRateRequest[] }>({ url: '/rates/history', params: { date, from, to } }),
  propose: (body: OpsRatePropose) => opsHttp.request<{ id: number; status: 'PENDING'; currentRate: string | null; settledWithCurrent: number }>({ method: 'POST', url: '/rates/requests', json: body }),
  decide: (id: number, how: 'approve' | 'reject', reason: string) =>
    opsHttp.request<{ id: number; status: string; entryId: number | null; msg: string | null; settledWithPrevious: number }>({ method: 'POST', url: `/rates/requests/${id}/${how}`, json: { reason } }),
  /** The runs screen's count of transactions waiting for a rate. */
  waiting: (from: string, to: string) => opsHttp.request<{ waitingForRate: OpsFxWaiting }>({ url: '/runs/settlement', params: { from, to } }),
};
