import { opsHttp } from './ops-http';
import { OpsWorkApi } from '@portal/contract';
export type { OpsDisputeQuery } from '@portal/contract';

export const opsDisputesApi = {
  outcome: (id: number, outcome: 'under_review' | 'won' | 'lost', note: string | null) => opsHttp.call(OpsWorkApi.disputeOutcome, { id, outcome, note }),
};
