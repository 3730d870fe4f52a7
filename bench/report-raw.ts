/**
 * The report bench's comparison: each list call's question written by hand in SQL (page of rows
 * plus the total, in parallel as the API does), sent straight to the database.
 */
import type { Db } from '../apps/api/src/db/db';
import { loadCalendar } from '../apps/api/src/modules/report/calendar.service';

type Range = { begin: string; end: string };

export interface RawCall {
  name: string;
  path: string;
  size: number;
  params(r: Range): Record<string, string>;
  run(db: Db, scope: string[], r: Range, size: number): Promise<number>;
}

async function pageAndCount(db: Db, list: string, count: string, params: unknown[]): Promise<number> {
  const [, c] = await Promise.all([db.query(list, params), db.query<{ n: number }>(count, params)]);
  return c.rows[0].n;
}

const SETTLEMENT = (size: number) => `
  SELECT s.txn_set_date, s.mer_id, m.name, a.brief_name, s.bus_line, s.set_cur, s.recon_set_amount, s.history_pending, s.total_pending,
         s.trans_amount, s.serv_amount, s.released_amount, s.real_trans_before_fee, s.tran_fee, s.real_trans_amount, s.tran_threshold,
         s.trans_period, s.remit_date, s.recon_search_date
    FROM settlement s JOIN merchant m ON m.mer_id = s.mer_id LEFT JOIN acquirer a ON a.id = m.acquirer_id
   WHERE s.mer_id = ANY($1::text[]) AND s.txn_set_date BETWEEN $2::date AND $3::date
   ORDER BY s.txn_set_date DESC, s.mer_id, s.bus_line, s.set_cur LIMIT ${size}`;
const SETTLEMENT_COUNT = `SELECT count(*)::int8 AS n FROM settlement WHERE mer_id = ANY($1::text[]) AND txn_set_date BETWEEN $2::date AND $3::date`;

/** The reserve list by one of its date columns: page and count, as the API asks. */
function reserveCall(name: string, column: 'txn_set_date' | 'release_date', params: RawCall['params'], dates: (r: Range) => [string, string]): RawCall {
  return {
    name,
    path: 'report/reserve/list',
    size: 10,
    params,
    run: (db, scope, r, size) =>
      pageAndCount(
        db,
        `SELECT r.*, m.name FROM reserve r JOIN merchant m ON m.mer_id = r.mer_id
          WHERE r.mer_id = ANY($1::text[]) AND r.amount > 0 AND r.${column} BETWEEN $2::date AND $3::date
          ORDER BY r.txn_set_date DESC, r.mer_id, r.bus_line, r.set_cur LIMIT ${size}`,
        `SELECT count(*)::int8 AS n FROM reserve WHERE mer_id = ANY($1::text[]) AND amount > 0 AND ${column} BETWEEN $2::date AND $3::date`,
        [scope, ...dates(r)],
      ),
  };
}

const settlementRange = (r: Range) => ({ beginDate: r.begin, endDate: r.end });

export const RAW: RawCall[] = [
  {
    name: 'bill/list',
    path: 'report/bill/list',
    size: 10,
    params: settlementRange,
    run: (db, scope, r, size) => pageAndCount(db, SETTLEMENT(size), SETTLEMENT_COUNT, [scope, r.begin, r.end]),
  },
  {
    name: 'transfer/list (size 100)',
    path: 'report/transfer/list',
    size: 100,
    params: settlementRange,
    run: (db, scope, r, size) => pageAndCount(db, SETTLEMENT(size), SETTLEMENT_COUNT, [scope, r.begin, r.end]),
  },
  {
    name: 'txn/newList (by brand)',
    path: 'report/txn/newList',
    size: 10,
    params: settlementRange,
    run: (db, scope, r, size) =>
      pageAndCount(
        db,
        `SELECT ss.*, m.name FROM settlement_summary ss JOIN merchant m ON m.mer_id = ss.mer_id
          WHERE ss.mer_id = ANY($1::text[]) AND ss.txn_set_date BETWEEN $2::date AND $3::date
          ORDER BY ss.txn_set_date DESC, ss.mer_id, ss.payment_brand, ss.txn_type, ss.txn_cur, ss.set_cur, ss.acquirer LIMIT ${size}`,
        `SELECT count(*)::int8 AS n FROM settlement_summary WHERE mer_id = ANY($1::text[]) AND txn_set_date BETWEEN $2::date AND $3::date`,
        [scope, r.begin, r.end],
      ),
  },
  {
    name: 'txn/list (old, summed over brands)',
    path: 'report/txn/list',
    size: 10,
    params: settlementRange,
    run: (db, scope, r, size) =>
      pageAndCount(
        db,
        `SELECT ss.txn_set_date, ss.mer_id, min(m.name), ss.acquirer, ss.txn_type, ss.txn_cur, ss.set_cur, sum(ss.txn_count), sum(ss.txn_amount),
                sum(ss.mdr_amount), sum(ss.settle_amount), sum(ss.fee)
           FROM settlement_summary ss JOIN merchant m ON m.mer_id = ss.mer_id
          WHERE ss.mer_id = ANY($1::text[]) AND ss.txn_set_date BETWEEN $2::date AND $3::date
          GROUP BY ss.txn_set_date, ss.mer_id, ss.acquirer, ss.txn_type, ss.txn_cur, ss.set_cur
          ORDER BY ss.txn_set_date DESC, ss.mer_id, ss.txn_type, ss.txn_cur, ss.set_cur, ss.acquirer LIMIT ${size}`,
        `SELECT count(*)::int8 AS n FROM (SELECT 1 FROM settlement_summary WHERE mer_id = ANY($1::text[]) AND txn_set_date BETWEEN $2::date AND $3::date
          GROUP BY txn_set_date, mer_id, acquirer, txn_type, txn_cur, set_cur) x`,
        [scope, r.begin, r.end],
      ),
  },
  reserveCall('reserve/list (settlement range)', 'txn_set_date', settlementRange, (r) => [r.begin, r.end]),
  reserveCall(
    'reserve/list (release range, next 90 days)',
    'release_date',
    (r) => ({ releaseBeginDate: r.end, releaseEndDate: addDay(r.end, 90) }),
    (r) => [r.end, addDay(r.end, 90)],
  ),
  {
    name: 'cash calendar',
    path: 'dashboard/cashCalendar',
    size: 30,
    params: () => ({}),
    // The service's own five reads, as they are (the projection in between is JavaScript over a few rows).
    run: async (db, scope, r) => {
      const from = addDay(r.end, 1);
      await loadCalendar(db, scope, from, addDay(from, 29));
      return 30;
    },
  },
];

function addDay(d: string, n: number): string {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + n);
  return x.toISOString().slice(0, 10);
}
