import type { Deps } from '../../plugins/context';
import { ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/runner';
import { createSandboxAcquirer } from './sandbox.acquirer';
import { SETTLE_JOB, ensureSettlementSchedule, settlementJob } from './settlement/settle.schedule';
import { metrics } from '../../plugins/metrics';

const SANDBOX_SWEEP_JOB = 'sandbox.resolve';
const SWEEP_EVERY_MS = 30_000;
const RESOLVE_AFTER_MS = 60_000;

/** The sandbox's processing payments resolve about a minute after they were made. */
function sandboxSweep(deps: Deps): JobHandler {
  const acq = createSandboxAcquirer(deps);
  return async ({ db, clock }) => {
    const before = new Date(clock.now().getTime() - RESOLVE_AFTER_MS);
    const resolved = await db.tx((q) => acq.resolveDue(q, before));
    return { result: { resolved }, nextRunAt: new Date(clock.now().getTime() + SWEEP_EVERY_MS) };
  };
}

/** Makes sure the payment core's schedules exist (idempotent, any process) and returns its job handlers. */
export async function setUpPaymentJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureSettlementSchedule(deps.db, deps.clock);
  await ensureRecurringJob(deps.db, { kind: SANDBOX_SWEEP_JOB, uniqueKey: SANDBOX_SWEEP_JOB, runAt: deps.clock.now() });
  const settle = settlementJob(deps.config.platformTz);
  // Settlement runs counted for /metrics (issue 27).
  const counted: JobHandler = async (ctx) => {
    try {
      const out = await settle(ctx);
      metrics.settlementRuns.inc({ result: 'ok' });
      return out;
    } catch (err) {
      metrics.settlementRuns.inc({ result: 'failed' });
      throw err;
    }
  };
  return { [SETTLE_JOB]: counted, [SANDBOX_SWEEP_JOB]: sandboxSweep(deps) };
}
