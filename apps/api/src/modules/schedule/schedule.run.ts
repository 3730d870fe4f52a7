import { Perm, SCHEDULE_PERMISSION, type Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { InvalidInput, issuesDetail } from '../../lib/validation';
import { t } from '../../lib/messages';
import { contextOf, exportSource, stamp, writeExportRow } from '../export';
import { insertExport } from '../export';
import { formatInZone } from '../../lib/zone';
import { runUser, usersInScope, type ScheduleRow } from './schedule.repo';
import { dateIn, offsetHours, rollParams } from './schedule.time';
import { merchantFilterOf } from './schedule.filters';
import { auditExport, ExportAudit } from '../export';

export interface RunResult {
  at: Date;
  result: 'sent' | 'failed';
  error: string | null;
  fileId: number | null;
  /** The addresses mailed (a sent run). */
  recipients?: string[];
}

/** An error as the owner reads it, in the schedule's language. */
function reason(lang: Language, err: unknown): string {
  if (err instanceof InvalidInput) return t(lang, 'badRequest', { detail: issuesDetail(lang, err.issues) });
  if (err instanceof AppError) return t(lang, err.key, err.params);
  return err instanceof Error ? err.message : String(err);
}

/**
 * One run of a schedule at `now`: checks the owner (active, still holding the export permission of
 * the report and the file report), writes the export as a file of the owner's file report (the
 * filters' dates moved to end the day before the run), and mails it to the recipients that are
 * still active users of the owner's merchants. Never throws: a run that cannot be made is a failed
 * file-report entry with the reason.
 */
export async function runSchedule(deps: Deps, s: ScheduleRow, now: Date): Promise<RunResult> {
  const r = await runOnce(deps, s, now);
  // Every run is audited (issue 28): its filters, merchants, the file's row count, the recipients or the reason it failed.
  const file = r.fileId
    ? (await deps.db.query<{ row_count: number | null; params: unknown; scope: string[] }>('SELECT row_count, params, scope FROM export_file WHERE id = $1', [r.fileId])).rows[0]
    : undefined;
  await auditExport(deps.db, {
    action: ExportAudit.scheduleRun,
    userId: s.user_id,
    outcome: r.result === 'sent' ? 'success' : 'failure',
    target: `schedule:${s.id}`,
    detail: {
      scheduleId: s.id,
      kind: s.kind,
      format: s.format,
      params: file?.params ?? s.params,
      scope: file?.scope ?? s.scope,
      fileId: r.fileId,
      rows: file?.row_count ?? null,
      recipients: r.recipients ?? [],
      error: r.error,
    },
  });
  return r;
}

async function runOnce(deps: Deps, s: ScheduleRow, now: Date): Promise<RunResult> {
  const lang = s.lang as Language;
  const tz = offsetHours(s.time_zone, now);
  const source = exportSource(s.kind);
  const base = { userId: s.user_id, merId: s.mer_id, kind: s.kind, lang, tzOffset: tz, format: s.format, scheduleId: s.id };
  const fileName = (params: unknown, ok: boolean) => {
    const title = ok ? source.fileName(contextOf(deps, { lang, tzOffset: tz, scope: [], userId: s.user_id }), params) : s.kind;
    return `${title}_${stamp(now, tz)}.${s.format}`;
  };
  const failed = async (why: string, params: unknown = s.params): Promise<RunResult> => {
    const row = await insertExport(deps.db, { ...base, params, scope: s.scope, fileName: fileName(params, false), failed: why });
    return { at: now, result: 'failed', error: why, fileId: row.id };
  };

  const user = await runUser(deps.db, s.user_id);
  if (!user || user.status !== 'ACTIVE' || user.removed) return failed(t(lang, 'scheduleOwnerInactive'));
  for (const need of [SCHEDULE_PERMISSION[s.kind], Perm.reportFile]) {
    if (!user.permissions.includes(need)) return failed(t(lang, 'schedulePermissionLost', { permission: need }));
  }
  const scope = s.scope.filter((m) => user.scope.includes(m));
  const allowed = new Set((await usersInScope(deps.db, user.scope)).map((u) => u.email));
  const to = s.recipients.filter((e) => allowed.has(e.toLowerCase()));
  if (!to.length) return failed(t(lang, 'scheduleNoRecipient'));

  let params: unknown;
  const rolled = rollParams(s.params, dateIn(now, s.time_zone));
  try {
    params = source.parse(rolled);
  } catch (err) {
    return failed(reason(lang, err), rolled);
  }
  // Never wider than the schedule was made for: its scope, within the owner's merchants now, and
  // within its merchant filter (a schedule saved before that was checked may name a foreign one).
  const merId = merchantFilterOf(params);
  if (merId && !scope.includes(merId)) return failed(t(lang, 'scheduleScopeLost'), params);
  if (merId) scope.splice(0, scope.length, merId);
  if (!scope.length) return failed(t(lang, 'scheduleScopeLost'), params);
  const name = fileName(params, true);
  const row = await insertExport(deps.db, { ...base, params, scope, fileName: name });
  const out = await writeExportRow(deps, row);
  if (out.status !== 'ready' || !out.file) return { at: now, result: 'failed', error: out.error ?? 'failed', fileId: row.id };
  const { rows } = await deps.db.query<{ row_count: number }>('SELECT row_count FROM export_file WHERE id = $1', [row.id]);
  const text = t(lang, 'scheduleMailText', {
    name,
    rows: Number(rows[0]?.row_count ?? 0),
    at: formatInZone(now, tz).slice(0, 16),
    zone: s.time_zone,
  });
  try {
    for (const addr of to) {
      await deps.mailer.send({
        to: addr,
        subject: t(lang, 'scheduleMailSubject', { name }),
        text,
        attachments: [{ filename: name, path: out.file, contentType: s.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }],
      });
    }
  } catch (err) {
    return { at: now, result: 'failed', error: `mail: ${reason(lang, err)}`.slice(0, 500), fileId: row.id };
  }
  return { at: now, result: 'sent', error: null, fileId: row.id, recipients: to };
}
