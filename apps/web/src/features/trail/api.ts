import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, saveFile } from '../../lib/http';
export type { Timeline, TimelineEvent } from '@portal/contract';

import { TrailApi } from '@portal/contract';
import { apiQuery } from '../../lib/api-query';

export type { ProofLine, ProofRow } from '@portal/contract';

export const useProof = (id: string) => useQuery(apiQuery(TrailApi.proof, { id }));

export const useProofRows = (id: string, line: string | null, page: number, size: number) =>
  useQuery({
    ...apiQuery(TrailApi.proofRows, { id, line: line!, page, size }),
    enabled: !!line,
    placeholderData: keepPreviousData,
  });

/** GET …/proof/export (file): the proof as CSV or PDF, every line's rows beneath it. */
export const downloadProof = async (id: string, format: 'csv' | 'pdf', timeZone: string) => saveFile(await http.call(TrailApi.proofExport, { id, format, timeZone }));

/** The proof screen's path of a transfer (date.merchant.businessLine.currency). */
export const proofPath = (r: { txnSetDate: string; clientid: string; reconBusiness: string; merTxnSet: string }) =>
  `/report/transfer/proof/${r.txnSetDate}.${r.clientid}.${r.reconBusiness}.${r.merTxnSet}`;

export const useOrderSearch = (q: Record<string, string> | null) => useQuery({ ...apiQuery(TrailApi.orderSearch, q!), enabled: !!q });

export const useTimeline = (merId: string | null, no: string | null) => useQuery({ ...apiQuery(TrailApi.orderTimeline, { merId: merId!, no: no! }), enabled: !!merId && !!no });

export const timelinePath = (merId: string, orderNo: string) => `/trail/order?merId=${merId}&no=${encodeURIComponent(orderNo)}`;
