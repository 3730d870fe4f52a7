import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db';
import type { Clock } from '../lib/clock';
import type { JobRow } from './queue';
import { runnerBusy, runnerStopped, runnerTicked } from '../ops/lifecycle';
import { metrics } from '../plugins/metrics';

export interface JobContext {
  db: Db;
  clock: Clock;
  job: JobRow;
  log: JobLog;
  /** Records progress (0–100) and renews the claim, so a long job is not taken over. */
  heartbeat(progress?: number): Promise<void>;
}

/** What a handler returns: a result to store, and for a recurring job when to run next. */
export interface JobOutcome {
  result?: unknown;
  nextRunAt?: Date;
}

export type JobHandler = (ctx: JobContext) => Promise<JobOutcome | void>;

export interface JobLog {
  info(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface RunnerOptions {
  db: Db;
  clock: Clock;
  log: JobLog;
  handlers: Record<string, JobHandler>;
  workerId?: string;
  pollMs?: number;
  /** A running job whose claim is older than this was abandoned (process died): it is taken over. */
  staleMs?: number;
  maxAttempts?: number;
}

/**
 * The durable job runner: polls the `job` table, claims one due job at a time with
 * `FOR UPDATE SKIP LOCKED` (so several API processes share the queue without running a job twice),
 * runs its handler, then stores the result, re-queues a recurring job, or retries with backoff.
 */
export function createJobRunner(o: RunnerOptions) {
  const worker = o.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const pollMs = o.pollMs ?? 1000;
  const staleMs = o.staleMs ?? 10 * 60_000;
  const maxAttempts = o.maxAttempts ?? 5;
  const kinds = Object.keys(o.handlers);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  /** The job being run now (handed back when a shutdown's grace runs out). */
  let inHand: JobRow | null = null;

  async function claim(): Promise<JobRow | undefined> {
    const now = o.clock.now();
    const { rows } = await o.db.query<JobRow>(
      `UPDATE job SET status = 'running', locked_by = $1, locked_at = $2, attempts = attempts + 1
        WHERE id = (SELECT id FROM job
                     WHERE kind = ANY($4::text[])
                       AND ((status = 'queued' AND run_at <= $2) OR (status = 'running' AND locked_at < $3))
                     ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [worker, now, new Date(now.getTime() - staleMs), kinds],
    );
    return rows[0];
  }

  async function runOne(job: JobRow): Promise<void> {
    const handler = o.handlers[job.kind];
    const t0 = performance.now();
    inHand = job;
    runnerBusy(worker, true);
    // Every line a job logs names it (issue 27).
    const asObj = (obj: unknown) => (obj && typeof obj === 'object' && !(obj instanceof Error) ? obj : { err: obj });
    const log: JobLog = {
      info: (obj, msg) => o.log.info({ ...asObj(obj), job: job.id, kind: job.kind }, msg),
      error: (obj, msg) => o.log.error({ ...asObj(obj), job: job.id, kind: job.kind }, msg),
    };
    const count = (result: 'ok' | 'retry' | 'failed') => {
      metrics.jobRuns.inc({ kind: job.kind, result });
      metrics.jobDuration.observe({ kind: job.kind }, (performance.now() - t0) / 1000);
    };
    const heartbeat = async (progress?: number) => {
      runnerBusy(worker, true);
      await o.db.query('UPDATE job SET locked_at = $2, progress = coalesce($3, progress) WHERE id = $1 AND locked_by = $4', [job.id, o.clock.now(), progress ?? null, worker]);
    };
    try {
      const out = (await handler({ db: o.db, clock: o.clock, job, log, heartbeat })) ?? {};
      const result = JSON.stringify(out.result ?? null);
      if (out.nextRunAt) {
        await o.db.query(
          `UPDATE job SET status = 'queued', run_at = $2, attempts = 0, locked_by = NULL, locked_at = NULL, result = $3, error = NULL,
                  progress = 100, finished_at = $4 WHERE id = $1`,
          [job.id, out.nextRunAt, result, o.clock.now()],
        );
      } else {
        await o.db.query(`UPDATE job SET status = 'done', progress = 100, result = $2, finished_at = $3, locked_by = NULL WHERE id = $1`, [job.id, result, o.clock.now()]);
      }
      count('ok');
      log.info({ ms: Math.round(performance.now() - t0) }, 'job done');
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      log.error({ err }, 'job failed');
      const final = job.attempts >= maxAttempts;
      count(final ? 'failed' : 'retry');
      const retryAt = new Date(o.clock.now().getTime() + Math.min(2 ** job.attempts * 10_000, 3_600_000));
      await o.db.query(
        `UPDATE job SET status = $2::text, error = $3, run_at = $4, locked_by = NULL, locked_at = NULL,
                finished_at = CASE WHEN $2::text = 'failed' THEN $5::timestamptz END
          WHERE id = $1`,
        [job.id, final ? 'failed' : 'queued', msg.slice(0, 2000), retryAt, o.clock.now()],
      );
    } finally {
      inHand = null;
      runnerBusy(worker, false);
    }
  }

  /** Runs every due job once; resolves to how many ran. */
  async function drain(): Promise<number> {
    let n = 0;
    runnerTicked(worker, staleMs);
    for (;;) {
      if (stopped && n > 0) break;
      const job = await claim();
      if (!job) break;
      await runOne(job);
      n++;
    }
    return n;
  }

  function tick(): Promise<number> {
    if (!running) running = drain().finally(() => (running = null));
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      tick()
        .catch((err) => o.log.error({ err }, 'job runner poll failed'))
        .finally(schedule);
    }, pollMs);
    timer.unref?.();
  }

  return {
    worker,
    /** Starts polling. */
    start() {
      stopped = false;
      schedule();
    },
    /**
     * Stops polling and waits for the job in hand to finish its run. With `graceMs`, waits at most
     * that long: a job still running then is handed back (queued again, this attempt not counted)
     * so another process takes it at once, and stop resolves to true. The caller then ends the
     * process: the abandoned handler must not go on writing (handlers are written to be re-run).
     */
    async stop(graceMs?: number): Promise<boolean> {
      stopped = true;
      if (timer) clearTimeout(timer);
      runnerStopped(worker);
      const done = running?.catch(() => undefined) ?? Promise.resolve();
      if (graceMs === undefined) {
        await done;
        return false;
      }
      let t: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([done.then(() => false), new Promise<boolean>((r) => (t = setTimeout(() => r(true), graceMs)))]);
      clearTimeout(t);
      const job = inHand;
      if (!timedOut || !job) return false;
      await o.db.query(
        `UPDATE job SET status = 'queued', locked_by = NULL, locked_at = NULL, attempts = greatest(attempts - 1, 0)
          WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
        [job.id, worker],
      );
      metrics.jobRuns.inc({ kind: job.kind, result: 'handed_back' });
      o.log.info({ job: job.id, kind: job.kind }, 'job handed back at shutdown');
      return true;
    },
    /** Runs due jobs now (tests, or a nudge after enqueueing). */
    tick,
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
