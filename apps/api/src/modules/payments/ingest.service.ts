import type { Queryable } from '../../db/db';
import { metrics } from '../../plugins/metrics';
import { Code } from '@portal/contract';
import { ensureMonthsOf, listMonths, partitionName } from '../../db/partitions';
import { AppError } from '../../lib/errors';
import type { IngestInput, IngestOptions, IngestOutcome, Ingested, TxnRow } from './ingest.types';
import { TXN_COLUMNS } from './ingest.types';
import { ORIGIN_COLUMNS, checkMerchant, checkOrigin, loadMerchants, mapDbError, shapeRow, type OriginRow } from './ingest.validate';
import { lateRows, queueLate } from './late';
import { checkStores, resolveStores } from './ingest.stores';

export type { IngestInput, IngestOptions, IngestOutcome, Ingested, TxnRow } from './ingest.types';

const COLS = TXN_COLUMNS.map(([c]) => c).join(', ');

/**
 * THE only way a transaction row is created (domain.md). Validates — merchant exists and is
 * enabled, channel enabled for it, currency allowed, order number unique per merchant, amount a
 * positive safe integer of minor units, brand known, type valid, a REFD/VOID names a successful
 * purchase of the same merchant, currency and channel (a VOID: same day, full amount, unsettled,
 * unrefunded) — and writes one row with its business line, platform-zone date and a fresh gateway
 * id. Every failure is an AppError with a message in en/zh/ko/ja, thrown before anything is
 * written. It does not touch the purchase's `return_amount`: the refund caller owns that guard.
 * A successful row dated before its settlement date's completed run joins the late queue.
 */
export async function ingestTransaction(q: Queryable, input: IngestInput, opts: IngestOptions): Promise<Ingested> {
  const row = shapeRow(input, opts);
  const { rows } = await q.query<{ enabled: boolean; locked: boolean; channels: string[]; currencies: string[]; taken: boolean }>(
    `SELECT m.enabled, m.locked, m.channels, m.currencies,
            EXISTS (SELECT 1 FROM txn_key WHERE mer_id = m.mer_id AND order_no = $2) AS taken
       FROM merchant m WHERE m.mer_id = $1`,
    [row.mer_id, row.order_no],
  );
  const m = rows[0];
  checkMerchant(row, m && { mer_id: row.mer_id, ...m, currencies: m.currencies.map((c) => c.trim()) });
  await resolveStores(q, [row]);
  if (m.taken) throw mapDbError({ code: '23505', constraint: 'order_no' }, { merId: row.mer_id, orderNo: row.order_no });
  if (row.origin_txn_id !== null || row.origin_order_no !== null) {
    const byId = row.origin_txn_id !== null;
    const { rows: o } = await q.query<OriginRow>(
      `SELECT ${ORIGIN_COLUMNS} FROM txn WHERE ${byId ? 'id = $1' : 'mer_id = $2 AND order_no = $1'}`,
      byId ? [row.origin_txn_id] : [row.origin_order_no, row.mer_id],
    );
    checkOrigin(row, o[0]);
  } else checkOrigin(row, undefined);
  const late = await lateRows(q, [row], opts);
  await ensureSchedules(q, [row]);
  await ensureMonthsOf(q, 'txn', [row.txn_time]);
  const params = TXN_COLUMNS.map(([c]) => row[c]);
  const values = TXN_COLUMNS.map(([c, type], i) => (c === 'txn_time' ? `to_timestamp($${i + 1}::float8 / 1000)` : `$${i + 1}::${type}`));
  try {
    const res = await q.query<{ id: number; gw_trans_id: string }>(`INSERT INTO txn (${COLS}) VALUES (${values.join(', ')}) RETURNING id, gw_trans_id`, params);
    if (late.length) await queueLate(q, [res.rows[0].id]);
    metrics.ingestedRows.inc({ source: input.source ?? 'unknown', result: 'ok' });
    return { id: res.rows[0].id, gwTransId: res.rows[0].gw_trans_id };
  } catch (err) {
    throw mapDbError(err, { merId: row.mer_id, orderNo: row.order_no });
  }
}

/**
 * Bulk ingestion (the demo generator, imports): the same validation, multi-row INSERTs of arrays
 * (`INSERT … SELECT FROM unnest(…)`). All or nothing only inside a transaction: call it with the
 * `q` of `db.tx`. A row may refer by `originOrderNo` to a purchase earlier in the same batch.
 * Returns the number of rows written.
 */
export async function ingestBatch(q: Queryable, inputs: IngestInput[], opts: IngestOptions): Promise<number> {
  if (!inputs.length) return 0;
  const rows = inputs.map((i) => shapeRow(i, opts));
  const merchants = await loadMerchants(q, [...new Set(rows.map((r) => r.mer_id))]);
  const seen = new Set<string>();
  for (const r of rows) {
    checkMerchant(r, merchants.get(r.mer_id));
    const key = `${r.mer_id}|${r.order_no}`;
    if (seen.has(key)) throw mapDbError({ code: '23505', constraint: 'order_no' }, { merId: r.mer_id, orderNo: r.order_no });
    seen.add(key);
  }
  await resolveStores(q, rows);
  // Rows whose origin is an order number in this batch go in a second statement, once it exists.
  const later = rows.filter((r) => r.origin_txn_id === null && r.origin_order_no !== null && seen.has(`${r.mer_id}|${r.origin_order_no}`));
  const laterSet = new Set(later);
  const first = later.length ? rows.filter((r) => !laterSet.has(r)) : rows;
  try {
    await ensureSchedules(q, rows);
    await ensureMonthsOf(
      q,
      'txn',
      rows.map((r) => r.txn_time),
    );
    await resolveOrigins(q, first);
    await insertRows(q, first);
    if (later.length) {
      await resolveOrigins(q, later);
      await insertRows(q, later);
    }
    const late = await lateRows(q, rows, opts);
    if (late.length) {
      const { rows: ids } = await q.query<{ id: number }>('SELECT t.id FROM unnest($1::text[], $2::text[]) AS u(m, o) JOIN txn t ON t.mer_id = u.m AND t.order_no = u.o', [
        late.map((r) => r.mer_id),
        late.map((r) => r.order_no),
      ]);
      await queueLate(
        q,
        ids.map((r) => r.id),
      );
    }
  } catch (err) {
    throw mapDbError(err);
  }
  metrics.ingestedRows.inc({ source: inputs[0].source ?? 'unknown', result: 'ok' }, rows.length);
  return rows.length;
}

/**
 * Every business line a merchant transacts on has a fee schedule row: the default one (column
 * defaults of merchant_fee) unless the merchant already has its own. The settlement run reads
 * transactions schedule by schedule.
 */
async function ensureSchedules(q: Queryable, rows: TxnRow[]): Promise<void> {
  const pairs = [...new Set(rows.map((r) => `${r.mer_id}|${r.bus_line}`))].map((p) => p.split('|'));
  await q.query('INSERT INTO merchant_fee (mer_id, bus_line) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (mer_id, bus_line) DO NOTHING', [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
}

async function resolveOrigins(q: Queryable, rows: TxnRow[]): Promise<void> {
  const originOf = await findOrigins(q, rows);
  for (const r of rows) checkOrigin(r, originOf(r));
}

/** The origins the rows name (by id or by order number of the same merchant), in two queries at most. */
async function findOrigins(q: Queryable, rows: TxnRow[]): Promise<(r: TxnRow) => OriginRow | undefined> {
  const byId = rows.filter((r) => r.origin_txn_id !== null);
  const byNo = rows.filter((r) => r.origin_txn_id === null && r.origin_order_no !== null);
  const found = new Map<string, OriginRow>();
  if (byId.length) {
    const { rows: o } = await q.query<OriginRow>(`SELECT ${ORIGIN_COLUMNS} FROM txn WHERE id = ANY($1::int8[])`, [byId.map((r) => r.origin_txn_id)]);
    for (const x of o) found.set(`#${x.id}`, x);
  }
  if (byNo.length) {
    const { rows: o } = await q.query<OriginRow>(
      `SELECT ${ORIGIN_COLUMNS.split(', ')
        .map((c) => `t.${c}`)
        .join(', ')}
         FROM unnest($1::text[], $2::text[]) AS u(m, o) JOIN txn t ON t.mer_id = u.m AND t.order_no = u.o`,
      [byNo.map((r) => r.mer_id), byNo.map((r) => r.origin_order_no)],
    );
    for (const x of o) found.set(`${x.mer_id}|${x.order_no}`, x);
  }
  return (r) => (r.origin_txn_id !== null ? found.get(`#${r.origin_txn_id}`) : r.origin_order_no !== null ? found.get(`${r.mer_id}|${r.origin_order_no}`) : undefined);
}

export interface EachOptions extends IngestOptions {
  /**
   * Called for each row that passed every check, just before it is written, in the same
   * transaction (and savepoint): throwing an AppError refuses that row alone, and whatever the hook
   * wrote is undone with it. The provider feed reserves a refund's amount on its purchase here.
   */
  beforeInsert?: (q: Queryable, row: TxnRow) => Promise<void>;
  /**
   * Write only into months of the ledger that exist (the provider feed, issue 47): a row for a month
   * whose partition the partition job has not made is refused alone (`gwMonthNotReady`), and no
   * month is created — creating one locks the whole ledger and let a caller make any number.
   */
  existingMonthsOnly?: boolean;
}

/**
 * Row-by-row ingestion (the provider feed, file imports): the checks of `ingestTransaction`, but a
 * refused row does not stop the others — each input gets its outcome, in order. Call it inside a
 * transaction (`db.tx`): it uses savepoints. The rows are written in multi-row INSERTs; when one
 * fails (a concurrent writer took an order number) that INSERT is redone row by row, each under
 * its own savepoint, so only the offending row is refused. A row may refer by `originOrderNo` to a
 * purchase earlier in the same call. Successful rows dated before a completed run join the late queue.
 */
export async function ingestEach(q: Queryable, inputs: IngestInput[], opts: EachOptions): Promise<IngestOutcome[]> {
  const out: (IngestOutcome | undefined)[] = new Array(inputs.length);
  const refuse = (i: number, err: unknown) => {
    const e = mapDbError(err);
    if (!(e instanceof AppError)) throw e;
    out[i] = { ok: false, error: e };
  };
  const rows: (TxnRow | null)[] = inputs.map((input, i) => {
    try {
      return shapeRow(input, opts);
    } catch (err) {
      refuse(i, err);
      return null;
    }
  });
  const live = () => rows.flatMap((r, i) => (r && !out[i] ? [i] : []));
  const merchants = await loadMerchants(q, [...new Set(live().map((i) => rows[i]!.mer_id))]);
  const keys = live().map((i) => rows[i]!);
  const { rows: taken } = await q.query<{ mer_id: string; order_no: string }>(
    'SELECT k.mer_id, k.order_no FROM unnest($1::text[], $2::text[]) AS u(m, o) JOIN txn_key k ON k.mer_id = u.m AND k.order_no = u.o',
    [keys.map((r) => r.mer_id), keys.map((r) => r.order_no)],
  );
  const seen = new Set(taken.map((t) => `${t.mer_id}|${t.order_no}`));
  const inBatch = new Set<string>();
  for (const i of live()) {
    const r = rows[i]!;
    try {
      checkMerchant(r, merchants.get(r.mer_id));
      const key = `${r.mer_id}|${r.order_no}`;
      if (seen.has(key)) throw mapDbError({ code: '23505', constraint: 'order_no' }, { merId: r.mer_id, orderNo: r.order_no });
      seen.add(key);
      inBatch.add(key);
    } catch (err) {
      refuse(i, err);
    }
  }
  const storeErrors = await checkStores(
    q,
    live().map((i) => rows[i]!),
  );
  for (const i of live()) if (storeErrors.has(rows[i]!)) refuse(i, storeErrors.get(rows[i]!));
  // Rows whose origin is an order number of this call are checked and written in a second pass.
  const refersIn = (r: TxnRow) => r.origin_txn_id === null && r.origin_order_no !== null && inBatch.has(`${r.mer_id}|${r.origin_order_no}`);
  const written: number[] = [];
  if (live().length && opts.existingMonthsOnly) {
    const months = await listMonths(q, 'txn');
    for (const i of live()) {
      const t = rows[i]!.txn_time;
      if (!months.some((m) => +m.from <= t && t < +m.to)) {
        refuse(
          i,
          new AppError(
            Code.BAD_REQUEST,
            'gwMonthNotReady',
            {
              month: partitionName('txn', t)
                .slice(-6)
                .replace(/^(\d{4})/, '$1-'),
            },
            400,
            { field: 'currentTime' },
          ),
        );
      }
    }
  }
  const all = live().map((i) => rows[i]!);
  if (all.length) {
    await ensureSchedules(q, all);
    if (!opts.existingMonthsOnly)
      await ensureMonthsOf(
        q,
        'txn',
        all.map((r) => r.txn_time),
      );
  }
  const passes = [live().filter((i) => !refersIn(rows[i]!)), live().filter((i) => refersIn(rows[i]!))];
  for (const pass of passes) {
    const originOf = await findOrigins(
      q,
      pass.map((i) => rows[i]!),
    );
    const ready = pass.filter((i) => {
      try {
        checkOrigin(rows[i]!, originOf(rows[i]!));
        return true;
      } catch (err) {
        refuse(i, err);
        return false;
      }
    });
    if (!ready.length) continue;
    await q.query('SAVEPOINT ingest_each');
    try {
      const go: number[] = [];
      for (const i of ready) {
        try {
          await opts.beforeInsert?.(q, rows[i]!);
          go.push(i);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          refuse(i, err);
        }
      }
      const ids = go.length
        ? await insertRows(
            q,
            go.map((i) => rows[i]!),
            true,
          )
        : new Map<string, number>();
      await q.query('RELEASE SAVEPOINT ingest_each');
      for (const i of go) {
        out[i] = { ok: true, id: ids.get(rows[i]!.gw_trans_id)!, gwTransId: rows[i]!.gw_trans_id, row: rows[i]! };
        written.push(i);
      }
    } catch (err) {
      await q.query('ROLLBACK TO SAVEPOINT ingest_each');
      await q.query('RELEASE SAVEPOINT ingest_each');
      if ((err as { code?: string }).code !== '23505') throw err;
      for (const i of ready) {
        if (out[i]) continue;
        await q.query('SAVEPOINT ingest_row');
        try {
          await opts.beforeInsert?.(q, rows[i]!);
          const ids = await insertRows(q, [rows[i]!], true);
          await q.query('RELEASE SAVEPOINT ingest_row');
          out[i] = { ok: true, id: ids.get(rows[i]!.gw_trans_id)!, gwTransId: rows[i]!.gw_trans_id, row: rows[i]! };
          written.push(i);
        } catch (e) {
          await q.query('ROLLBACK TO SAVEPOINT ingest_row');
          await q.query('RELEASE SAVEPOINT ingest_row');
          refuse(i, e);
        }
      }
    }
  }
  const late = await lateRows(
    q,
    written.map((i) => rows[i]!),
    opts,
  );
  if (late.length) {
    const lateSet = new Set(late);
    await queueLate(
      q,
      written.filter((i) => lateSet.has(rows[i]!)).map((i) => (out[i] as { id: number }).id),
    );
  }
  // (/metrics: the caller counts, once per row whatever refused it — the feed's `countRows`, issue 46.)
  return out as IngestOutcome[];
}

/** One INSERT … SELECT FROM unnest: a column equal on every row goes as one value, not an array. */
async function insertRows(q: Queryable, rows: TxnRow[], returning = false): Promise<Map<string, number>> {
  const CHUNK = 20_000;
  const ids = new Map<string, number>();
  for (let start = 0; start < rows.length; start += CHUNK) {
    const part = rows.slice(start, start + CHUNK);
    const params: unknown[] = [];
    const arrays: string[] = [];
    const names: string[] = [];
    const exprs: string[] = [];
    for (const [c, type] of TXN_COLUMNS) {
      const first = part[0][c];
      const same = c !== 'gw_trans_id' && part.every((r) => r[c] === first);
      if (same) {
        params.push(first);
        exprs.push(c === 'txn_time' ? `to_timestamp($${params.length}::float8 / 1000)` : `$${params.length}::${type}`);
      } else {
        params.push(pgArray(part.map((r) => r[c])));
        arrays.push(`$${params.length}::${type}[]`);
        names.push(c);
        exprs.push(c === 'txn_time' ? 'to_timestamp(u.txn_time / 1000)' : `u.${c}`);
      }
    }
    const res = await q.query<{ id: number; gw_trans_id: string }>(
      `INSERT INTO txn (${COLS}) SELECT ${exprs.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')})${returning ? ' RETURNING id, gw_trans_id' : ''}`,
      params,
    );
    for (const r of res.rows) ids.set(r.gw_trans_id, Number(r.id));
  }
  return ids;
}

const PLAIN = /^[A-Za-z0-9_.:@+/-]+$/;

/**
 * A PostgreSQL array literal of the values, built here rather than by the driver: most values are
 * plain (codes, digits, hex) and need no quoting, which makes large batches markedly cheaper.
 */
function pgArray(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'number') parts[i] = String(v);
    else {
      const s = String(v);
      parts[i] = PLAIN.test(s) && s.toUpperCase() !== 'NULL' ? s : `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    }
  }
  return `{${parts.join(',')}}`;
}
