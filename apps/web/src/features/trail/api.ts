import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, saveFile } from '../../lib/http';
export type { Timeline, TimelineEvent } from '@portal/contract';

import { TrailApi } from '@portal/contract';

/** GET /trail/transfer/:id/proof (issue 49 §1): the transfer's lines, which sum to the amount sent. */
export interface ProofLine {
  key: string;
  source: string;
  part: string;
  label: string;
  sign: 1 | -1 | 0;
  count: number;
  amount: string;
  txnCurrency?: string;
  txnAmount?: string;
  rateMin?: string;
  rateMax?: string;
}
export interface Proof {
  transfer: {
    id: string;
    merId: string;
    merName: string;
    busLine: string;
    currency: string;
    settleFrom: string;
    settleTo: string;
    remitDate: string | null;
    reconSetAmount: string;
    servAmount: string;
    releasedAmount: string;
    beforeFee: string;
    tranFee: string;
    amount: string;
  };
  lines: ProofLine[];
  total: string;
  balanced: boolean;
}
export interface ProofRow {
  kind: 'txn' | 'reserve' | 'settlement';
  txnId: string | null;
  ref: string;
  day: string;
  txnDate: string | null;
  txnTime: string | null;
  brand: string | null;
  type: string | null;
  txnCurrency: string | null;
  txnAmount: string | null;
  rate: string | null;
  amount: string;
  late: boolean;
}
export interface ProofRows {
  line: { key: string; label: string; amount: string };
  content: ProofRow[];
  totalElements: number;
  sum: string;
}

export const useProof = (id: string) => useQuery({ queryKey: ['trail', 'proof', id], queryFn: ({ signal }) => http.call(TrailApi.proof, { id }, { signal }) });

export const useProofRows = (id: string, line: string | null, page: number, size: number) =>
  useQuery({
    queryKey: ['trail', 'proofRows', id, line, page, size],
    queryFn: ({ signal }) => http.call(TrailApi.proofRows, { id, line: line!, page, size }, { signal }),
    enabled: !!line,
    placeholderData: keepPreviousData,
  });

/** GET …/proof/export (file): the proof as CSV or PDF, every line's rows beneath it. */
export const downloadProof = async (id: string, format: 'csv' | 'pdf', timeZone: string) => saveFile(await http.call(TrailApi.proofExport, { id, format, timeZone }));

/** The proof screen's path of a transfer (date.merchant.businessLine.currency). */
export const proofPath = (r: { txnSetDate: string; clientid: string; reconBusiness: string; merTxnSet: string }) =>
  `/report/transfer/proof/${r.txnSetDate}.${r.clientid}.${r.reconBusiness}.${r.merTxnSet}`;

/** GET /trail/order/search and /trail/order/timeline (issue 49 §3). */
export interface OrderHit {
  merId: string;
  orderNo: string;
  at: string | null;
  currency: string | null;
  amount: string | null;
  buyerEmail: string | null;
}

export const useOrderSearch = (q: Record<string, string> | null) =>
  useQuery({ queryKey: ['trail', 'orders', q], queryFn: ({ signal }) => http.call(TrailApi.orderSearch, q!, { signal }), enabled: !!q });

export const useTimeline = (merId: string | null, no: string | null) =>
  useQuery({ queryKey: ['trail', 'timeline', merId, no], queryFn: ({ signal }) => http.call(TrailApi.orderTimeline, { merId: merId!, no: no! }, { signal }), enabled: !!merId && !!no });

export const timelinePath = (merId: string, orderNo: string) => `/trail/order?merId=${merId}&no=${encodeURIComponent(orderNo)}`;
