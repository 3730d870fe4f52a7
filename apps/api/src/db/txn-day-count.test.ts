/**
 * txn_day_count, the transactions per merchant and UTC day that prove "more than 1,000" for a list
 * filtered only by scope and time (issue 30, decision 052), on both engines: the counts equal the
 * ledger after any mix of inserts, moves in time or merchant, and deletes (property); they are
 * emptied with TRUNCATE; a detached month takes its days' counts with it (never over-counted); truly
 * parallel writers of one merchant and day lose no count (PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../test/helpers';
import { addTxn } from '../modules/txn/txn.fixtures';
import { archiveMonth, detachMonth, ensureMonths } from './partitions';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

const MERS = [DEMO.subA, DEMO.subB, DEMO.other];
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 6, 29); // 29 July 2024: the days generated cross into August (two months)

type Op =
  | { kind: 'insert'; mer: number; day: number; minute: number; n: number }
  | { kind: 'move'; pick: number; day: number; minute: number }
  | { kind: 'remerchant'; pick: number; mer: number }
  | { kind: 'delete'; mer: number; day: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), mer: fc.nat(2), day: fc.nat(5), minute: fc.nat(1439), n: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), day: fc.nat(5), minute: fc.nat(1439) }),
  fc.record({ kind: fc.constant('remerchant' as const), pick: fc.nat(), mer: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), mer: fc.nat(2), day: fc.nat(5) }),
);

/** Rows per merchant and UTC day: as counted from the ledger, and as kept (zero counts left out). */
async function both(ctx: TestCtx) {
  const truth = await ctx.db.query<{ mer_id: string; day: string; n: number }>(
    `SELECT mer_id, to_char((txn_time AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM txn GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const kept = await ctx.db.query<{ mer_id: string; day: string; n: number }>(
    `SELECT mer_id, to_char(day, 'YYYY-MM-DD') AS day, n::int AS n FROM txn_day_count WHERE n > 0 ORDER BY 1, 2`,
  );
  return { truth: truth.rows, kept: kept.rows };
}

describe.each(DB_KINDS)('transactions per merchant and day (%s)', (kind) => {
  let ctx: TestCtx;
  let seq = 0;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await ensureMonths(ctx.db, 'txn', new Date('2024-07-01T00:00:00Z'), new Date('2024-08-31T00:00:00Z'));
  });
  afterAll(() => ctx?.close());

  const insert = (mer: string, at: number, n: number) =>
    ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, currency, order_amount, order_currency, payment_schema, bus_line, txn_time, txn_date)
       SELECT 'GW-DC-' || $4::int || '-' || g, $1, 'DC-' || $4::int || '-' || g, 'PURC', '00', 100, 'CNY', 100, 'CNY', 'WX', 'WX',
              $2::timestamptz + g * interval '1 second', ($2::timestamptz)::date
         FROM generate_series(1, $3::int) g`,
      [mer, new Date(at), n, ++seq],
    );

  it('the counts equal the ledger after any mix of inserts, moves and deletes (one statement or many)', async () => {
    expect((await both(ctx)).kept).toEqual((await both(ctx)).truth); // the migration's back-fill, over the demo data
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'DC-%'`);
        for (const op of ops) {
          const ids = async () => (await ctx.db.query<{ id: string }>(`SELECT id FROM txn WHERE order_no LIKE 'DC-%' ORDER BY id`)).rows.map((r) => r.id);
          if (op.kind === 'insert') await insert(MERS[op.mer], T0 + op.day * DAY + op.minute * 60_000, op.n);
          else if (op.kind === 'delete')
            await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'DC-%' AND mer_id = $1 AND txn_time >= $2 AND txn_time < $3`, [
              MERS[op.mer],
              new Date(T0 + op.day * DAY),
              new Date(T0 + (op.day + 1) * DAY),
            ]);
          else {
            const all = await ids();
            if (!all.length) continue;
            const id = all[op.pick % all.length];
            if (op.kind === 'move') await ctx.db.query('UPDATE txn SET txn_time = $2 WHERE id = $1', [id, new Date(T0 + op.day * DAY + op.minute * 60_000)]);
            else await ctx.db.query('UPDATE txn SET mer_id = $2 WHERE id = $1', [id, MERS[op.mer]]);
          }
        }
        // An update that changes neither column leaves the counts alone; so does one of another column.
        await ctx.db.query(`UPDATE txn SET txn_time = txn_time, resp_msg = 'touched' WHERE order_no LIKE 'DC-%'`);
        const { truth, kept } = await both(ctx);
        expect(kept).toEqual(truth);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a detached month takes its days with it; what stays is never over-counted', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2023-02-01T00:00:00Z'), new Date('2023-03-31T00:00:00Z'));
    // Month partitions run from 00:00 Asia/Shanghai: 28 Feb 16:00 UTC is March, the rest of that UTC day February.
    await insert(DEMO.subA, Date.UTC(2023, 1, 27, 3), 4); // February, a whole UTC day in the month
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 10), 2); // February, on the edge day
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 20), 3); // March, on the same UTC day
    await insert(DEMO.subA, Date.UTC(2023, 2, 5, 3), 5); // March
    const day = async (d: string) =>
      Number((await ctx.db.query<{ n: string }>(`SELECT coalesce(sum(n), 0) AS n FROM txn_day_count WHERE mer_id = $1 AND day = $2`, [DEMO.subA, d])).rows[0].n);
    expect([await day('2023-02-27'), await day('2023-02-28'), await day('2023-03-05')]).toEqual([4, 5, 5]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'daycount-'));
    await archiveMonth(ctx.db, 'txn', '2023-02', new Date(), dir, { drop: true });
    // February's day is gone; the edge day is gone too (its 3 March rows are under-counted, never over); March keeps its own.
    expect([await day('2023-02-27'), await day('2023-02-28'), await day('2023-03-05')]).toEqual([0, 0, 5]);
    // Deleting the uncounted March rows of the edge day does not drive its count below zero, and fails nothing.
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 21), 1);
    await ctx.db.query(`DELETE FROM txn WHERE mer_id = $1 AND txn_time >= '2023-02-28T16:00:00Z' AND txn_time < '2023-03-01T00:00:00Z'`, [DEMO.subA]);
    expect(await day('2023-02-28')).toBe(0);
    // Everywhere: kept ≤ ledger.
    const { rows } = await ctx.db.query<{ over: number }>(
      `SELECT count(*)::int AS over FROM txn_day_count c
        WHERE c.n > (SELECT count(*) FROM txn t WHERE t.mer_id = c.mer_id AND t.txn_time >= c.day::timestamp AT TIME ZONE 'UTC'
                                                  AND t.txn_time < (c.day + 1)::timestamp AT TIME ZONE 'UTC')`,
    );
    expect(rows[0].over).toBe(0);
    // A plain detach (no archive) too.
    await ensureMonths(ctx.db, 'txn', new Date('2022-06-10T00:00:00Z'), new Date('2022-06-10T00:00:00Z'));
    await insert(DEMO.subB, Date.UTC(2022, 5, 10, 3), 2);
    expect(Number((await ctx.db.query<{ n: string }>(`SELECT coalesce(sum(n), 0) AS n FROM txn_day_count WHERE day = '2022-06-10'`)).rows[0].n)).toBe(2);
    await detachMonth(ctx.db, 'txn', '2022-06', new Date());
    expect((await ctx.db.query(`SELECT 1 FROM txn_day_count WHERE day = '2022-06-10' AND n > 0`)).rows).toEqual([]);
  });

  it.runIf(isConcurrent(kind))('parallel writers of one merchant and day lose no count', async () => {
    const at = Date.UTC(2024, 7, 20, 5);
    const before = Number((await ctx.db.query<{ n: string }>(`SELECT coalesce(sum(n), 0) AS n FROM txn_day_count WHERE mer_id = $1 AND day = '2024-08-20'`, [DEMO.subB])).rows[0].n);
    // Through ingestion (each in its own transaction) and bulk statements, all at once.
    const results = await Promise.allSettled([
      ...Array.from({ length: 8 }, (_, i) => addTxn(ctx, { merId: DEMO.subB, orderNo: `DC-PAR-${i}`, currency: 'JPY', amount: 5000, paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date(at + i * 1000) })),
      ...Array.from({ length: 4 }, () => insert(DEMO.subB, at + 60_000, 25)),
    ]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const after = Number((await ctx.db.query<{ n: string }>(`SELECT n FROM txn_day_count WHERE mer_id = $1 AND day = '2024-08-20'`, [DEMO.subB])).rows[0].n);
    expect(after - before).toBe(8 + 4 * 25);
  });

  it('TRUNCATE txn empties the counts', async () => {
    await ctx.db.query('TRUNCATE txn, txn_key CASCADE');
    expect((await ctx.db.query('SELECT 1 FROM txn_day_count')).rows).toEqual([]);
  });
});
