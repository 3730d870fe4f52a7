/**
 * txn_day_count, the transactions per merchant and UTC day that prove "more than 1,000" for a list
 * filtered only by scope and time (issue 30, decision 052), on both engines: after any mix of
 * inserts, moves in time or merchant, deletes and compactions, the sums never exceed the ledger and,
 * with the deltas, equal it (property); the job moves the deltas; TRUNCATE empties both; a detached
 * month takes its days with it (never over-counted); truly parallel writers and compactions lose no
 * count and add none twice (PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../test/helpers';
import { addTxn } from '../modules/txn/txn.fixtures';
import { archiveMonth, detachMonth, ensureMonths } from './partitions';
import { compactDayCounts, DAY_COUNTS_JOB, setUpDayCountJobs } from '../jobs/day-counts.job';
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
  | { kind: 'delete'; mer: number; day: number }
  | { kind: 'compact' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), mer: fc.nat(2), day: fc.nat(5), minute: fc.nat(1439), n: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), day: fc.nat(5), minute: fc.nat(1439) }),
  fc.record({ kind: fc.constant('remerchant' as const), pick: fc.nat(), mer: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), mer: fc.nat(2), day: fc.nat(5) }),
  fc.constant({ kind: 'compact' as const }),
);

type DayRow = { mer_id: string; day: string; n: number };

/** Rows per merchant and UTC day: as counted from the ledger, as summed (txn_day_count), and as summed with the deltas not yet moved. */
async function both(ctx: TestCtx) {
  const rows = async (sql: string) => (await ctx.db.query<DayRow>(sql)).rows;
  const truth = await rows(`SELECT mer_id, to_char((txn_time AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM txn GROUP BY 1, 2 ORDER BY 1, 2`);
  const sums = await rows(`SELECT mer_id, to_char(day, 'YYYY-MM-DD') AS day, n::int AS n FROM txn_day_count ORDER BY 1, 2`);
  const kept = await rows(
    `SELECT mer_id, to_char(day, 'YYYY-MM-DD') AS day, sum(n)::int AS n
       FROM (SELECT mer_id, day, n FROM txn_day_count UNION ALL SELECT mer_id, day, n FROM txn_day_delta) s
      GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
  );
  const of = (list: DayRow[], r: DayRow) => list.find((x) => x.mer_id === r.mer_id && x.day === r.day)?.n ?? 0;
  /** Days whose sum exceeds the ledger's count (must be none: the list reads the sums as a lower bound). */
  const over = sums.filter((r) => r.n > of(truth, r));
  return { truth, kept, over };
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
    const start = await both(ctx); // the migration's back-fill over the demo data, and the demo's later inserts as deltas
    expect(start.kept).toEqual(start.truth);
    expect(start.over).toEqual([]);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'DC-%'`);
        for (const op of ops) {
          if (op.kind === 'compact') {
            await compactDayCounts(ctx.db);
            continue;
          }
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
          expect((await both(ctx)).over).toEqual([]);
        }
        // An update that changes neither column leaves the counts alone; so does one of another column.
        await ctx.db.query(`UPDATE txn SET txn_time = txn_time, resp_msg = 'touched' WHERE order_no LIKE 'DC-%'`);
        const { truth, kept, over } = await both(ctx);
        expect(kept).toEqual(truth);
        expect(over).toEqual([]);
        // Moved, the deltas are gone and the sums alone equal the ledger.
        await compactDayCounts(ctx.db);
        expect((await ctx.db.query('SELECT 1 FROM txn_day_delta')).rows).toEqual([]);
        const after = await both(ctx);
        expect(after.kept).toEqual(truth);
      }),
      { numRuns: 25 },
    );
  }, 180_000);

  it('the job moves the deltas at start and then every minute', async () => {
    await insert(DEMO.subB, Date.UTC(2024, 7, 2, 5), 3);
    expect((await ctx.db.query('SELECT 1 FROM txn_day_delta')).rows.length).toBeGreaterThan(0);
    const handlers = await setUpDayCountJobs({ db: ctx.db, clock: ctx.clock } as never);
    const { rows: queued } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE kind = $1 AND status = 'queued'`, [DAY_COUNTS_JOB]);
    expect(queued[0].n).toBe(1);
    const out = await handlers[DAY_COUNTS_JOB]({ db: ctx.db, clock: ctx.clock, job: { id: 0, kind: DAY_COUNTS_JOB, payload: {}, attempts: 1 } } as never);
    expect(out).toMatchObject({ result: { moved: expect.any(Number) } });
    expect((out as { result: { moved: number } }).result.moved).toBeGreaterThan(0);
    expect((out as { nextRunAt: Date }).nextRunAt.getTime() - ctx.clock.now().getTime()).toBe(60_000);
    expect((await ctx.db.query('SELECT 1 FROM txn_day_delta')).rows).toEqual([]);
    const day = await ctx.db.query<{ n: string }>(`SELECT n FROM txn_day_count WHERE mer_id = $1 AND day = '2024-08-02'`, [DEMO.subB]);
    expect(Number(day.rows[0].n)).toBeGreaterThanOrEqual(3);
  });

  it('a detached month takes its days with it; what stays is never over-counted', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2023-02-01T00:00:00Z'), new Date('2023-03-31T00:00:00Z'));
    // Month partitions run from 00:00 Asia/Shanghai: 28 Feb 16:00 UTC is March, the rest of that UTC day February.
    await insert(DEMO.subA, Date.UTC(2023, 1, 27, 3), 4); // February, a whole UTC day in the month
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 10), 2); // February, on the edge day
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 20), 3); // March, on the same UTC day
    await insert(DEMO.subA, Date.UTC(2023, 2, 5, 3), 5); // March
    const day = async (d: string) => Number((await ctx.db.query<{ n: string }>(`SELECT coalesce(sum(n), 0) AS n FROM txn_day_count WHERE mer_id = $1 AND day = $2`, [DEMO.subA, d])).rows[0].n);
    await compactDayCounts(ctx.db);
    expect([await day('2023-02-27'), await day('2023-02-28'), await day('2023-03-05')]).toEqual([4, 5, 5]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'daycount-'));
    await archiveMonth(ctx.db, 'txn', '2023-02', new Date(), dir, { drop: true });
    // February's day is gone; the edge day is gone too (its 3 March rows are under-counted, never over); March keeps its own.
    expect([await day('2023-02-27'), await day('2023-02-28'), await day('2023-03-05')]).toEqual([0, 0, 5]);
    // The uncounted March rows of the edge day, deleted, take the day below zero: still a lower bound.
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 21), 1);
    await compactDayCounts(ctx.db);
    expect(await day('2023-02-28')).toBe(1);
    await ctx.db.query(`DELETE FROM txn WHERE mer_id = $1 AND txn_time >= '2023-02-28T16:00:00Z' AND txn_time < '2023-03-01T00:00:00Z'`, [DEMO.subA]);
    expect(await day('2023-02-28')).toBe(-3);
    // Everywhere: sums ≤ ledger.
    expect((await both(ctx)).over).toEqual([]);
    // A plain detach (no archive) too, with the day's insert still a delta.
    await ensureMonths(ctx.db, 'txn', new Date('2022-06-10T00:00:00Z'), new Date('2022-06-10T00:00:00Z'));
    await insert(DEMO.subB, Date.UTC(2022, 5, 10, 3), 2);
    await detachMonth(ctx.db, 'txn', '2022-06', new Date());
    await compactDayCounts(ctx.db);
    expect((await ctx.db.query(`SELECT 1 FROM txn_day_count WHERE day = '2022-06-10' AND n > 0`)).rows).toEqual([]);
    expect((await both(ctx)).over).toEqual([]);
  });

  it.runIf(isConcurrent(kind))('parallel writers and compactions of one merchant and day lose no count and add none twice', async () => {
    const at = Date.UTC(2024, 7, 20, 5);
    await compactDayCounts(ctx.db);
    const sum = async () => Number((await ctx.db.query<{ n: string }>(`SELECT coalesce(sum(n), 0) AS n FROM txn_day_count WHERE mer_id = $1 AND day = '2024-08-20'`, [DEMO.subB])).rows[0].n);
    const before = await sum();
    // Through ingestion (each in its own transaction) and bulk statements, with compactions, all at once.
    const results = await Promise.allSettled([
      ...Array.from({ length: 8 }, (_, i) =>
        addTxn(ctx, { merId: DEMO.subB, orderNo: `DC-PAR-${i}`, currency: 'JPY', amount: 5000, paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date(at + i * 1000) }),
      ),
      ...Array.from({ length: 4 }, () => insert(DEMO.subB, at + 60_000, 25)),
      ...Array.from({ length: 4 }, () => compactDayCounts(ctx.db)),
    ]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(await sum()).toBeLessThanOrEqual(before + 8 + 4 * 25);
    await compactDayCounts(ctx.db);
    expect((await sum()) - before).toBe(8 + 4 * 25);
  });

  it('TRUNCATE txn empties the sums and the deltas', async () => {
    await insert(DEMO.subA, Date.UTC(2024, 7, 3, 5), 2);
    await ctx.db.query('TRUNCATE txn, txn_key CASCADE');
    expect((await ctx.db.query('SELECT 1 FROM txn_day_count UNION ALL SELECT 1 FROM txn_day_delta')).rows).toEqual([]);
  });
});
