import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';

/** Audit actions of exports and scheduled reports (issue 28: every export leaves an entry with its filters and row count). */
export const ExportAudit = {
  /** A file streamed straight to the browser (transactions, reports, pay by link, in store …). */
  download: 'export.download',
  /** A queued export written by the worker (the file report), or a scheduled report's run file. */
  file: 'export.file',
  scheduleCreated: 'report.schedule.create',
  scheduleUpdated: 'report.schedule.update',
  schedulePaused: 'report.schedule.pause',
  scheduleResumed: 'report.schedule.resume',
  scheduleDeleted: 'report.schedule.delete',
  scheduleSendNow: 'report.schedule.send_now',
  scheduleRun: 'report.schedule.run',
} as const;

export interface ExportAuditEntry {
  action: string;
  userId: number;
  /** The actor's name when it is not the user's own (an API key: `apikey:<prefix>`). */
  username?: string;
  outcome?: 'success' | 'failure';
  target?: string | null;
  detail: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
}

/** Writes the entry under the acting user's name and home merchant (looked up: callers know only the id). */
export async function auditExport(q: Queryable, e: ExportAuditEntry): Promise<void> {
  const { rows } = await q.query<{ username: string; mer_id: string }>('SELECT username, mer_id FROM app_user WHERE id = $1', [e.userId]);
  await audit(q, {
    action: e.action,
    outcome: e.outcome ?? 'success',
    userId: rows[0] ? e.userId : null,
    username: e.username ?? rows[0]?.username ?? null,
    merId: rows[0]?.mer_id ?? null,
    target: e.target ?? null,
    detail: e.detail,
    ip: e.ip ?? null,
    userAgent: e.userAgent ?? null,
  });
}
