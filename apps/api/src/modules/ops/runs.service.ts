import { Code } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta } from '../user';
import { assertDayOver, lastRunDate, lastSettleableDate, settleRange, type RunResult } from '../payments';
import { waitingForRate } from '../payments';
import { iso, OpsRunsAudit, type Actor } from './runs.queues';

export { listExports, listGateways, listJobs, retryJob } from './runs.queues';

/**
 * The back office's runs screen (issue 26, decision 045): settlement runs per date and their
 * re-run, the export queue, failed jobs and their retry, gateway connections and their imports.
 */

/** A run still marked running after this long was interrupted (its process died): a re-run may start. */
const RUN_STALE_MS = 60 * 60 * 1000;

const dstr = (d: Date | string) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/** Per settlement currency, the run's totals of a date (minor units, as strings: they may exceed 2^53). */
async function totalsOf(q: Queryable, dates: string[]) {
  const { rows } = await q.query<{ d: string; set_cur: string; rows: number; txns: string; recon: string; fee: string; trans: string }>(
    `SELECT txn_set_date::text AS d, trim(set_cur) AS set_cur, count(*)::int AS rows, sum(txn_count)::text AS txns, sum(recon_set_amount)::text AS recon,
            sum(fee_amount)::text AS fee, sum(trans_amount)::text AS trans
       FROM settlement WHERE txn_set_date = ANY($1::date[]) GROUP BY txn_set_date, set_cur ORDER BY set_cur`,
    [dates],
  );
  const out = new Map<string, { currency: string; rows: number; txnCount: number; reconAmount: string; feeAmount: string; transAmount: string }[]>();
  for (const r of rows) {
    const list = out.get(r.d) ?? [];
    list.push({ currency: r.set_cur, rows: r.rows, txnCount: Number(r.txns), reconAmount: r.recon, feeAmount: r.fee, transAmount: r.trans });
    out.set(r.d, list);
  }
  return out;
}

interface LogRow {
  id: string;
  run_date: string;
  state: 'running' | 'done' | 'skipped' | 'failed';
  trigger: 'job' | 'cli' | 'operator';
  operator_name: string | null;
  started_at: Date;
  ended_at: Date | null;
  txn_count: number | null;
  row_count: number | null;
  unconverted: number | null;
  error: string | null;
}

/**
 * The settlement dates from `from` to `to` (newest first): a date is settled when settlement_run has
 * it; its attempts come from settlement_run_log (a date settled without one was run by the daily job
 * or the CLI before the log existed).
 */
export async function listSettlementRuns(deps: Deps, from: string, to: string) {
  const runs = await deps.db.query<{ d: string; finished_at: Date; txn_count: number; row_count: number }>(
    `SELECT run_date::text AS d, finished_at, txn_count, row_count FROM settlement_run WHERE run_date BETWEEN $1 AND $2`,
    [from, to],
  );
  const logs = await deps.db.query<LogRow>(
    `SELECT id, run_date::text AS run_date, state, trigger, operator_name, started_at, ended_at, txn_count, row_count, unconverted, error
       FROM settlement_run_log WHERE run_date BETWEEN $1 AND $2 ORDER BY id DESC LIMIT 2000`,
    [from, to],
  );
  const dates = [...new Set([...runs.rows.map((r) => r.d), ...logs.rows.map((l) => l.run_date)])].sort().reverse();
  const totals = await totalsOf(deps.db, dates);
  const last = await lastRunDate(deps.db);
  return {
    lastRunDate: last ? dstr(last) : null,
    // Transactions waiting for an exchange rate (issue 46): settled by the next run once it exists.
    waitingForRate: await waitingForRate(deps.db),
    yesterday: lastSettleableDate(deps.clock.now(), deps.config.platformTz),
    content: dates.map((d) => {
      const run = runs.rows.find((r) => r.d === d);
      const attempts = logs.rows.filter((l) => l.run_date === d);
      const latest = attempts[0];
      const state = latest?.state === 'running' ? 'running' : run ? 'done' : latest?.state === 'failed' ? 'failed' : 'pending';
      return {
        date: d,
        state: state as 'running' | 'done' | 'failed' | 'pending',
        txnCount: run?.txn_count ?? null,
        rowCount: run?.row_count ?? null,
        finishedAt: run ? iso(run.finished_at) : null,
        totals: totals.get(d) ?? [],
        attempts: attempts.map((a) => ({
          id: Number(a.id),
          state: a.state,
          trigger: a.trigger,
          operator: a.operator_name,
          startedAt: iso(a.started_at)!,
          endedAt: iso(a.ended_at),
          txnCount: a.txn_count,
          rowCount: a.row_count,
          unconverted: a.unconverted,
          error: a.error,
        })),
      };
    }),
  };
}

/**
 * An operator runs a settlement date again. Safe by construction (decision 045):
 * - a date the run has completed (settlement_run has it) is not run again: settleDate is
 *   idempotent, nothing moves, the attempt is recorded as skipped. Transactions that became
 *   settleable after it (late ones) are taken by the next date's run, never back-dated into it;
 * - a date not completed (its run failed: the transaction rolled back, nothing of it stays) is run
 *   now, after any earlier date left behind (runs go forward, settleRange runs the gap first);
 * - one re-run of a date at a time: the 'running' row's partial unique index refuses a second one
 *   atomically (409); the run itself also holds settlement_run's table lock, so the daily job
 *   waits for it and then finds the date done.
 * No network call happens inside the run's transaction. Audited with the before/after of the date.
 */
export async function rerunSettlement(deps: Deps, date: string, by: Actor, meta: Meta) {
  // One rule with the CLI (settle.run.ts): a date whose day is over in the platform zone.
  assertDayOver(date, deps.clock.now(), deps.config.platformTz);
  const snapshot = async () => {
    const r = await deps.db.query<{ txn_count: number; row_count: number }>('SELECT txn_count, row_count FROM settlement_run WHERE run_date = $1', [date]);
    const t = await totalsOf(deps.db, [date]);
    return { settled: !!r.rows[0], txnCount: r.rows[0]?.txn_count ?? null, rowCount: r.rows[0]?.row_count ?? null, totals: t.get(date) ?? [] };
  };
  // An attempt left running by a process that died no longer blocks the date.
  await deps.db.query(`UPDATE settlement_run_log SET state = 'failed', ended_at = now(), error = 'interrupted' WHERE run_date = $1 AND state = 'running' AND started_at < $2`, [
    date,
    new Date(deps.clock.now().getTime() - RUN_STALE_MS),
  ]);
  const claimed = await deps.db.query<{ id: string }>(
    `INSERT INTO settlement_run_log (run_date, state, trigger, operator_id, operator_name, started_at) VALUES ($1, 'running', 'operator', $2, $3, $4)
     ON CONFLICT (run_date) WHERE state = 'running' DO NOTHING RETURNING id`,
    [date, by.id, by.username, deps.clock.now()],
  );
  const logId = claimed.rows[0]?.id;
  if (!logId) throw new AppError(Code.CONFLICT, 'opsRunBusy', { date }, 409);
  const before = await snapshot();
  let results: RunResult[];
  try {
    const last = await lastRunDate(deps.db);
    // A date before the last completed run was settled by the runs after it (each picks up
    // everything due and not yet settled): nothing to run.
    results = last && date <= dstr(last) ? [{ date, skipped: true, txnCount: 0, rowCount: 0, transfers: 0, unconverted: 0, ms: 0 }] : await settleRange(deps.db, date, date);
  } catch (err) {
    const msg = (err as Error).message.slice(0, 2000);
    await deps.db.query(`UPDATE settlement_run_log SET state = 'failed', ended_at = $2, error = $3 WHERE id = $1`, [logId, deps.clock.now(), msg]);
    await audit(deps.db, { action: OpsRunsAudit.settleRerun, operatorId: by.id, username: by.username, outcome: 'failure', target: `settlement:${date}`, detail: { before, error: msg }, ...meta });
    throw err;
  }
  const own = results.find((r) => r.date === date)!;
  const earlier = results.filter((r) => r.date !== date && !r.skipped);
  await deps.db.tx(async (q) => {
    await q.query(`UPDATE settlement_run_log SET state = $2, ended_at = $3, txn_count = $4, row_count = $5, unconverted = $6 WHERE id = $1`, [
      logId,
      own.skipped ? 'skipped' : 'done',
      deps.clock.now(),
      own.txnCount,
      own.rowCount,
      own.unconverted,
    ]);
    // Dates of the gap the run settled first are recorded as the operator's too.
    for (const r of earlier) {
      await q.query(
        `INSERT INTO settlement_run_log (run_date, state, trigger, operator_id, operator_name, started_at, ended_at, txn_count, row_count, unconverted)
         VALUES ($1,'done','operator',$2,$3,$4,$4,$5,$6,$7)`,
        [r.date, by.id, by.username, deps.clock.now(), r.txnCount, r.rowCount, r.unconverted],
      );
    }
  });
  const after = await snapshot();
  await audit(deps.db, {
    action: OpsRunsAudit.settleRerun,
    operatorId: by.id,
    username: by.username,
    target: `settlement:${date}`,
    detail: { before, after, skipped: own.skipped, alsoRan: earlier.map((r) => r.date) },
    ...meta,
  });
  return { date, skipped: own.skipped, txnCount: own.txnCount, rowCount: own.rowCount, unconverted: own.unconverted, alsoRan: earlier.map((r) => r.date) };
}
