import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditRow, Page } from '@portal/contract';
import { http } from '../../../lib/http';

export type AuditQuery = Record<string, string | number | undefined>;

/** GET /audit/list: beginDate, endDate, userName, eventType, page 0-based, size. */
const getAuditList = (q: AuditQuery, signal?: AbortSignal) => http.get<Page<AuditRow>>('/audit/list', q, { signal });
const auditListQuery = (q: AuditQuery) => queryOptions({ queryKey: ['team', 'audit', q], queryFn: ({ signal }) => getAuditList(q, signal), placeholderData: keepPreviousData });
export const useAuditList = (q: AuditQuery) => useQuery(auditListQuery(q));

/** POST /audit/export: queues a CSV of the same filters; the file appears in /report/file. */
export const exportAudit = (q: AuditQuery) => http.post<{ id: number; status: string }>('/audit/export', q);
