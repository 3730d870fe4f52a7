import type { SettleRow } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { EXPORT_BATCH, SETTLE_EXPORT_COLUMNS, walk, merchantNames, type Where } from './txn.repo';
import { ROW_COLUMNS, money, toTxnRow, type TxnDbRow } from './txn.row';
import type { Zone } from './time';

export interface SettleFilter {
  beginDate: string;
  endDate: string;
  busLine: string;
  setCur: string;
  clientid: string;
}

/** The transactions behind a settlement row: merchant, business line, settlement currency, settlement date range. */
export function settleWhere(f: SettleFilter, scope: string[]): Where {
  return {
    sql: `t.mer_id = $1 AND t.mer_id = ANY($2::text[]) AND t.bus_line = $3 AND t.settle_currency = $4
          AND t.settle_date >= $5::date AND t.settle_date <= $6::date`,
    params: [f.clientid, scope, f.busLine, f.setCur, f.beginDate, f.endDate],
  };
}

export function toSettleRow(r: TxnDbRow, zone: Zone): SettleRow {
  const amt = r.settle_amount ?? 0;
  const fee = r.settle_fee ?? 0;
  return {
    ...toTxnRow(r, zone),
    settleDate: r.settle_date,
    settleCurrency: r.settle_currency,
    settleAmount: money(amt, r.settle_currency),
    settleFee: money(fee, r.settle_currency),
    settleNet: money(amt - fee, r.settle_currency),
  };
}

const ORDER = 'ORDER BY t.settle_date, t.txn_time, t.id';

export async function listSettle(q: Queryable, w: Where, page: number, size: number): Promise<TxnDbRow[]> {
  const { rows } = await q.query<TxnDbRow>(`SELECT ${ROW_COLUMNS} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id WHERE ${w.sql} ${ORDER} LIMIT ${size} OFFSET ${page * size}`, w.params);
  return rows;
}

/** Count and sums (settlement amount, fee, net = amount − fee) of the settle list. */
export async function sumSettle(q: Queryable, w: Where) {
  const { rows } = await q.query<{ n: number; amount: number; fee: number }>(
    `SELECT count(*)::int8 AS n, coalesce(sum(t.settle_amount), 0)::int8 AS amount, coalesce(sum(t.settle_fee), 0)::int8 AS fee
       FROM txn t WHERE ${w.sql}`,
    w.params,
  );
  return rows[0];
}

export async function* iterateSettle(q: Queryable, w: Where, scope: string[], batch = EXPORT_BATCH): AsyncGenerator<TxnDbRow[]> {
  yield* walk(q, w, {
    columns: SETTLE_EXPORT_COLUMNS,
    order: 't.settle_date, t.txn_time, t.id',
    keyset: (n) => `(t.settle_date, t.txn_time, t.id) > ($${n + 1}::date, $${n + 2}::timestamptz, $${n + 3})`,
    keyOf: (r) => [r.settle_date, r.txn_ts, r.id],
    batch,
    names: await merchantNames(q, scope),
  });
}
