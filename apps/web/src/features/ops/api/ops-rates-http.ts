import { OpsWorkApi, type OpsRatePropose } from '@portal/contract';
import { opsHttp } from './ops-http';

export type { OpsRate, OpsRateRequest, OpsRateVersion, OpsFxWaiting } from '@portal/contract';

export const opsRatesApi = {
  list: (from: string, to: string, pair?: string) => opsHttp.call(OpsWorkApi.rates, { from, to, pair }),
  history: (date: string, from: string, to: string) => opsHttp.call(OpsWorkApi.rateHistory, { date, from, to }),
  propose: (body: OpsRatePropose) => opsHttp.call(OpsWorkApi.proposeRate, body),
  decide: (id: number, how: 'approve' | 'reject', reason: string) => opsHttp.call(how === 'approve' ? OpsWorkApi.approveRate : OpsWorkApi.rejectRate, { id, reason }),
  /** The runs screen's count of transactions waiting for a rate. */
  waiting: (from: string, to: string) => opsHttp.call(OpsWorkApi.settlementRuns, { from, to }),
};
