import type { Page } from '../api';
import { Perm } from '../permissions';
import { download, get, post, type Multipart } from './endpoint';
import type { WireQuery } from './wire';

/** Issue 48: the disputes API (apps/api/src/modules/disputes/disputes.routes.ts). */
export type DisputeState = 'needs_response' | 'under_review' | 'won' | 'lost' | 'accepted' | 'expired';
export type DisputeKind = 'inquiry' | 'chargeback' | 'pre_arbitration';
export const DISPUTE_STATES: DisputeState[] = ['needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired'];
export const DISPUTE_KINDS: DisputeKind[] = ['inquiry', 'chargeback', 'pre_arbitration'];
export const EVIDENCE_CATEGORIES = ['receipt', 'proof_of_delivery', 'refund_policy', 'correspondence', 'other'] as const;
export const EVIDENCE_MAX_BYTES = 4_718_592;
export const EVIDENCE_MAX_FILES = 10;
export const STATEMENT_MAX = 5000;

export interface DisputeRow {
  id: number;
  gwDisputeId: string;
  merId: string;
  merName: string;
  kind: DisputeKind;
  state: DisputeState;
  brand: string;
  reasonCode: string;
  reason: string;
  reasonGroup: string;
  amount: string;
  currency: string;
  debitAmount: string;
  refundedBefore: string;
  deadline: string;
  daysLeft: number;
  openedAt: string;
  closedAt: string | null;
  sendState: string | null;
  purchaseId: number;
  purchaseGwTransId: string;
  purchaseOrderNo: string;
}

export interface Evidence {
  id: number;
  category: string;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
  uploadedAt: string;
  submitted: boolean;
}

export interface DisputeDetail extends DisputeRow {
  reasonKnown: boolean;
  evidenceHelps: string[];
  evidenceText: string;
  statement: string | null;
  submittedAt: string | null;
  acceptedAt: string | null;
  outcomeBy: string | null;
  canRespond: boolean;
  purchase: { id: number; gwTransId: string; orderNo: string; amount: string; currency: string; time: string; returnAmount: string; disputedAmount: string; brand: string | null; channel: string };
  refunds: { id: number; gwTransId: string; orderNo: string; amount: string; currency: string; gwResponse: string | null; time: string }[];
  evidence: Evidence[];
  timeline: { at: string; action: string; by: string | null; detail: Record<string, unknown> }[];
  settlement: { id: number; kind: string; txnId: number; gwTransId: string; busLine: string; setCur: string; settleDate: string | null; amount: string }[];
}

type Id = { id: number };
type Sent = { state: string; sendState: string | null };

/** Disputes (issue 48): the inbox, a dispute's detail, its evidence and answer. */
export const DisputesApi = {
  list: get<WireQuery, Page<DisputeRow>>('/api/disputes/list', Perm.disputeView),
  counts: get<void, Record<DisputeState | 'dueSoon', number>>('/api/disputes/counts', Perm.disputeView),
  detail: get<{ id: string | number }, DisputeDetail>('/api/disputes/:id', Perm.disputeView),
  uploadEvidence: post<Id & { category: string } & Multipart, Evidence>('/api/disputes/:id/evidence', Perm.disputeRespond, 'multipart'),
  removeEvidence: post<Id & { evidenceId: number }, null>('/api/disputes/:id/evidence/:evidenceId/delete', Perm.disputeRespond),
  evidence: download<Id & { evidenceId: number }>('/api/disputes/:id/evidence/:evidenceId', Perm.disputeView),
  statement: post<Id & { statement: string }, null>('/api/disputes/:id/statement', Perm.disputeRespond),
  submit: post<Id, Sent>('/api/disputes/:id/submit', Perm.disputeRespond),
  accept: post<Id, Sent>('/api/disputes/:id/accept', Perm.disputeRespond),
} as const;
