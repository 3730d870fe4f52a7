import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { http, saveFile } from '../../../lib/http';
import { DisputesApi } from '@portal/contract';

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

export type DisputeQuery = Record<string, string | number | undefined>;

export const disputesQuery = (q: DisputeQuery) =>
  queryOptions({
    queryKey: ['disputes', 'list', q],
    queryFn: ({ signal }) => http.call(DisputesApi.list, q, { signal }),
    placeholderData: keepPreviousData,
  });
export const useDisputes = (q: DisputeQuery) => useQuery(disputesQuery(q));

export const disputeQuery = (id: string) => queryOptions({ queryKey: ['disputes', 'detail', id], queryFn: ({ signal }) => http.call(DisputesApi.detail, { id }, { signal }) });
export const useDispute = (id: string) => useQuery(disputeQuery(id));

export const useDisputeCounts = (enabled = true) => useQuery({ queryKey: ['disputes', 'counts'], queryFn: ({ signal }) => http.call(DisputesApi.counts, undefined, { signal }), enabled });

export function uploadEvidence(id: number, category: string, file: File): Promise<Evidence> {
  const fd = new FormData();
  fd.append('file', file, file.name);
  return http.call(DisputesApi.uploadEvidence, { id, category, multipart: fd }, { quiet: true });
}
export const removeEvidence = (id: number, evidenceId: number) => http.call(DisputesApi.removeEvidence, { id, evidenceId });
export const downloadEvidence = async (id: number, evidenceId: number) => saveFile(await http.call(DisputesApi.evidence, { id, evidenceId }));
export const saveStatement = (id: number, statement: string) => http.call(DisputesApi.statement, { id, statement });
export const submitDispute = (id: number) => http.call(DisputesApi.submit, { id });
export const acceptDispute = (id: number) => http.call(DisputesApi.accept, { id });
