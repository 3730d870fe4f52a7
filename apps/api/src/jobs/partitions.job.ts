import type { Deps } from '../plugins/context';
import { ensureAhead, ensureFeedWindow } from '../db/partitions';
import { ensureRecurringJob } from './queue';
import type { JobHandler } from './runner';

export const PARTITIONS_JOB = 'partitions.ahead';
const EVERY_MS = 24 * 3600_000;

/**
 * The ledgers' months created ahead (decision 028): at start and then daily, this month and the
 * next three of every partitioned table exist, so no write has to create one; and the months of
 * the provider feed's window back (PROVIDER_FEED_DAYS_BACK, issue 47), into which the feed writes
 * without ever creating a month.
 */
export async function setUpPartitionJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: PARTITIONS_JOB, uniqueKey: PARTITIONS_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ db, clock }) => {
    // The real date as well as the clock's: a clock moved for a demo must not leave today uncovered.
    let made = (await ensureAhead(db, clock.now())) + (await ensureAhead(db, new Date()));
    made += await ensureFeedWindow(db, clock.now(), deps.config.feedWindow.daysBack);
    return { result: { made }, nextRunAt: new Date(clock.now().getTime() + EVERY_MS) };
  };
  return { [PARTITIONS_JOB]: handler };
}
