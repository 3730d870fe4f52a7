import type { Schedule, ScheduleInput } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Recurrence } from './schedule.time';

export interface ScheduleRow {
  id: number;
  user_id: number;
  mer_id: string;
  kind: Schedule['kind'];
  params: Record<string, unknown>;
  format: 'xlsx' | 'csv';
  frequency: Schedule['frequency'];
  time_of_day: string;
  weekday: number | null;
  month_day: number | null;
  time_zone: string;
  recipients: string[];
  scope: string[];
  lang: string;
  paused: boolean;
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_result: Schedule['lastResult'];
  last_error: string | null;
  last_file_id: number | null;
  created_at: Date;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toSchedule(r: ScheduleRow): Schedule {
  return {
    id: r.id,
    kind: r.kind,
    params: r.params,
    format: r.format,
    frequency: r.frequency,
    time: r.time_of_day,
    weekday: r.weekday,
    monthDay: r.month_day,
    timeZone: r.time_zone,
    recipients: r.recipients,
    paused: r.paused,
    nextRunAt: r.paused ? null : iso(r.next_run_at),
    lastRunAt: iso(r.last_run_at),
    lastResult: r.last_result,
    lastError: r.last_error,
    lastFileId: r.last_file_id === null ? null : Number(r.last_file_id),
    createdAt: iso(r.created_at)!,
  };
}

/** The recurrence columns of an input (weekday / monthDay only where the frequency uses them). */
const when = (v: ScheduleInput) => [v.frequency, v.time, v.frequency === 'weekly' ? v.weekday : null, v.frequency === 'monthly' ? v.monthDay : null, v.timeZone];

export async function insertSchedule(q: Queryable, v: ScheduleInput & { userId: number; merId: string; scope: string[]; lang: string; nextRunAt: Date }): Promise<ScheduleRow> {
  const { rows } = await q.query<ScheduleRow>(
    `INSERT INTO report_schedule (user_id, mer_id, kind, params, format, frequency, time_of_day, weekday, month_day, time_zone, recipients, scope, lang, next_run_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING *`,
    [v.userId, v.merId, v.kind, JSON.stringify(v.params), v.format, ...when(v), v.recipients, v.scope, v.lang, v.nextRunAt],
  );
  return rows[0];
}

export async function updateSchedule(q: Queryable, id: number, v: ScheduleInput & { scope: string[]; lang: string; nextRunAt: Date }): Promise<ScheduleRow> {
  const { rows } = await q.query<ScheduleRow>(
    `UPDATE report_schedule SET kind = $2, params = $3, format = $4, frequency = $5, time_of_day = $6, weekday = $7, month_day = $8, time_zone = $9,
            recipients = $10, scope = $11, lang = $12, next_run_at = $13, updated_at = now()
      WHERE id = $1 RETURNING *`,
    [id, v.kind, JSON.stringify(v.params), v.format, ...when(v), v.recipients, v.scope, v.lang, v.nextRunAt],
  );
  return rows[0];
}

/** The caller's own schedule (another user's, or a deleted one, is absent). */
export async function findOwnSchedule(q: Queryable, id: number, userId: number): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>('SELECT * FROM report_schedule WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL', [id, userId]);
  return rows[0];
}

export async function findSchedule(q: Queryable, id: number): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>('SELECT * FROM report_schedule WHERE id = $1 AND deleted_at IS NULL', [id]);
  return rows[0];
}

export async function listSchedules(q: Queryable, userId: number, page: number, size: number) {
  const [list, count] = await Promise.all([
    q.query<ScheduleRow>(`SELECT * FROM report_schedule WHERE user_id = $1 AND deleted_at IS NULL ORDER BY id DESC LIMIT ${size} OFFSET ${page * size}`, [userId]),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM report_schedule WHERE user_id = $1 AND deleted_at IS NULL', [userId]),
  ]);
  return { rows: list.rows, total: count.rows[0].n };
}

export async function countSchedules(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM report_schedule WHERE user_id = $1 AND deleted_at IS NULL', [userId]);
  return rows[0].n;
}

export async function setPaused(q: Queryable, id: number, paused: boolean, nextRunAt: Date | null): Promise<ScheduleRow> {
  const { rows } = await q.query<ScheduleRow>('UPDATE report_schedule SET paused = $2, next_run_at = coalesce($3, next_run_at), updated_at = now() WHERE id = $1 RETURNING *', [id, paused, nextRunAt]);
  return rows[0];
}

export async function markDeleted(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE report_schedule SET deleted_at = now() WHERE id = $1', [id]);
}

export async function recordRun(q: Queryable, id: number, v: { at: Date; result: 'sent' | 'failed'; error: string | null; fileId: number | null; nextRunAt: Date | null }): Promise<void> {
  await q.query(
    `UPDATE report_schedule SET last_run_at = $2, last_result = $3, last_error = $4, last_file_id = coalesce($5, last_file_id),
            next_run_at = coalesce($6, next_run_at) WHERE id = $1`,
    [id, v.at, v.result, v.error?.slice(0, 500) ?? null, v.fileId, v.nextRunAt],
  );
}

/** What a run needs of its user now: status, permissions and current merchant scope (as a session). */
export interface RunUser {
  id: number;
  status: string;
  removed: boolean;
  permissions: string[];
  scope: string[];
}
export async function runUser(q: Queryable, userId: number): Promise<RunUser | undefined> {
  const { rows } = await q.query<RunUser>(
    `SELECT u.id, u.status, (u.removed_at IS NOT NULL) AS removed, u.permissions,
            ARRAY(SELECT sm.mer_id::text FROM merchant sm
                   WHERE CASE WHEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id)
                     THEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id = sm.mer_id)
                          AND (sm.mer_id = COALESCE(m.parent_id, m.mer_id) OR sm.parent_id = COALESCE(m.parent_id, m.mer_id))
                     ELSE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) END
                   ORDER BY sm.mer_id) AS scope
       FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id WHERE u.id = $1`,
    [userId],
  );
  return rows[0];
}

/** Active users of `scope` (the merchants a schedule's owner may read): who may receive it. */
export async function usersInScope(q: Queryable, scope: string[]): Promise<{ username: string; email: string }[]> {
  const { rows } = await q.query<{ username: string; email: string }>(
    `SELECT username, lower(email) AS email FROM app_user
      WHERE mer_id = ANY($1::text[]) AND status = 'ACTIVE' AND removed_at IS NULL ORDER BY username LIMIT 500`,
    [scope],
  );
  return rows;
}

export const recurrenceOf = (s: ScheduleRow): Recurrence => ({
  frequency: s.frequency,
  time: s.time_of_day,
  weekday: s.weekday,
  monthDay: s.month_day,
  timeZone: s.time_zone,
});
