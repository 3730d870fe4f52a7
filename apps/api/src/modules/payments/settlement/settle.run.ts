import { Code, CURRENCY_EXPONENT, SETTLING_TYPES } from '@portal/contract';
import type { Db, Queryable } from '../../../db/db';
import { AppError } from '../../../lib/errors';
import { addDays, isDate, nextBusinessDay, platformDate } from '../time';
import {
  ADVANCE_CURSORS,
  APPLY_SCHEDULES,
  DISPUTE_MOVEMENTS,
  DISPUTE_RATES,
  WORK_TABLES,
  DROP_IDLE,
  DROP_UNCONVERTED,
  GROUPS,
  INSERT_SETTLEMENT,
  LATE_QUEUE,
  MARK_TXNS,
  PICK,
  RATES,
  RESERVES,
  SUMMARY,
  CANDIDATES,
  ENSURE_SCHEDULES,
} from './settle.sql';

export interface RunResult {
  date: string;
  /** Already run before: nothing changed. */
  skipped: boolean;
  txnCount: number;
  rowCount: number;
  transfers: number;
  /** Transactions left unsettled for want of a rate of their currency pair. */
  unconverted: number;
  ms: number;
}

const CODES = Object.keys(CURRENCY_EXPONENT);
const EXPONENTS = CODES.map((c) => CURRENCY_EXPONENT[c]);

/**
 * The one rule of which settlement dates may be run (issue 46), for the CLI, the back office's
 * re-run and the daily job alike: a date whose day is over in the platform zone — yesterday or
 * earlier. A day not over yet may still take transactions, which its run would leave behind.
 */
export function lastSettleableDate(now: Date, platformTz: string): string {
  return addDays(platformDate(now, platformTz), -1);
}

/** Refuses a date whose day is not over in the platform zone (paySettleDayNotOver: the message states the rule). */
export function assertDayOver(date: string, now: Date, platformTz: string): void {
  const last = lastSettleableDate(now, platformTz);
  if (date > last) throw new AppError(Code.BAD_REQUEST, 'paySettleDayNotOver', { date, last, tz: platformTz }, 400);
}

/** The last settlement date the run completed, or null. */
export async function lastRunDate(q: Queryable): Promise<string | null> {
  const { rows } = await q.query<{ d: string | null }>('SELECT max(run_date) AS d FROM settlement_run');
  return rows[0].d;
}

/**
 * The daily settlement run for settlement date `date` (platform zone), in one transaction.
 * Idempotent: a date already run changes nothing. Runs go forward: a date before the last completed
 * run is refused (it would break the pending roll-forward of the later rows).
 */
export async function settleDate(db: Db, date: string): Promise<RunResult> {
  if (!isDate(date)) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: `date ${date}` }, 400);
  const t0 = performance.now();
  return db.tx(async (q) => {
    // One run at a time per database schema, across API processes (a table lock, not an advisory
    // lock: those are shared by every schema of the database).
    await q.query('LOCK TABLE settlement_run IN SHARE ROW EXCLUSIVE MODE');
    const { rows } = await q.query<{ last: string | null; done: boolean }>('SELECT max(run_date) AS last, coalesce(bool_or(run_date = $1::date), false) AS done FROM settlement_run', [date]);
    const out: RunResult = { date, skipped: true, txnCount: 0, rowCount: 0, transfers: 0, unconverted: 0, ms: 0 };
    if (rows[0].done) return { ...out, ms: performance.now() - t0 };
    if (rows[0].last && rows[0].last > date) {
      throw new AppError(Code.CONFLICT, 'paySettleBackwards', { date, last: rows[0].last }, 409);
    }
    const last = rows[0].last;
    for (const ddl of WORK_TABLES) await q.query(ddl);
    await q.query(RATES, [date, CODES, EXPONENTS]);
    await q.query(ENSURE_SCHEDULES);
    await q.query(APPLY_SCHEDULES, [date]);
    await q.query(CANDIDATES, [date, last, SETTLING_TYPES]);
    // The candidates meet small tables (merchants, schedules, rates, queue): hash joins, not a probe per row.
    await q.query('SET LOCAL enable_nestloop = off');
    await q.query(PICK, [date, last]);
    await q.query('SET LOCAL enable_nestloop = on');
    // Issue 48: only a day with dispute rows pays for the look-up of their purchases.
    const disputes = await q.query<{ n: boolean }>(`SELECT EXISTS (SELECT 1 FROM s_pick WHERE tran_type IN ('DISPUTE', 'DISPUTE_REVERSAL')) AS n`);
    if (disputes.rows[0].n) await q.query(DISPUTE_RATES, [CODES, EXPONENTS]);
    await q.query(LATE_QUEUE[0], [date]);
    out.unconverted = (await q.query(DROP_UNCONVERTED)).rowCount;
    await q.query(GROUPS, [date, nextBusinessDay(date)]);
    await q.query(DROP_IDLE);
    out.rowCount = (await q.query(INSERT_SETTLEMENT, [date])).rowCount;
    for (const sql of RESERVES) await q.query(sql, [date]);
    out.txnCount = (await q.query(MARK_TXNS[0], [date])).rowCount;
    await q.query(MARK_TXNS[1], [date]);
    await q.query(DISPUTE_MOVEMENTS, [date]);
    await q.query(SUMMARY, [date]);
    await q.query(LATE_QUEUE[1]);
    await q.query(ADVANCE_CURSORS, [date]);
    const tr = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM s_grp WHERE transfer');
    out.transfers = tr.rows[0].n;
    await q.query('INSERT INTO settlement_run (run_date, txn_count, row_count) VALUES ($1, $2, $3)', [date, out.txnCount, out.rowCount]);
    return { ...out, skipped: false, ms: performance.now() - t0 };
  });
}

/** The first date a catch-up should run: the day after the last run, else the oldest settleable transaction's date. */
export async function firstPendingDate(q: Queryable): Promise<string | null> {
  const last = await lastRunDate(q);
  if (last) return addDays(last, 1);
  const { rows } = await q.query<{ d: string | null }>(`SELECT min(txn_date) AS d FROM txn WHERE settle_date IS NULL AND gw_response = '00' AND tran_type = ANY($1::text[])`, [SETTLING_TYPES]);
  return rows[0].d;
}

/**
 * Runs every date from `from` to `to` in order. Dates up to the last completed run are settled
 * already (runs go forward, and each picks up everything not settled before it): re-running them is
 * a no-op, reported as skipped. A gap between the last completed run and `from` is run first, so no
 * date is ever left behind.
 */
export async function settleRange(db: Db, from: string, to: string, onDate?: (r: RunResult, index: number, total: number) => void | Promise<void>): Promise<RunResult[]> {
  const last = await lastRunDate(db);
  const pending = await firstPendingDate(db);
  const start = pending && pending < from ? pending : from;
  const out: RunResult[] = [];
  const total = Math.max(0, Math.round((Date.parse(to) - Date.parse(start)) / 86_400_000) + 1);
  for (let d = start, i = 0; d <= to; d = addDays(d, 1), i++) {
    const r = last && d <= last ? { date: d, skipped: true, txnCount: 0, rowCount: 0, transfers: 0, unconverted: 0, ms: 0 } : await settleDate(db, d);
    out.push(r);
    await onDate?.(r, i, total);
  }
  return out;
}

/** Catch-up: runs every date not yet run up to `through` (normally yesterday). */
export async function settleThrough(db: Db, through: string, onDate?: (r: RunResult, i: number, n: number) => void | Promise<void>): Promise<RunResult[]> {
  const from = await firstPendingDate(db);
  if (!from || from > through) return [];
  return settleRange(db, from, through, onDate);
}
