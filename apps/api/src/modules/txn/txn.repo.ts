import type { TxnFilter } from '@portal/contract';
import { keyTimeBounds } from '../../db/partitions';
import { arrayParam } from '../../db/sql-inline';
import type { TxnRow as StoredTxnRow } from '../payments';
import { ROW_COLUMNS, money, pgTimestampMs, type TxnDbRow } from './txn.row';
import { PIPELINED, type Queryable } from '../../db/db';
import { zonedToUtc, type Zone } from './time';
import { JUMP_FROM, jumpStatement } from './txn.jump';

export interface Where {
  sql: string;
  params: unknown[];
  /**
   * Only scope, time range and keys (order number, gateway id): the page's generic plan walks the
   * index its custom plan walks (`npm run bench -- plans`), so the page may run prepared. With any
   * other column filtered, a generic plan (which does not know how selective the value is) was
   * measured picking the wide filter index and sorting the merchant's month: those run unprepared.
   */
  genericSafe?: boolean;
  /**
   * Set when only scope and time filter the rows: the UTC days the range covers whole, [from, to)
   * ('YYYY-MM-DD', or ±infinity for an open end), and the scope's test over txn_day_count (d). The
   * counts of those days are a lower bound of the matches (countTxnUpTo).
   */
  days?: { mer: string; from: string; to: string };
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The WHERE clause of a transaction query (spec §3) over `t`, always limited to `scope`. Times are
 * wall times of the platform zone.
 */
export function txnWhere(f: TxnFilter, scope: string[], platformTz: Zone): Where {
  // One merchant in scope (a sub-merchant's user, or a merchant filter): an equality, so the
  // (mer_id, txn_time DESC, id DESC) index gives the order and serves a deep offset index-only;
  // `= ANY(array)` does not (PostgreSQL 15 then scans the time index and filters by merchant).
  const one = scope.length === 1;
  const params: unknown[] = [one ? scope[0] : arrayParam(scope)];
  const c: string[] = [one ? 't.mer_id = $1::text' : 't.mer_id = ANY($1::text[])'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    c.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.beginDate) add('t.txn_time >= ?', zonedToUtc(f.beginDate, platformTz));
  if (f.endDate) add('t.txn_time <= ?', zonedToUtc(f.endDate, platformTz));
  // An order number (unique per merchant) or a gateway id (unique) names at most one row per
  // merchant in scope. txn_key gives the times of those rows; bounded by them (two initplans, so
  // the executor prunes at start), only the month holding the row is read however many months
  // the range covers (decision 028). No key found: the bounds are NULL and nothing matches.
  const byKey = (col: 'order_no' | 'gw_trans_id', v: string) => {
    add(`t.${col} = ?`, v);
    c.push(keyTimeBounds(one ? 'k.mer_id = $1::text' : 'k.mer_id = ANY($1::text[])', `k.${col} = $${params.length}`));
  };
  if (f.orderNum) byKey('order_no', f.orderNum);
  if (f.channelOrderNum) add('t.channel_order_no = ?', f.channelOrderNum);
  if (f.originOrderNum) add('t.origin_order_no = ?', f.originOrderNum);
  if (f.gwGTransId) byKey('gw_trans_id', f.gwGTransId);
  if (f.gwTranType) add('t.tran_type = ?', f.gwTranType);
  if (f.merReserve) add('t.mer_reserve = ?', f.merReserve);
  if (f.paymentSchema) add('t.payment_schema = ?', f.paymentSchema);
  if (f.paymentBrand) add('t.payment_brand = ANY(?::text[])', f.paymentBrand.split(','));
  if (f.gwResponse === '00') c.push(`t.gw_response = '00'`);
  else if (f.gwResponse === '04') c.push(`(t.gw_response IS NULL OR t.gw_response IN ('04', ''))`);
  else if (f.gwResponse === '01') c.push(`t.gw_response NOT IN ('00', '04', '')`);
  const narrowed = !!(f.channelOrderNum || f.originOrderNum || f.gwTranType || f.merReserve || f.paymentSchema || f.paymentBrand || f.gwResponse);
  const w: Where = { sql: c.join(' AND '), params, genericSafe: !narrowed };
  if (!narrowed && !f.orderNum && !f.gwGTransId) {
    // Days whose whole [00:00, 24:00) UTC lies within [begin, end]: from the first midnight at or
    // after begin, to the last midnight at or before end (exclusive).
    const from = f.beginDate ? isoDay(Math.ceil(zonedToUtc(f.beginDate, platformTz).getTime() / DAY_MS) * DAY_MS) : '-infinity';
    const to = f.endDate ? isoDay(Math.floor(zonedToUtc(f.endDate, platformTz).getTime() / DAY_MS) * DAY_MS) : 'infinity';
    w.days = { mer: one ? 'd.mer_id = $1::text' : 'd.mer_id = ANY($1::text[])', from, to };
  }
  return w;
}

/** The list's order: newest first, ties by id (the keyset). */
export const PAGE_ORDER = 'ORDER BY t.txn_time DESC, t.id DESC';

/** Where a keyset page starts: the (time, id) of the row before it. */
export interface TxnKey {
  time: Date;
  id: number;
}

/**
 * The key of row `id` if it is one of `scope`'s (a cursor naming another merchant's row is not
 * followed: it would tell that row's time).
 */
export async function txnKey(q: Queryable, id: number, scope: string[]): Promise<TxnKey | null> {
  const { rows } = await q.query<{ txn_time: Date; id: number }>('SELECT txn_time, id FROM txn_key WHERE id = $1 AND mer_id = ANY($2::text[])', [id, scope], PIPELINED);
  return rows[0] ? { time: rows[0].txn_time, id: Number(rows[0].id) } : null;
}

/** The gateway id of transaction `id` if it is one of `scope`'s (null otherwise: another merchant's answers as unknown). */
export async function gwTransIdOf(q: Queryable, id: number, scope: string[]): Promise<string | null> {
  const { rows } = await q.query<{ gw_trans_id: string }>('SELECT gw_trans_id FROM txn_key WHERE id = $1 AND mer_id = ANY($2::text[])', [id, scope]);
  return rows[0]?.gw_trans_id ?? null;
}

/**
 * A page of the list, newest first. With `after` (the key of the last row of the page before) it
 * is read by keyset — it costs what page 1 costs however deep. Otherwise by offset, as a deferred
 * join: the offset walks the index only (ids), and only the page's rows are read whole — from
 * `o.jumpFrom` (JUMP_FROM) on, for a list filtered only by scope and time, past the newest whole days
 * skipped by their counts (txn.jump.ts). `columns`: ROW_COLUMNS (TxnDbRow, the default) or
 * LIST_COLUMNS (rows for listRow).
 */
export async function listTxn<R = TxnDbRow>(q: Queryable, w: Where, page: number, size: number, after?: TxnKey | null, columns: string = ROW_COLUMNS, o: { jumpFrom?: number } = {}): Promise<R[]> {
  if (after) {
    const n = w.params.length;
    const { rows } = await q.query<R>(
      `SELECT ${columns} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
        WHERE ${w.sql} AND (t.txn_time, t.id) < ($${n + 1}::timestamptz, $${n + 2}::int8) ${PAGE_ORDER} LIMIT ${size}`,
      [...w.params, after.time, after.id],
      w.genericSafe ? PIPELINED : undefined,
    );
    return rows;
  }
  const offset = page * size;
  if (w.days && offset > 0 && offset >= (o.jumpFrom ?? JUMP_FROM)) {
    // Deep, and filtered only by scope and time: the newest whole days skipped by their counts (txn.jump.ts).
    const j = jumpStatement({ ...w, days: w.days }, offset, size, columns, PAGE_ORDER);
    return (await q.query<R>(j.sql, j.params, w.genericSafe ? PIPELINED : undefined)).rows;
  }
  const { rows } = await q.query<R>(
    offset === 0
      ? `SELECT ${columns} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id WHERE ${w.sql} ${PAGE_ORDER} LIMIT ${size}`
      : // The key with its time: each row is then fetched from its own month (partitions, decision 028).
        `SELECT ${columns} FROM (SELECT t.id, t.txn_time FROM txn t WHERE ${w.sql} ${PAGE_ORDER} LIMIT ${size} OFFSET ${offset}) k
           JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time JOIN merchant m ON m.mer_id = t.mer_id ${PAGE_ORDER}`,
    w.params,
    // Page 1 is prepared; a page by offset keeps its offset in the text (a generic plan would not
    // know it is small, and every offset would leave one more statement on the connection).
    offset === 0 && w.genericSafe ? PIPELINED : undefined,
  );
  return rows;
}

/** Per-currency totals of the rows matching: count, Σ amount as listed, Σ signed amount of successful settling types. */
export async function totalsTxn(q: Queryable, w: Where) {
  const { rows } = await q.query<{ currency: string; n: number; amount: number; net: number }>(
    `SELECT t.currency, count(*)::int8 AS n, coalesce(sum(t.amount), 0)::int8 AS amount,
            coalesce(sum(CASE WHEN t.gw_response <> '00' THEN 0
                              WHEN t.tran_type IN ('PURC','UNFREEZE','PROFIT_INCOME','DISPUTE_REVERSAL') THEN t.amount
                              WHEN t.tran_type = 'MANENTD' THEN t.amount * t.amount_sign
                              WHEN t.tran_type IN ('REFD','VOID','DISPUTE','FREEZE','PROFIT_OUTGO','FEE_COLLECTION','DISPUTE_FEE') THEN -t.amount
                              ELSE 0 END), 0)::int8 AS net
       FROM txn t WHERE ${w.sql} GROUP BY t.currency ORDER BY t.currency`,
    w.params,
  );
  return rows.map((r) => ({ currency: r.currency, count: r.n, amount: money(r.amount, r.currency), net: money(r.net, r.currency) }));
}

/**
 * The columns an export needs, with the time as text (parsed by hand, and reused exactly as the
 * keyset) and without the merchant join (names come from a map): the driver's per-row cost is most
 * of an export's time.
 */
const TXN_EXPORT_COLUMNS = `t.id, t.mer_id, t.order_no, t.origin_order_no, t.tran_type, t.gw_response, t.amount, t.amount_sign, t.currency,
  t.return_amount, t.payment_schema, t.payment_brand, t.txn_time::text AS txn_ts, t.settle_flag`;
export const SETTLE_EXPORT_COLUMNS = `${TXN_EXPORT_COLUMNS}, t.settle_date, t.settle_currency, t.settle_amount, t.settle_fee`;
export const EXPORT_BATCH = 2000;

export async function merchantNames(q: Queryable, scope: string[]): Promise<Map<string, string>> {
  const { rows } = await q.query<{ mer_id: string; name: string }>('SELECT mer_id, name FROM merchant WHERE mer_id = ANY($1::text[])', [scope]);
  return new Map(rows.map((r) => [r.mer_id, r.name]));
}

/**
 * Walks rows in keyset batches (constant memory whatever the count), fetching the next batch while
 * the caller writes the current one. `order` is the ORDER BY; `keyOf`/`keyset` express "after".
 */
export async function* walk(
  q: Queryable,
  w: Where,
  o: { columns: string; order: string; keyset: (n: number) => string; keyOf: (r: TxnDbRow) => unknown[]; batch?: number; names: Map<string, string> },
): AsyncGenerator<TxnDbRow[]> {
  const batch = o.batch ?? EXPORT_BATCH;
  const fetch = (after: unknown[] | null) => {
    const params = after ? [...w.params, ...after] : w.params;
    const keyset = after ? ` AND ${o.keyset(w.params.length)}` : '';
    return q.query<TxnDbRow>(`SELECT ${o.columns} FROM txn t WHERE ${w.sql}${keyset} ORDER BY ${o.order} LIMIT ${batch}`, params);
  };
  let next: Promise<{ rows: TxnDbRow[] }> | null = fetch(null);
  while (next) {
    const rows: TxnDbRow[] = (await next).rows;
    next = rows.length === batch ? fetch(o.keyOf(rows[rows.length - 1])) : null;
    for (const r of rows) {
      r.txn_time = pgTimestampMs(r.txn_ts!);
      r.mer_name = o.names.get(r.mer_id) ?? '';
    }
    if (rows.length) yield rows;
  }
}

/** The matching rows newest first, for the transactions export. */
export async function* iterateTxn(q: Queryable, w: Where, scope: string[], batch = EXPORT_BATCH): AsyncGenerator<TxnDbRow[]> {
  yield* walk(q, w, {
    columns: TXN_EXPORT_COLUMNS,
    order: 't.txn_time DESC, t.id DESC',
    keyset: (n) => `(t.txn_time, t.id) < ($${n + 1}::timestamptz, $${n + 2})`,
    keyOf: (r) => [r.txn_ts, r.id],
    batch,
    names: await merchantNames(q, scope),
  });
}

export interface DetailDbRow extends TxnDbRow, Pick<StoredTxnRow, 'sub_brand_code' | 'store_name' | 'store_id' | 'back_url' | 'front_url' | 'card_first6' | 'card_last4'> {
  version: string;
  shipment_no: string | null;
  company: string | null;
  ship_date: string | null;
  ship_status: string | null;
  /** Issue 48: open or lost chargeback debits (not refundable). */
  disputed_amount: number;
}

export async function findDetail(q: Queryable, id: number, scope: string[]): Promise<DetailDbRow | undefined> {
  const { rows } = await q.query<DetailDbRow>(
    `SELECT ${ROW_COLUMNS}, t.version, t.sub_brand_code, t.store_name, t.store_id, t.back_url, t.front_url, t.card_first6, t.card_last4,
            t.disputed_amount::float8 AS disputed_amount, l.shipment_no, l.company, l.ship_date, l.status AS ship_status
       FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
       LEFT JOIN logistics l ON l.mer_id = t.mer_id AND l.order_no = t.order_no
      WHERE t.id = $1 AND t.mer_id = ANY($2::text[])
        -- the row's time from its key: only its month is read (partitions, decision 028)
        AND t.txn_time = (SELECT k.txn_time FROM txn_key k WHERE k.id = $1)`,
    [id, scope],
  );
  return rows[0];
}

/** The purchase at the root of `id`'s family and every transaction pointing at it. */
export async function findFamily(q: Queryable, rootId: number, scope: string[]): Promise<TxnDbRow[]> {
  const { rows } = await q.query<TxnDbRow>(
    `SELECT ${ROW_COLUMNS} FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
      WHERE (t.id = $1 OR t.origin_txn_id = $1) AND t.mer_id = ANY($2::text[])
      ORDER BY (t.id = $1) DESC, t.txn_time, t.id`,
    [rootId, scope],
  );
  return rows;
}

/**
 * The takings of the rows matching (the phone home screen, issue 29): successful purchases less
 * successful refunds and voids, per currency, per store (named by the store table) and per brand.
 * count is the number of successful purchases. Biggest first within a currency.
 */
export async function takingsTxn(q: Queryable, w: Where) {
  const taken = `${w.sql} AND t.gw_response = '00' AND t.tran_type IN ('PURC','REFD','VOID')`;
  const figures = `t.currency, count(*) FILTER (WHERE t.tran_type = 'PURC')::int8 AS n,
    coalesce(sum(CASE WHEN t.tran_type = 'PURC' THEN t.amount ELSE -t.amount END), 0)::int8 AS amount`;
  type Fig = { currency: string; n: number; amount: number };
  const [totals, stores, brands] = await Promise.all([
    q.query<Fig>(`SELECT ${figures} FROM txn t WHERE ${taken} GROUP BY t.currency ORDER BY t.currency`, w.params),
    q.query<Fig & { store_id: string | null; store_name: string | null }>(
      `SELECT t.store_id, s.name AS store_name, ${figures} FROM txn t LEFT JOIN store s ON s.store_id = t.store_id
        WHERE ${taken} GROUP BY t.store_id, s.name, t.currency ORDER BY t.currency, amount DESC, s.name NULLS LAST, t.store_id NULLS LAST`,
      w.params,
    ),
    q.query<Fig & { payment_brand: string | null }>(
      `SELECT t.payment_brand, ${figures} FROM txn t WHERE ${taken} GROUP BY t.payment_brand, t.currency ORDER BY t.currency, amount DESC, t.payment_brand NULLS LAST`,
      w.params,
    ),
  ]);
  const fig = (r: Fig) => ({ currency: r.currency, count: Number(r.n), amount: money(Number(r.amount), r.currency) });
  return {
    totals: totals.rows.map(fig),
    stores: stores.rows.map((r) => ({ storeId: r.store_id, storeName: r.store_name, ...fig(r) })),
    brands: brands.rows.map((r) => ({ brand: r.payment_brand, ...fig(r) })),
  };
}
