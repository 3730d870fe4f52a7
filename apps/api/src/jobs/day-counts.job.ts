import type { Deps } from '../plugins/context';
import type { Queryable } from '../db/db';
import { ensureRecurringJob } from './queue';
import type { JobHandler } from './runner';

export const DAY_COUNTS_JOB = 'txn.day-counts';
const EVERY_MS = 60_000;

/**
 * Moves the ledger's insert deltas (txn_day_delta, appended by a trigger per INSERT statement) into
 * the per-merchant, per-day sums the transaction list reads (txn_day_count; migration 086, decision
 * 052). One statement: the deltas this snapshot sees are deleted and added, so a delta committed
 * meanwhile waits for the next run, and two runs at once never add one twice (the second's DELETE
 * finds the rows gone). Sums are upserted in key order: two runs take the row locks in one order.
 * Returns the number of deltas moved.
 */
export async function compactDayCounts(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ moved: number }>(
    `WITH moved AS (DELETE FROM txn_day_delta RETURNING mer_id, day, n),
          up AS (INSERT INTO txn_day_count AS c (mer_id, day, n)
                 SELECT mer_id, day, sum(n) FROM moved GROUP BY 1, 2 ORDER BY 1, 2
                 ON CONFLICT (mer_id, day) DO UPDATE SET n = c.n + EXCLUDED.n)
     SELECT count(*)::int AS moved FROM moved`,
  );
  return rows[0].moved;
}

/** The deltas moved at start and then every minute: a busy day's rows count after at most a minute. */
export async function setUpDayCountJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: DAY_COUNTS_JOB, uniqueKey: DAY_COUNTS_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ db, clock }) => {
    const moved = await compactDayCounts(db);
    return { result: { moved }, nextRunAt: new Date(clock.now().getTime() + EVERY_MS) };
  };
  return { [DAY_COUNTS_JOB]: handler };
}
