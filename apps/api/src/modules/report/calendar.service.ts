import type { CashCalendar, CashDay } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import type { Queryable } from '../../db/db';
import { datesBetween, isoDow, nextBusinessDay } from '../payments';
import { platformDate } from '../../lib/zone';
import { addDays } from '../../lib/dates';
import { money } from './report.rows';

/**
 * The dashboard's cash calendar: for the next `days` days (from today, platform zone), per
 * currency, the money the settlement data says will move —
 * - transfer: transfers the settlement run already decided, by remit date;
 * - projected: balances carried today (plus reserves released meanwhile) that the run will transfer
 *   on the merchant's next transfer day at or over the threshold, by the remit date (next business
 *   day) — the run's own rule of domain.md step 3, without transactions not yet settled;
 * - release: reserves due for release that day;
 * and the decided transfers one by one, each with its id, so the calendar opens their payout proofs (issue 49 §1).
 */

interface Key {
  mer_id: string;
  bus_line: string;
  set_cur: string;
}
interface Carried extends Key {
  txn_set_date: string;
  total_pending: number;
  period: string;
  threshold: number;
  tran_fee: number;
}
interface Due extends Key {
  release_date: string;
  amount: number;
}

/** The run's transfer-day rule: D every day, W1..W7 on that ISO weekday, M1..M28 on that day of the month. */
export function isTransferDay(period: string, date: string): boolean {
  if (period === 'D') return true;
  const n = Number(period.slice(1));
  if (period.startsWith('W')) return isoDow(date) === n;
  return Number(date.slice(8, 10)) === n;
}

/** The calendar's six reads (also run as they are by the report benchmark's raw side). */
const CALENDAR_SQL = {
  /** Transfers the run decided, by remit date ($1 scope, $2..$3 dates). */
  known: `SELECT remit_date AS d, set_cur AS cur, sum(real_trans_amount)::int8 AS amount FROM settlement
           WHERE mer_id = ANY($1::text[]) AND remit_date BETWEEN $2::date AND $3::date AND trans_amount > 0 GROUP BY 1, 2`,
  /** Reserves released per day ($1 scope, $2..$3 dates). */
  releases: `SELECT release_date AS d, set_cur AS cur, sum(amount)::int8 AS amount FROM reserve
              WHERE mer_id = ANY($1::text[]) AND release_date BETWEEN $2::date AND $3::date AND amount > 0 GROUP BY 1, 2`,
  /** Each balance's latest settlement row with its transfer rule ($1 scope). */
  carried: `SELECT DISTINCT ON (s.mer_id, s.bus_line, s.set_cur) s.mer_id, s.bus_line, s.set_cur, s.txn_set_date, s.total_pending,
                   coalesce(f.transfer_period, 'D') AS period, coalesce(f.tran_threshold, 0) AS threshold, coalesce(f.tran_fee, 0) AS tran_fee
              FROM settlement s LEFT JOIN merchant_fee f ON f.mer_id = s.mer_id AND f.bus_line = s.bus_line
             WHERE s.mer_id = ANY($1::text[])
             ORDER BY s.mer_id, s.bus_line, s.set_cur, s.txn_set_date DESC`,
  /** Reserves not yet released, due by the end ($1 scope, $2 date). */
  unreleased: `SELECT mer_id, bus_line, set_cur, release_date, sum(amount)::int8 AS amount FROM reserve
                WHERE mer_id = ANY($1::text[]) AND NOT released AND release_date <= $2::date GROUP BY 1, 2, 3, 4`,
  lastRun: 'SELECT max(run_date) AS d FROM settlement_run',
  /** The decided transfers themselves, each with its id (opens the proof) ($1 scope, $2..$3 dates). */
  transfers: `SELECT remit_date::text AS d, txn_set_date::text AS set_date, mer_id, bus_line, set_cur AS cur, real_trans_amount AS amount FROM settlement
               WHERE mer_id = ANY($1::text[]) AND remit_date BETWEEN $2::date AND $3::date AND trans_amount > 0
               ORDER BY remit_date, mer_id, bus_line, set_cur, txn_set_date`,
};

export async function loadCalendar(q: Queryable, scope: string[], from: string, to: string) {
  const [known, releases, carried, unreleased, last, transfers] = await Promise.all([
    q.query<{ d: string; cur: string; amount: number }>(CALENDAR_SQL.known, [scope, from, to]),
    q.query<{ d: string; cur: string; amount: number }>(CALENDAR_SQL.releases, [scope, from, to]),
    q.query<Carried>(CALENDAR_SQL.carried, [scope]),
    q.query<Due>(CALENDAR_SQL.unreleased, [scope, to]),
    q.query<{ d: string | null }>(CALENDAR_SQL.lastRun),
    q.query<{ d: string; set_date: string; mer_id: string; bus_line: string; cur: string; amount: number }>(CALENDAR_SQL.transfers, [scope, from, to]),
  ]);
  return { known: known.rows, releases: releases.rows, carried: carried.rows, unreleased: unreleased.rows, lastRun: last.rows[0].d, transfers: transfers.rows };
}

const keyOf = (k: Key) => `${k.mer_id}|${k.bus_line}|${k.set_cur.trim()}`;

/** Replays the run's transfer decision over the days not yet run, for each carried balance. */
function project(carried: Carried[], unreleased: Due[], lastRun: string | null, from: string, to: string) {
  const due = new Map<string, Map<string, number>>();
  for (const u of unreleased) {
    const m = due.get(keyOf(u)) ?? new Map<string, number>();
    m.set(u.release_date, (m.get(u.release_date) ?? 0) + u.amount);
    due.set(keyOf(u), m);
  }
  const out: { d: string; cur: string; amount: number }[] = [];
  for (const c of carried) {
    const rel = due.get(keyOf(c));
    if (c.total_pending === 0 && !rel) continue;
    let balance = c.total_pending;
    const start = addDays(lastRun && lastRun > c.txn_set_date ? lastRun : c.txn_set_date, 1);
    for (let d = start; d <= to; d = addDays(d, 1)) {
      balance += rel?.get(d) ?? 0;
      if (isTransferDay(c.period, d) && balance > 0 && balance >= c.threshold && balance >= c.tran_fee) {
        const remit = nextBusinessDay(d);
        if (remit >= from && remit <= to) out.push({ d: remit, cur: c.set_cur.trim(), amount: balance - c.tran_fee });
        balance = 0;
      }
    }
  }
  return out;
}

export async function cashCalendar(deps: Deps, scope: string[], days: number): Promise<CashCalendar> {
  const from = platformDate(deps.clock.now(), deps.config.platformTz);
  const to = addDays(from, days - 1);
  if (!scope.length) return { from, to, currencies: [], days: [], transfers: [] };
  const data = await loadCalendar(deps.db.read, scope, from, to);
  const cells = new Map<string, { transfer: number; projected: number; release: number }>();
  const add = (d: string, cur: string, field: 'transfer' | 'projected' | 'release', amount: number) => {
    const k = `${cur.trim()}|${d}`;
    const c = cells.get(k) ?? { transfer: 0, projected: 0, release: 0 };
    c[field] += amount;
    cells.set(k, c);
  };
  for (const r of data.known) add(r.d, r.cur, 'transfer', r.amount);
  for (const r of data.releases) add(r.d, r.cur, 'release', r.amount);
  for (const r of project(data.carried, data.unreleased, data.lastRun, from, to)) add(r.d, r.cur, 'projected', r.amount);
  const currencies = [...new Set([...cells.keys()].map((k) => k.split('|')[0]))].sort();
  const out: CashDay[] = [];
  for (const cur of currencies) {
    for (const d of datesBetween(from, to)) {
      const c = cells.get(`${cur}|${d}`) ?? { transfer: 0, projected: 0, release: 0 };
      out.push({ date: d, currency: cur, transfer: money(c.transfer, cur), projected: money(c.projected, cur), release: money(c.release, cur) });
    }
  }
  const transfers = data.transfers.map((r) => {
    const cur = r.cur.trim();
    return { id: `${r.set_date}.${r.mer_id}.${r.bus_line}.${cur}`, remitDate: r.d, merId: r.mer_id, currency: cur, amount: money(r.amount, cur) };
  });
  return { from, to, currencies, days: out, transfers };
}
