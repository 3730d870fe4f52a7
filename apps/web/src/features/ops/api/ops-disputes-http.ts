import { opsHttp } from './ops-http';
import { OpsWorkApi, type OpsDisputeQuery } from '@portal/contract';
export type { OpsDisputeQuery } from '@portal/contract';

export const opsDisputesApi = {
  list: (params: OpsDisputeQuery) => opsHttp.call(OpsWorkApi.disputes, params),
  detail: (id: number) => opsHttp.call(OpsWorkApi.dispute, { id }),
  outcome: (id: number, outcome: 'under_review' | 'won' | 'lost', note: string | null) => opsHttp.call(OpsWorkApi.disputeOutcome, { id, outcome, note }),
};
