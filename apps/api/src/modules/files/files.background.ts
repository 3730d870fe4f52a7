import type { Deps } from '../../plugins/context';
import type { JobHandler } from '../../jobs/runner';
import { ensureStatementSchedule, monthlyStatementJob, STATEMENT_JOB } from './documents.service';

/** The month-end statement job (durable, recurring; a missed 1st is caught up at start). */
export async function setUpFilesJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureStatementSchedule(deps.db, deps.clock);
  return { [STATEMENT_JOB]: monthlyStatementJob(deps.config.dataDir, deps.config.platformTz) };
}
