import { SETTLING_TYPES } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { addDays, platformDate } from './time';
import type { TxnRow } from './ingest.types';

const SETTLING = new Set<string>(SETTLING_TYPES);

/**
 * The rows whose settlement date has already been run (transaction date + cycle ≤ last run): the
 * daily run will not meet them in its window, so they go to the late queue. Only rows dated
 * yesterday or earlier can be late; for those the check first takes a lock that waits for a run in
 * progress (and makes a starting run wait for this transaction), so no row slips between a run's
 * snapshot and its cursor. Outside a transaction the lock is skipped (best effort).
 */
export async function lateRows(q: Queryable, rows: TxnRow[], o: { platformTz: string; now?: Date }): Promise<TxnRow[]> {
  const yesterday = addDays(platformDate(o.now ?? new Date(), o.platformTz), -1);
  const maybe = rows.filter((r) => r.gw_response === '00' && SETTLING.has(r.tran_type) && r.txn_date <= yesterday);
  if (!maybe.length) return [];
  try {
    await q.query('LOCK TABLE settlement_run IN ROW EXCLUSIVE MODE');
  } catch (err) {
    if ((err as { code?: string }).code !== '25P01') throw err;
  }
  const { rows: run } = await q.query<{ d: string | null }>('SELECT max(run_date) AS d FROM settlement_run');
  const last = run[0].d;
  if (!last) return [];
  const pairs = [...new Set(maybe.map((r) => `${r.mer_id}|${r.bus_line}`))];
  const { rows: fees } = await q.query<{ mer_id: string; bus_line: string; cycle_days: number }>(
    `SELECT f.mer_id, f.bus_line, f.cycle_days FROM merchant_fee f
       JOIN unnest($1::text[], $2::text[]) AS u(m, b) ON f.mer_id = u.m AND f.bus_line = u.b`,
    [pairs.map((p) => p.split('|')[0]), pairs.map((p) => p.split('|')[1])],
  );
  const cycle = new Map(fees.map((f) => [`${f.mer_id}|${f.bus_line}`, f.cycle_days]));
  return maybe.filter((r) => addDays(r.txn_date, cycle.get(`${r.mer_id}|${r.bus_line}`) ?? 1) <= last);
}

/** Queues transactions for the next settlement run (by id). */
export async function queueLate(q: Queryable, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await q.query('INSERT INTO settle_late (txn_id) SELECT unnest($1::int8[]) ON CONFLICT DO NOTHING', [ids]);
}
