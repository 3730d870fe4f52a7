import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { DisputesApi, type Evidence } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
export type { DisputeRow, DisputeDetail, Evidence, DisputeState } from '@portal/contract';

export { DISPUTE_STATES, DISPUTE_KINDS, EVIDENCE_CATEGORIES, EVIDENCE_MAX_BYTES, EVIDENCE_MAX_FILES, STATEMENT_MAX } from '@portal/contract';

export type DisputeQuery = Record<string, string | number | undefined>;

export const disputesQuery = (q: DisputeQuery) =>
  queryOptions({
    ...apiQuery(DisputesApi.list, q),
    placeholderData: keepPreviousData,
  });
/** Keys from the descriptors (['disputes', 'list', q], ['disputes', ':id', { id }], ['disputes', 'counts']): ['disputes'] invalidates the three. */
export const useDisputes = (q: DisputeQuery) => useQuery(disputesQuery(q));

export const disputeQuery = (id: string) => apiQuery(DisputesApi.detail, { id });
export const useDispute = (id: string) => useQuery(disputeQuery(id));

export const useDisputeCounts = (enabled = true) => useQuery({ ...apiQuery(DisputesApi.counts, undefined), enabled });

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
