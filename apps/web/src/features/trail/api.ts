import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, saveFile } from '../../lib/http';
export type { Timeline, TimelineEvent } from '@portal/contract';

import { TrailApi } from '@portal/contract';

export type { ProofLine, ProofRow } from '@portal/contract';

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

export const useOrderSearch = (q: Record<string, string> | null) =>
  useQuery({ queryKey: ['trail', 'orders', q], queryFn: ({ signal }) => http.call(TrailApi.orderSearch, q!, { signal }), enabled: !!q });

export const useTimeline = (merId: string | null, no: string | null) =>
  useQuery({ queryKey: ['trail', 'timeline', merId, no], queryFn: ({ signal }) => http.call(TrailApi.orderTimeline, { merId: merId!, no: no! }, { signal }), enabled: !!merId && !!no });

export const timelinePath = (merId: string, orderNo: string) => `/trail/order?merId=${merId}&no=${encodeURIComponent(orderNo)}`;
