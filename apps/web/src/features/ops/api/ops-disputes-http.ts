import type { Page } from '@portal/contract';
import type { DisputeDetail, DisputeRow } from '../../disputes/api/disputes-api';
import { opsHttp } from './ops-http';

/** The back office's disputes (issue 48): every merchant's, the inbox's filters; the outcome a gateway reported by e-mail. */
export type OpsDisputeQuery = Partial<Record<'state' | 'kind' | 'merId' | 'reasonCode' | 'brand' | 'deadlineBefore', string>> & { page: number; size: number };

export const opsDisputesApi = {
  list: (params: OpsDisputeQuery) => opsHttp.request<Page<DisputeRow>>({ url: '/disputes', params }),
  detail: (id: number) => opsHttp.request<DisputeDetail>({ url: `/disputes/${id}` }),
  outcome: (id: number, outcome: 'under_review' | 'won' | 'lost', note: string | null) => opsHttp.request<null>({ method: 'POST', url: `/disputes/${id}/outcome`, json: { outcome, note } }),
};
