import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import type { JobHandler } from '../../jobs/runner';
import { enqueueJob } from '../../jobs/queue';
import { registerReportExports } from '../report';
import { registerTxnExports } from '../txn';
import { findSchedule, recordRun, recurrenceOf } from './schedule.repo';
import { runSchedule } from './schedule.run';
import { nextRun } from './schedule.time';

/** The recurring job of each schedule (unique key SCHEDULE_JOB:<id>) and the one-off 'send now'. */
const SCHEDULE_JOB = 'report-schedule';
const SEND_NOW_JOB = 'report-schedule.now';
const keyOf = (id: number) => `${SCHEDULE_JOB}:${id}`;

/**
 * Queues the schedule's recurring job at `runAt` (created, or moved when it waits; one that is
 * running re-reads the schedule when it ends and queues itself at the schedule's next time).
 */
export async function armScheduleJob(q: Queryable, id: number, runAt: Date): Promise<void> {
  await q.query(
    `INSERT INTO job (kind, unique_key, payload, run_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (unique_key) DO UPDATE SET status = 'queued', run_at = EXCLUDED.run_at, attempts = 0, error = NULL
       WHERE job.status <> 'running'`,
    [SCHEDULE_JOB, keyOf(id), JSON.stringify({ scheduleId: id }), runAt],
  );
}

/** Stops the schedule's recurring job (paused or deleted); a run under way finishes. */
export async function disarmScheduleJob(q: Queryable, id: number): Promise<void> {
  await q.query(`UPDATE job SET status = 'done', finished_at = now() WHERE unique_key = $1 AND status IN ('queued', 'failed')`, [keyOf(id)]);
}

/** 'Send now': a one-off run of the schedule through the job runner. */
export async function queueSendNow(q: Queryable, id: number, at: Date): Promise<void> {
  await enqueueJob(q, { kind: SEND_NOW_JOB, payload: { scheduleId: id }, runAt: at });
}

/**
 * The job runner's part of scheduled reports. A schedule's job waits in `job` until its next run.
 * After a restart a job whose time passed is claimed once: it runs one catch-up, then is queued at
 * the next time after *now* — missed runs are not replayed one by one.
 */
export async function setUpScheduleJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  registerReportExports();
  registerTxnExports();
  // A schedule whose job is missing (e.g. created while no runner was up to its kind): armed.
  await deps.db.query(
    `INSERT INTO job (kind, unique_key, payload, run_at)
     SELECT $1, $1 || ':' || s.id, json_build_object('scheduleId', s.id)::jsonb, s.next_run_at FROM report_schedule s
      WHERE s.deleted_at IS NULL AND NOT s.paused AND s.next_run_at IS NOT NULL
     ON CONFLICT (unique_key) DO NOTHING`,
    [SCHEDULE_JOB],
  );
  const recurring: JobHandler = async ({ db, clock, job }) => {
    const id = Number(job.payload.scheduleId);
    const s = await findSchedule(db, id);
    if (!s || s.paused) return { result: { skipped: true } };
    const result = await runSchedule(deps, s, clock.now());
    const after = await findSchedule(db, id);
    if (!after || after.paused) return { result };
    const next = nextRun(recurrenceOf(after), clock.now());
    await recordRun(db, id, { ...result, nextRunAt: next });
    return { result, nextRunAt: next };
  };
  const sendNow: JobHandler = async ({ db, clock, job }) => {
    const s = await findSchedule(db, Number(job.payload.scheduleId));
    if (!s) return { result: { skipped: true } };
    const result = await runSchedule(deps, s, clock.now());
    await recordRun(db, s.id, { ...result, nextRunAt: null });
    return { result };
  };
  return { [SCHEDULE_JOB]: recurring, [SEND_NOW_JOB]: sendNow };
}
