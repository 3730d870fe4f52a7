import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';

export type AuditQuery = Record<string, string | number | undefined>;

/** GET /audit/list: beginDate, endDate, userName, eventType, page 0-based, size. */
export const auditListQuery = (q: AuditQuery) => queryOptions({ ...apiQuery(TeamApi.auditList, q), placeholderData: keepPreviousData });
export const useAuditList = (q: AuditQuery) => useQuery(auditListQuery(q));

/** POST /audit/export: queues a CSV of the same filters; the file appears in /report/file. */
export const exportAudit = (q: AuditQuery) => http.call(TeamApi.auditExport, q);
