import type { Db } from '../../../db/db';
import type { Clock } from '../../../lib/clock';
import { ensureRecurringJob } from '../../../jobs/queue';
import type { JobHandler } from '../../../jobs/runner';
import { addDays, platformDate, zonedInstant } from '../time';
import { firstPendingDate, lastSettleableDate, settleThrough, type RunResult } from './settle.run';
import { recordFailure, recordRuns } from './settle.log';

export const SETTLE_JOB = 'settlement.daily';
/** The daily run starts at 00:30 platform time, for the day before. */
const SETTLE_AT_MINUTES = 30;

/** The next 00:30 in the platform zone strictly after `now`. */
export function nextSettleRunAt(now: Date, tz: string): Date {
  const today = platformDate(now, tz);
  const at = zonedInstant(today, tz, SETTLE_AT_MINUTES);
  return at > now ? at : zonedInstant(addDays(today, 1), tz, SETTLE_AT_MINUTES);
}

/**
 * The job: catches up every settlement date not yet run through yesterday (platform zone), one
 * transaction per date, then re-queues itself for the next 00:30.
 */
export function settlementJob(tz: string): JobHandler {
  return async ({ db, clock, heartbeat, log }) => {
    const through = lastSettleableDate(clock.now(), tz); // the CLI's and the back office's rule
    let txns = 0;
    let startedAt = clock.now();
    let runs: RunResult[];
    try {
      runs = await settleThrough(db, through, async (r, i, n) => {
        txns += r.txnCount;
        // Each date's attempt in the back office's run history (decision 045).
        await recordRuns(db, 'job', [r], startedAt, clock.now());
        startedAt = clock.now();
        await heartbeat(Math.floor(((i + 1) / Math.max(n, 1)) * 100));
      });
    } catch (err) {
      const date = await firstPendingDate(db).catch(() => null);
      if (date) await recordFailure(db, 'job', date, err, startedAt, clock.now()).catch(() => undefined);
      throw err;
    }
    const ran = runs.filter((r) => !r.skipped);
    if (ran.length) log.info({ from: ran[0].date, through, dates: ran.length, txns }, 'settlement run');
    return { result: { through, dates: ran.length, txns }, nextRunAt: nextSettleRunAt(clock.now(), tz) };
  };
}

/** Makes sure the recurring settlement job exists; when the process starts, a missed run is due at once. */
export async function ensureSettlementSchedule(db: Db, clock: Clock): Promise<void> {
  await ensureRecurringJob(db, { kind: SETTLE_JOB, uniqueKey: SETTLE_JOB, runAt: clock.now() });
}
