import type { Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import type { JobHandler } from '../../jobs/runner';
import { enqueueJob, ensureRecurringJob } from '../../jobs/queue';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { platformDate, zonedInstant } from '../../lib/zone';
import { addDays } from '../../lib/dates';
import { formatInZone } from '../../lib/zone';
import { endUserSessions } from '../user';
import { publicBase } from '../../lib/public-url';

/**
 * Access that expires (issue 28 item 3, decision 048): the daily job. What holds:
 * - a user not signed in for N days (the merchant's limit, else its group's, else 90 — PCI DSS
 *   8.2.6) is disabled, audited as the system with reason "inactive"; its sessions end on every
 *   process (the auth trigger, decision 013) — as an administrator's disable does;
 *   inactivity counts from the latest of: last sign-in, creation, activation, last enable;
 * - a user whose grant ended (the day after `access_ends_on`, platform zone) is disabled, reason
 *   "grant ended";
 * - the last active administrator of a merchant is never disabled by the job: it is kept, audited
 *   once per inactivity period ("user.disable.kept"), and warned like everyone else;
 * - a week before, the user is warned by e-mail in its language and time zone: the warning is
 *   recorded (one per user and inactivity period) with a job of its own in the run's transaction,
 *   and sent by that job after COMMIT — retried with backoff on failure, never sent twice once sent;
 * - the run is one recurring job row claimed with SKIP LOCKED (one process at a time), re-queued
 *   for 00:05 platform time, and a completed day is recorded, so a day runs once; every step
 *   re-reads under the user's row lock, so a second run (or two processes) changes nothing more.
 */

export const ACCESS_JOB = 'access.daily';
export const ACCESS_NOTICE_JOB = 'access.notice';
const ACCESS_AT_MINUTES = 5;
export const DEFAULT_INACTIVE_DAYS = 90;
const WARN_DAYS_BEFORE = 7;
const DAY_MS = 86_400_000;

export const AccessAudit = {
  disabled: 'user.disable',
  kept: 'user.disable.kept',
  policy: 'access.policy',
  reviewDecision: 'access.review.decide',
  reviewCompleted: 'access.review.complete',
} as const;

/** The next 00:05 in the platform zone strictly after `now`. */
export function nextAccessRunAt(now: Date, tz: string): Date {
  const today = platformDate(now, tz);
  const at = zonedInstant(today, tz, ACCESS_AT_MINUTES);
  return at > now ? at : zonedInstant(addDays(today, 1), tz, ACCESS_AT_MINUTES);
}

/** The first run of the job at or after `t`: when a user inactive since `since` is disabled. */
const disableAt = (since: Date, days: number, tz: string) => nextAccessRunAt(new Date(since.getTime() + days * DAY_MS - 1), tz);

interface Candidate {
  id: number;
  username: string;
  mer_id: string;
  user_admin: boolean;
  status: string;
  lang: string | null;
  time_zone: string | null;
  access_ends_on: string | null;
  since: Date;
  limit_days: number;
}

/** The SQL of "since when is this user inactive" and "its merchant's limit" (own, else group's, else 90). */
export const SINCE_SQL = `greatest(u.created_at, u.access_renewed_at,
    (SELECT max(s.created_at) FROM user_session s WHERE s.user_id = u.id),
    (SELECT max(l.used_at) FROM account_link l WHERE l.user_id = u.id AND l.purpose = 'activate'))`;
// The stricter (fewer days) of the merchant's own limit and its group's (issue 47: a floor), else the default.
const LIMIT_SQL = `coalesce(least((SELECT p.inactive_days FROM access_policy p WHERE p.mer_id = u.mer_id),
    (SELECT p.inactive_days FROM access_policy p JOIN merchant m ON m.parent_id = p.mer_id WHERE m.mer_id = u.mer_id)), ${DEFAULT_INACTIVE_DAYS})`;

const CANDIDATE_SQL = `SELECT * FROM (
  SELECT u.id, u.username, u.mer_id, u.user_admin, u.status, u.lang, u.time_zone, u.access_ends_on::text AS access_ends_on,
         ${SINCE_SQL} AS since, ${LIMIT_SQL} AS limit_days
    FROM app_user u WHERE u.removed_at IS NULL AND u.status <> 'DISABLED' AND ($1::int IS NULL OR u.id = $1::int)) c`;

/** Users due a warning, a disable or the end of their grant at `now` (ids only; each is re-read under its lock). */
async function dueUsers(q: Queryable, now: Date, today: string): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `${CANDIDATE_SQL} WHERE c.since <= $2::timestamptz - make_interval(days => c.limit_days - ${WARN_DAYS_BEFORE}) OR c.access_ends_on::date < $3::date ORDER BY c.id`,
    [null, now, today],
  );
  return rows.map((r) => r.id);
}

export interface SweepResult {
  disabledInactive: string[];
  disabledGrantEnded: string[];
  kept: string[];
  warned: string[];
}

/**
 * One pass over every merchant's users at `now` (idempotent: run it twice, the second changes
 * nothing). Each user is handled in its own short transaction; no mail is sent here.
 */
export async function sweepAccess(deps: Deps, now = deps.clock.now()): Promise<SweepResult> {
  const tz = deps.config.platformTz;
  const today = platformDate(now, tz);
  const out: SweepResult = { disabledInactive: [], disabledGrantEnded: [], kept: [], warned: [] };
  for (const id of await dueUsers(deps.db, now, today)) {
    await deps.db.tx(async (q) => {
      // Lock order of every change that can leave a merchant without an administrator
      // (team.service lockTarget): the merchant's administrator rows in id order, then the user's.
      const { rows: pre } = await q.query<{ mer_id: string; user_admin: boolean }>('SELECT mer_id, user_admin FROM app_user WHERE id = $1', [id]);
      if (!pre[0]) return;
      let admins: { id: number; status: string; removed: boolean }[] = [];
      if (pre[0].user_admin) {
        admins = (
          await q.query<{ id: number; status: string; removed: boolean }>(
            `SELECT id, status, removed_at IS NOT NULL AS removed FROM app_user WHERE mer_id = $1 AND user_admin ORDER BY id FOR UPDATE`,
            [pre[0].mer_id],
          )
        ).rows;
      }
      await q.query('SELECT 1 FROM app_user WHERE id = $1 FOR UPDATE', [id]);
      const c = (await q.query<Candidate>(CANDIDATE_SQL, [id])).rows[0];
      if (!c) return; // disabled or removed meanwhile
      const since = new Date(c.since);
      const grantEnded = c.access_ends_on !== null && c.access_ends_on < today;
      const inactive = now.getTime() >= since.getTime() + c.limit_days * DAY_MS;
      const warn = now.getTime() >= since.getTime() + (c.limit_days - WARN_DAYS_BEFORE) * DAY_MS;
      if (grantEnded || inactive) {
        const reason = grantEnded ? 'grant ended' : 'inactive';
        const lastAdmin = c.user_admin && (c.mer_id !== pre[0].mer_id || !admins.some((a) => a.id !== c.id && a.status === 'ACTIVE' && !a.removed));
        if (lastAdmin) {
          const kept = await q.query(
            `INSERT INTO access_notice (user_id, kind, period_from, disable_at, lang, time_zone, created_at, sent_at)
             VALUES ($1, 'last_admin_kept', $2, $3, $4, $5, $3, $3) ON CONFLICT DO NOTHING RETURNING id`,
            [c.id, grantEnded ? new Date(`${c.access_ends_on}T00:00:00Z`) : since, now, c.lang ?? 'en', c.time_zone ?? tz],
          );
          if (kept.rows.length) {
            await audit(q, {
              action: AccessAudit.kept,
              username: 'system',
              merId: c.mer_id,
              target: c.username,
              detail: { userId: c.id, reason, lastAdministrator: true, since: since.toISOString(), accessEndsOn: c.access_ends_on },
            });
            out.kept.push(c.username);
          }
        } else {
          await q.query(`UPDATE app_user SET status = 'DISABLED', status_before_disable = status WHERE id = $1`, [c.id]);
          await endUserSessions(q, c.id, grantEnded ? 'grant-ended' : 'inactive');
          await audit(q, {
            action: AccessAudit.disabled,
            username: 'system',
            merId: c.mer_id,
            target: c.username,
            detail: grantEnded
              ? { userId: c.id, reason, accessEndsOn: c.access_ends_on }
              : { userId: c.id, reason, since: since.toISOString(), days: Math.floor((now.getTime() - since.getTime()) / DAY_MS), limitDays: c.limit_days },
          });
          (grantEnded ? out.disabledGrantEnded : out.disabledInactive).push(c.username);
          return;
        }
      }
      if (warn && !grantEnded) {
        const n = await q.query<{ id: number }>(
          `INSERT INTO access_notice (user_id, kind, period_from, disable_at, lang, time_zone, created_at)
           VALUES ($1, 'inactivity_warning', $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`,
          [c.id, since, disableAt(since, c.limit_days, tz), c.lang ?? 'en', c.time_zone ?? tz, now],
        );
        if (n.rows[0]) {
          await enqueueJob(q, { kind: ACCESS_NOTICE_JOB, uniqueKey: `${ACCESS_NOTICE_JOB}:${n.rows[0].id}`, payload: { id: n.rows[0].id }, runAt: now });
          out.warned.push(c.username);
        }
      }
    });
  }
  // Warnings whose sending job gave up (its retries spent): given a fresh start while still useful.
  await deps.db.query(
    `UPDATE job SET status = 'queued', attempts = 0, error = NULL, run_at = $1
      WHERE kind = $2 AND status = 'failed'
        AND unique_key IN (SELECT $2 || ':' || n.id FROM access_notice n WHERE n.sent_at IS NULL AND n.kind = 'inactivity_warning' AND n.disable_at > $1)`,
    [now, ACCESS_NOTICE_JOB],
  );
  return out;
}

interface NoticeRow {
  id: number;
  user_id: number;
  username: string;
  email: string;
  period_from: Date;
  disable_at: Date;
  lang: Language;
  time_zone: string;
  sent_at: Date | null;
  current_since: Date;
  status: string;
  removed: boolean;
  limit_days: number;
  signed_in: boolean;
}

/**
 * Sends one recorded warning (outside any transaction). Throws when the mail server refuses, so
 * the job runner retries it with backoff; once sent, `sent_at` is set and it is never sent again.
 * A warning no longer true (the user signed in, was disabled or removed) is dropped unsent.
 */
export async function sendNotice(deps: Deps, noticeId: number): Promise<'sent' | 'obsolete' | 'already'> {
  const { rows } = await deps.db.query<NoticeRow>(
    `SELECT n.id, n.user_id, u.username, u.email, n.period_from, n.disable_at, n.lang, n.time_zone, n.sent_at, u.status,
            u.removed_at IS NOT NULL AS removed, ${SINCE_SQL} AS current_since, ${LIMIT_SQL} AS limit_days,
            EXISTS (SELECT 1 FROM user_session s WHERE s.user_id = u.id) AS signed_in
       FROM access_notice n JOIN app_user u ON u.id = n.user_id WHERE n.id = $1`,
    [noticeId],
  );
  const n = rows[0];
  if (!n || n.sent_at) return 'already';
  if (n.removed || n.status === 'DISABLED' || new Date(n.current_since).getTime() > new Date(n.period_from).getTime()) {
    await deps.db.query(`UPDATE access_notice SET last_error = 'obsolete' WHERE id = $1`, [n.id]);
    return 'obsolete';
  }
  const lang = n.lang;
  const fmt = (d: Date) => formatInZone(d, n.time_zone).slice(0, 16);
  try {
    await deps.mailer.send({
      to: n.email,
      subject: t(lang, 'inactivityMailSubject', { date: fmt(n.disable_at).slice(0, 10) }),
      text: t(lang, 'inactivityMailBody', {
        user: n.username,
        since: n.signed_in ? fmt(n.period_from) : `${fmt(n.period_from)} (${t(lang, 'inactivityMailNever')})`,
        days: n.limit_days,
        date: fmt(n.disable_at),
        zone: n.time_zone,
        link: `${publicBase(deps)}/login`,
      }),
    });
  } catch (err) {
    await deps.db.query('UPDATE access_notice SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [n.id, (err instanceof Error ? err.message : String(err)).slice(0, 500)]);
    throw err;
  }
  await deps.db.query('UPDATE access_notice SET attempts = attempts + 1, sent_at = $2, last_error = NULL WHERE id = $1', [n.id, deps.clock.now()]);
  return 'sent';
}

/** The daily job: skips a platform day already completed, else sweeps and records the day. */
function accessDailyJob(deps: Deps): JobHandler {
  return async ({ clock, log }) => {
    const now = clock.now();
    const tz = deps.config.platformTz;
    const day = platformDate(now, tz);
    const next = nextAccessRunAt(now, tz);
    const done = await deps.db.query('SELECT 1 FROM access_run WHERE day = $1', [day]);
    if (done.rows.length) return { result: { day, skipped: true }, nextRunAt: next };
    const result = await sweepAccess(deps, now);
    await deps.db.query('INSERT INTO access_run (day, ran_at, result) VALUES ($1, $2, $3) ON CONFLICT (day) DO NOTHING', [day, now, JSON.stringify(result)]);
    if (result.disabledInactive.length || result.disabledGrantEnded.length || result.warned.length) log.info({ day, ...result }, 'access run');
    return { result: { day, ...result }, nextRunAt: next };
  };
}

/** The team module's access jobs: the daily run (one recurring row) and the warnings' delivery. */
export async function setUpAccessJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: ACCESS_JOB, uniqueKey: ACCESS_JOB, runAt: deps.clock.now() });
  return {
    [ACCESS_JOB]: accessDailyJob(deps),
    [ACCESS_NOTICE_JOB]: async ({ job }) => ({ result: { outcome: await sendNotice(deps, Number(job.payload.id)) } }),
  };
}
