import type { Queryable } from '../../../db/db';
import type { RunResult } from './settle.run';

/**
 * The history of settlement attempts (migration 065, decision 045), shown in the back office's runs
 * screen: the daily job's and the CLI's runs here, an operator's re-run in ops/runs.service.ts.
 */
export async function recordRuns(q: Queryable, trigger: 'job' | 'cli', runs: RunResult[], startedAt: Date, endedAt: Date): Promise<void> {
  for (const r of runs.filter((x) => !x.skipped)) {
    await q.query(`INSERT INTO settlement_run_log (run_date, state, trigger, started_at, ended_at, txn_count, row_count, unconverted) VALUES ($1,'done',$2,$3,$4,$5,$6,$7)`, [
      r.date,
      trigger,
      startedAt,
      endedAt,
      r.txnCount,
      r.rowCount,
      r.unconverted,
    ]);
  }
}

/** A run that failed (its transaction rolled back): the date it stopped at and the error. */
export async function recordFailure(q: Queryable, trigger: 'job' | 'cli', date: string, err: unknown, startedAt: Date, endedAt: Date): Promise<void> {
  await q.query(`INSERT INTO settlement_run_log (run_date, state, trigger, started_at, ended_at, error) VALUES ($1,'failed',$2,$3,$4,$5)`, [
    date,
    trigger,
    startedAt,
    endedAt,
    String((err as Error)?.message ?? err).slice(0, 2000),
  ]);
}
