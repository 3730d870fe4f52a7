import { Code, Perm, SCHEDULE_MAX_PER_USER, SCHEDULE_PERMISSION, type Language, type ScheduleInput } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { exportSource } from '../export';
import { countSchedules, findOwnSchedule, recurrenceOf, insertSchedule, markDeleted, setPaused, updateSchedule, usersInScope, type ScheduleRow } from './schedule.repo';
import { nextRun, type Recurrence } from './schedule.time';
import { merchantFilterOf } from './schedule.filters';
import { armScheduleJob, disarmScheduleJob, queueSendNow } from './schedule.jobs';
import { auditExport, ExportAudit } from '../export';
import type { Queryable } from '../../db/db';

/** What an audit entry of a schedule change records: its report, filters, timing and recipients. */
const described = (s: ScheduleRow | (ScheduleInput & { scope?: string[] })) => {
  const r = s as unknown as Record<string, unknown>;
  return { kind: r.kind, params: r.params, format: r.format, frequency: r.frequency, recipients: r.recipients, scope: r.scope, timeZone: r.time_zone ?? r.timeZone };
};
const auditSchedule = (q: Queryable, u: SessionUser, action: string, id: number, detail: Record<string, unknown>) =>
  auditExport(q, { action, userId: u.id, target: `schedule:${id}`, detail: { scheduleId: id, ...detail } });

const recurrenceOfInput = (v: ScheduleInput): Recurrence => ({
  frequency: v.frequency,
  time: v.time,
  weekday: v.weekday,
  monthDay: v.monthDay,
  timeZone: v.timeZone,
});

/**
 * What a schedule may be: the caller holds the report's export permission; the filters are valid
 * for that report's export (the same parser, so the same 400s); every recipient is an active user
 * of the caller's merchants.
 */
async function check(deps: Deps, u: SessionUser, v: ScheduleInput): Promise<string[]> {
  if (!u.permissions.includes(SCHEDULE_PERMISSION[v.kind])) throw forbidden();
  const parsed = exportSource(v.kind).parse(v.params);
  // A merchant filter must name one of the caller's merchants, and then is the schedule's whole
  // scope; none: the caller's merchants (issue 28 — it was accepted and ran over the whole scope).
  const merId = merchantFilterOf(parsed);
  if (merId && !u.scope.includes(merId)) throw new AppError(Code.BAD_REQUEST, 'scheduleForeignMerchant', { merId }, 400);
  const allowed = new Set((await usersInScope(deps.db, u.scope)).map((x) => x.email));
  const foreign = v.recipients.find((e) => !allowed.has(e));
  if (foreign) throw new AppError(Code.BAD_REQUEST, 'scheduleForeignRecipient', { email: foreign }, 400);
  return merId ? [merId] : u.scope;
}

/** The caller's schedule or 404 (another user's, another merchant's, a deleted one). */
async function ownSchedule(deps: Deps, u: SessionUser, id: number): Promise<ScheduleRow> {
  const s = await findOwnSchedule(deps.db, id, u.id);
  if (!s) throw notFound();
  return s;
}

export async function createSchedule(deps: Deps, u: SessionUser, v: ScheduleInput, lang: Language): Promise<ScheduleRow> {
  const scope = await check(deps, u, v);
  if ((await countSchedules(deps.db, u.id)) >= SCHEDULE_MAX_PER_USER) throw new AppError(Code.BAD_REQUEST, 'scheduleTooMany', { max: SCHEDULE_MAX_PER_USER }, 400);
  const nextRunAt = nextRun(recurrenceOfInput(v), deps.clock.now());
  return deps.db.tx(async (q) => {
    const s = await insertSchedule(q, { ...v, userId: u.id, merId: u.merId, scope, lang, nextRunAt });
    await armScheduleJob(q, s.id, nextRunAt);
    await auditSchedule(q, u, ExportAudit.scheduleCreated, s.id, described(s));
    return s;
  });
}

export async function editSchedule(deps: Deps, u: SessionUser, id: number, v: ScheduleInput, lang: Language): Promise<ScheduleRow> {
  const old = await ownSchedule(deps, u, id);
  const scope = await check(deps, u, v);
  const nextRunAt = nextRun(recurrenceOfInput(v), deps.clock.now());
  return deps.db.tx(async (q) => {
    const s = await updateSchedule(q, id, { ...v, scope, lang, nextRunAt });
    if (!old.paused) await armScheduleJob(q, id, nextRunAt);
    await auditSchedule(q, u, ExportAudit.scheduleUpdated, id, { before: described(old), after: described(s) });
    return s;
  });
}

export async function pauseSchedule(deps: Deps, u: SessionUser, id: number, paused: boolean): Promise<ScheduleRow> {
  const s = await ownSchedule(deps, u, id);
  if (!u.permissions.includes(SCHEDULE_PERMISSION[s.kind])) throw forbidden();
  const next = paused ? null : nextRun(recurrenceOf(s), deps.clock.now());
  return deps.db.tx(async (q) => {
    const row = await setPaused(q, id, paused, next);
    if (next) await armScheduleJob(q, id, next);
    else await disarmScheduleJob(q, id);
    await auditSchedule(q, u, paused ? ExportAudit.schedulePaused : ExportAudit.scheduleResumed, id, described(s));
    return row;
  });
}

export async function deleteSchedule(deps: Deps, u: SessionUser, id: number): Promise<void> {
  const s = await ownSchedule(deps, u, id);
  await deps.db.tx(async (q) => {
    await markDeleted(q, id);
    await disarmScheduleJob(q, id);
    await auditSchedule(q, u, ExportAudit.scheduleDeleted, id, described(s));
  });
}

/** 'Send now': checked like a run (permission) and queued for the job runner. */
export async function sendScheduleNow(deps: Deps, u: SessionUser, id: number): Promise<void> {
  const s = await ownSchedule(deps, u, id);
  if (!u.permissions.includes(SCHEDULE_PERMISSION[s.kind]) || !u.permissions.includes(Perm.reportFile)) throw forbidden();
  await deps.db.tx(async (q) => {
    await queueSendNow(q, id, deps.clock.now());
    await auditSchedule(q, u, ExportAudit.scheduleSendNow, id, described(s));
  });
}
