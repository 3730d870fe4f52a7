import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi } from '@portal/contract';

export type AuditQuery = Record<string, string | number | undefined>;

/** GET /audit/list: beginDate, endDate, userName, eventType, page 0-based, size. */
const getAuditList = (q: AuditQuery, signal?: AbortSignal) => http.call(TeamApi.auditList, q, { signal });
const auditListQuery = (q: AuditQuery) => queryOptions({ queryKey: ['team', 'audit', q], queryFn: ({ signal }) => getAuditList(q, signal), placeholderData: keepPreviousData });
export const useAuditList = (q: AuditQuery) => useQuery(auditListQuery(q));

/** POST /audit/export: queues a CSV of the same filters; the file appears in /report/file. */
export const exportAudit = (q: AuditQuery) => http.call(TeamApi.auditExport, q);
