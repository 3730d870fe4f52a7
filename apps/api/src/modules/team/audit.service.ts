import { AUDIT_EVENT_TYPES, AUDIT_RETENTION_MONTHS, LIMITS, Perm, auditFilterSchema, type AuditFilter, type AuditRow } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import type { JobHandler } from '../../jobs/runner';
import { ensureRecurringJob } from '../../jobs/queue';
import { listMonths } from '../../db/partitions';
import { badRequest } from '../../lib/errors';
import { formatInZone, zonedToUtc } from '../../lib/zone';
import { registerExportSource } from '../export';
import { label as L } from '../../lib/labels';

/**
 * The audit log viewer (issue 12): every audited event of the caller's merchant scope — who, what,
 * target, address, time — filtered by time range (days in the platform zone, as the other lists),
 * user and event type; CSV export through the export queue; rows older than 12 months purged by
 * the job runner (PCI DSS 10.5.1).
 */

interface AuditDbRow {
  id: number;
  at: Date;
  username: string | null;
  mer_id: string | null;
  action: string;
  outcome: 'success' | 'failure';
  target: string | null;
  ip: string | null;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function auditWhere(f: AuditFilter, scope: string[], tz: string): { sql: string; params: unknown[] } {
  if (f.beginDate && f.endDate && f.beginDate > f.endDate) throw badRequest('beginDate must not be after endDate');
  const params: unknown[] = [scope];
  const conds = ['mer_id = ANY($1::text[])'];
  if (f.beginDate) {
    params.push(zonedToUtc(`${f.beginDate} 00:00:00`, tz));
    conds.push(`at >= $${params.length}`);
  }
  if (f.endDate) {
    const next = new Date(Date.parse(`${f.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    params.push(zonedToUtc(`${next} 00:00:00`, tz));
    conds.push(`at < $${params.length}`);
  }
  if (f.userName) {
    params.push(f.userName);
    conds.push(`lower(username) = lower($${params.length})`);
  }
  if (f.eventType) {
    params.push(AUDIT_EVENT_TYPES[f.eventType].map((p) => `${likeEscape(p)}%`));
    conds.push(`action LIKE ANY($${params.length}::text[])`);
  }
  return { sql: conds.join(' AND '), params };
}

const toRow = (r: AuditDbRow, tz: string): AuditRow => ({
  id: r.id,
  time: formatInZone(r.at, tz),
  userName: r.username,
  merId: r.mer_id,
  action: r.action,
  outcome: r.outcome,
  target: r.target,
  ip: r.ip,
});

export async function auditList(deps: Deps, f: AuditFilter, scope: string[], page: number, size: number) {
  const w = auditWhere(f, scope, deps.config.platformTz);
  const total = (await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE ${w.sql}`, w.params)).rows[0].n;
  const { rows } = await deps.db.query<AuditDbRow>(
    `SELECT id, at, username, mer_id, action, outcome, target, ip FROM audit_log WHERE ${w.sql}
      ORDER BY at DESC, id DESC LIMIT ${size} OFFSET ${page * size}`,
    w.params,
  );
  return { content: rows.map((r) => toRow(r, deps.config.platformTz)), totalElements: total };
}

/** Rows in keyset pages of 2,000 (newest first), for the export. */
async function* auditBatches(q: Queryable, f: AuditFilter, scope: string[], tz: string): AsyncIterable<AuditDbRow[]> {
  const w = auditWhere(f, scope, tz);
  let after: { at: Date; id: number } | null = null;
  for (;;) {
    const params = [...w.params];
    let cond = '';
    if (after) {
      params.push(after.at, after.id);
      cond = ` AND (at, id) < ($${params.length - 1}, $${params.length})`;
    }
    const { rows } = await q.query<AuditDbRow>(`SELECT id, at, username, mer_id, action, outcome, target, ip FROM audit_log WHERE ${w.sql}${cond} ORDER BY at DESC, id DESC LIMIT 2000`, params);
    if (!rows.length) return;
    yield rows;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.id };
  }
}

const LABEL = {
  title: L('Audit log', '审计日志', '감사 로그', '監査ログ'),
  time: L('Time', '时间', '시간', '日時'),
  user: L('User', '用户', '사용자', 'ユーザー'),
  merchant: L('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  event: L('Event', '事件', '이벤트', 'イベント'),
  outcome: L('Outcome', '结果', '결과', '結果'),
  target: L('Target', '对象', '대상', '対象'),
  ip: L('Address', '地址', '주소', 'アドレス'),
};

export const AUDIT_EXPORT_KIND = 'audit.log';

/** The audit log as an export source (CSV through the queue; scope from the session). */
export function registerAuditExport(): void {
  registerExportSource<AuditFilter, AuditDbRow>(AUDIT_EXPORT_KIND, {
    permission: Perm.merchantAudit,
    parse: (p) => auditFilterSchema.parse(p),
    fileName: (ctx) => LABEL.title[ctx.lang],
    columns: (ctx) => [
      { key: 'at', label: LABEL.time[ctx.lang], type: 'time', value: (r) => r.at },
      { key: 'user', label: LABEL.user[ctx.lang], type: 'text', value: (r) => r.username },
      { key: 'merchant', label: LABEL.merchant[ctx.lang], type: 'text', value: (r) => r.mer_id },
      { key: 'event', label: LABEL.event[ctx.lang], type: 'text', value: (r) => r.action },
      { key: 'outcome', label: LABEL.outcome[ctx.lang], type: 'text', value: (r) => r.outcome },
      { key: 'target', label: LABEL.target[ctx.lang], type: 'text', value: (r) => r.target },
      { key: 'ip', label: LABEL.ip[ctx.lang], type: 'text', value: (r) => r.ip },
    ],
    rows: (ctx, p) => auditBatches(ctx.deps.db, p, ctx.scope, ctx.deps.config.platformTz),
    count: async (ctx, p) => {
      const w = auditWhere(p, ctx.scope, ctx.deps.config.platformTz);
      return (await ctx.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE ${w.sql}`, w.params)).rows[0].n;
    },
  });
}

export const AUDIT_PURGE_JOB = 'audit.purge';
const PURGE_EVERY_MS = 24 * 3600_000;

/**
 * Retention: deletes audit rows older than 12 months, and frees the user name, e-mail and phone
 * of users removed more than 12 months ago (the row stays, renamed `removed-<id>`, so the audit
 * trail's user ids still resolve). Returns what it did.
 */
export async function purgeAudit(q: Queryable, now: Date): Promise<{ auditRows: number; usersFreed: number }> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - AUDIT_RETENTION_MONTHS);
  // Whole months before the cutoff go as one DROP each (partitions, decision 028), the rest of the
  // cutoff's month row by row.
  let auditRows = 0;
  for (const m of await listMonths(q, 'audit_log')) {
    if (m.to > cutoff) continue;
    auditRows += (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${m.name}`)).rows[0].n;
    await q.query(`DROP TABLE ${m.name}`);
  }
  auditRows += (await q.query('DELETE FROM audit_log WHERE at < $1', [cutoff])).rowCount;
  const u = await q.query(
    `UPDATE app_user SET username = 'removed-' || id, email = 'removed-' || id || '@removed.invalid', phone = NULL
      WHERE removed_at < $1 AND username <> 'removed-' || id`,
    [cutoff],
  );
  return { auditRows, usersFreed: u.rowCount };
}

/**
 * The per-name sign-in counts of names that are no usable account (login_name_attempt, migration
 * 050; decision 036) untouched for longer than the lockout window: their lock, if any, has run out
 * and their resend minute is long past. Without this the table grows with every name ever tried.
 * Returns how many rows went.
 */
async function purgeLoginNameAttempts(q: Queryable, now: Date): Promise<number> {
  return (await q.query('DELETE FROM login_name_attempt WHERE updated_at < $1', [new Date(now.getTime() - LIMITS.lockMinutes * 60_000)])).rowCount;
}

/** The team module's background set-up: the daily retention purge (audit rows, removed users' names, sign-in counts of unknown names). */
export async function setUpTeamJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: AUDIT_PURGE_JOB, uniqueKey: AUDIT_PURGE_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ db, clock }) => {
    const result = await db.tx(async (q) => ({ ...(await purgeAudit(q, clock.now())), nameAttempts: await purgeLoginNameAttempts(q, clock.now()) }));
    return { result, nextRunAt: new Date(clock.now().getTime() + PURGE_EVERY_MS) };
  };
  return { [AUDIT_PURGE_JOB]: handler };
}
