import type { Queryable } from '../db/db';

/** A row of the `job` table (001-foundation.sql). */
export interface JobRow {
  id: number;
  kind: string;
  unique_key: string | null;
  payload: Record<string, unknown>;
  status: 'queued' | 'running' | 'done' | 'failed';
  run_at: Date;
  attempts: number;
  locked_by: string | null;
  locked_at: Date | null;
  progress: number;
  result: unknown;
  error: string | null;
}

export interface EnqueueInput {
  kind: string;
  payload?: Record<string, unknown>;
  /** At most one job per key: a second enqueue with the same key does nothing (returns null). */
  uniqueKey?: string;
  runAt?: Date;
}

/** Queues a durable job; it survives restarts and runs on whichever API process claims it first. */
export async function enqueueJob(q: Queryable, job: EnqueueInput): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO job (kind, unique_key, payload, run_at) VALUES ($1, $2, $3, coalesce($4, now()))
     ON CONFLICT (unique_key) DO NOTHING RETURNING id`,
    [job.kind, job.uniqueKey ?? null, JSON.stringify(job.payload ?? {}), job.runAt ?? null],
  );
  return rows[0]?.id ?? null;
}

/**
 * A recurring job: one row per key that the runner re-queues after each run. Creates it when
 * missing; a failed one is given a fresh start at `runAt` (e.g. at process start).
 */
export async function ensureRecurringJob(q: Queryable, job: Required<Pick<EnqueueInput, 'kind' | 'uniqueKey' | 'runAt'>> & { payload?: Record<string, unknown> }): Promise<void> {
  await q.query(
    `INSERT INTO job (kind, unique_key, payload, run_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (unique_key) DO UPDATE SET status = 'queued', run_at = least(job.run_at, EXCLUDED.run_at), attempts = 0, error = NULL
       WHERE job.status IN ('failed', 'done')`,
    [job.kind, job.uniqueKey, JSON.stringify(job.payload ?? {}), job.runAt],
  );
}

export async function getJob(q: Queryable, id: number): Promise<JobRow | undefined> {
  const { rows } = await q.query<JobRow>('SELECT * FROM job WHERE id = $1', [id]);
  return rows[0];
}
