import type { Deps } from '../../plugins/context';
import { ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/runner';
import { resolveDueOperations } from './operations.service';

const ACQUIRER_RESOLVE_JOB = 'acquirer.resolve';
const EVERY_MS = 5_000;

/**
 * The operations the gateway has not decided yet are asked about again, each on its own backoff
 * (operations.service.ts): the job itself runs every 5 s and asks only those that are due.
 */
export async function setUpAcquirerJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: ACQUIRER_RESOLVE_JOB, uniqueKey: ACQUIRER_RESOLVE_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ clock }) => {
    const result = await resolveDueOperations(deps);
    return { result, nextRunAt: new Date(clock.now().getTime() + EVERY_MS) };
  };
  return { [ACQUIRER_RESOLVE_JOB]: handler };
}
