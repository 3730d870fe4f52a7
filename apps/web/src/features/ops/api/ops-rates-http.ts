import { OpsWorkApi, type OpsRatePropose } from '@portal/contract';
import { opsHttp } from './ops-http';

export type { OpsRate, OpsRateRequest, OpsRateVersion, OpsFxWaiting } from '@portal/contract';

export const opsRatesApi = {
  propose: (body: OpsRatePropose) => opsHttp.call(OpsWorkApi.proposeRate, body),
  decide: (id: number, how: 'approve' | 'reject', reason: string) => opsHttp.call(how === 'approve' ? OpsWorkApi.approveRate : OpsWorkApi.rejectRate, { id, reason }),
};
