/**
 * A deep page's jump (txn.jump.ts, decision 083) answers exactly the rows the plain offset answers,
 * on both engines: after any mix of inserts, moves in time or merchant, deletes and compactions
 * (the counts then partly deltas), for any scope, any range (whole days, partial ones at either end,
 * open ends), page size and offset — also past the last match; and after a month is detached, whose
 * edge days no longer count exactly (txn_day_inexact): the page stays right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { detachMonth, ensureMonths } from '../../db/partitions';
import { compactDayCounts } from '../../jobs/day-counts.job';
import { listTxn, txnWhere } from './txn.repo';
import { formatInZone } from './time';

const MERS = [DEMO.subA, DEMO.subB, DEMO.other];
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 6, 29); // 29 July 2024: the days cross into August (two month partitions)

type Op =
  | { kind: 'insert'; mer: number; day: number; minute: number; n: number }
  | { kind: 'move'; pick: number; day: number; minute: number }
  | { kind: 'remerchant'; pick: number; mer: number }
  | { kind: 'delete'; mer: number; day: number; hour: number }
  | { kind: 'compact' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), mer: fc.nat(2), day: fc.nat(6), minute: fc.nat(1439), n: fc.integer({ min: 1, max: 40 }) }) },
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), day: fc.nat(6), minute: fc.nat(1439) }),
  fc.record({ kind: fc.constant('remerchant' as const), pick: fc.nat(), mer: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), mer: fc.nat(2), day: fc.nat(6), hour: fc.nat(23) }),
  fc.constant({ kind: 'compact' as const }),
);

/** A list query: the scope (one merchant or several), the range's ends (minutes from T0 − 1 day, or open) and the page. */
const queryArb = fc.record({
  scope: fc.constantFrom([DEMO.subA], [DEMO.subB], [DEMO.subA, DEMO.subB], MERS),
  begin: fc.option(fc.nat(9 * 1440), { nil: undefined }),
  span: fc.option(fc.nat(9 * 1440), { nil: undefined }),
  size: fc.constantFrom(1, 3, 10, 25),
  page: fc.nat(14),
});

type Query = { scope: string[]; begin?: number; span?: number; size: number; page: number };

describe.each(DB_KINDS)('a deep page by its days (%s)', (kind) => {
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
       SELECT 'GW-JU-' || $4::int || '-' || g, $1, 'JU-' || $4::int || '-' || g, 'PURC', '00', 100, 'CNY', 100, 'CNY', 'WX', 'WX',
              $2::timestamptz + (g % 7) * interval '1 second', ($2::timestamptz)::date
         FROM generate_series(1, $3::int) g`,
      [mer, new Date(at), n, ++seq],
    );

  const zone = () => ctx.config.platformTz;
  const wall = (ms: number) => formatInZone(ms, zone());

  /**
   * The page by the jump from any offset and by the plain offset, in one snapshot: the app's jobs
   * (the demo's, the settlement run after midnight in UTC+8) may write the ledger between two
   * statements.
   */
  const bothWays = (w: ReturnType<typeof txnWhere>, page: number, size: number) =>
    ctx.db.tx(async (t) => {
      await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const jumped = await listTxn<{ id: number | string }>(t, w, page, size, null, 't.id', { jumpFrom: 1 });
      const plain = await listTxn<{ id: number | string }>(t, w, page, size, null, 't.id', { jumpFrom: Number.POSITIVE_INFINITY });
      return { jumped, plain };
    });

  /** The page both ways: by the jump from any offset, and by the plain offset. */
  const pageBoth = async (q: Query) => {
    const start = T0 - DAY;
    const beginDate = q.begin === undefined ? undefined : wall(start + q.begin * 60_000);
    const endDate = q.span === undefined ? undefined : wall(start + (q.begin ?? 0) * 60_000 + q.span * 60_000 + 59_000);
    const w = txnWhere({ beginDate, endDate } as never, q.scope, zone());
    const ids = (rows: { id: number | string }[]) => rows.map((r) => Number(r.id));
    const { jumped, plain } = await bothWays(w, q.page, q.size);
    return { jumped: ids(jumped), plain: ids(plain) };
  };

  async function apply(op: Op) {
    if (op.kind === 'compact') return compactDayCounts(ctx.db);
    if (op.kind === 'insert') return insert(MERS[op.mer], T0 + op.day * DAY + op.minute * 60_000, op.n);
    if (op.kind === 'delete') {
      const from = T0 + op.day * DAY + op.hour * 3_600_000;
      return ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'JU-%' AND mer_id = $1 AND txn_time >= $2 AND txn_time < $3`, [MERS[op.mer], new Date(from), new Date(from + 3_600_000)]);
    }
    const { rows } = await ctx.db.query<{ id: string }>(`SELECT id FROM txn WHERE order_no LIKE 'JU-%' ORDER BY id`);
    if (!rows.length) return;
    const id = rows[op.pick % rows.length].id;
    if (op.kind === 'move') return ctx.db.query('UPDATE txn SET txn_time = $2 WHERE id = $1', [id, new Date(T0 + op.day * DAY + op.minute * 60_000)]);
    return ctx.db.query('UPDATE txn SET mer_id = $2 WHERE id = $1', [id, MERS[op.mer]]);
  }

  it('answers the rows the offset answers, after any writes, for any scope, range and page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), fc.array(queryArb, { minLength: 1, maxLength: 6 }), async (ops, queries) => {
        await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'JU-%'`);
        for (const op of ops) await apply(op);
        for (const q of queries) {
          const { jumped, plain } = await pageBoth(q);
          expect(jumped).toEqual(plain);
        }
      }),
      { numRuns: 30 },
    );
    // (That the jump serves real pages, not only empty ones, is the next test's: a fixed ledger, a full page deep in it.)
  }, 240_000);

  it("skips whole days: a page deep in one merchant's days equals the offset, with deltas and without", async () => {
    await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'JU-%'`);
    for (let d = 0; d < 7; d++) await insert(DEMO.subA, T0 + d * DAY + 3_600_000, 30 + d);
    const q = { scope: [DEMO.subA], begin: 0, span: 9 * 1440, size: 10, page: 12 };
    const before = await pageBoth(q);
    expect(before.jumped).toEqual(before.plain);
    await compactDayCounts(ctx.db);
    const after = await pageBoth(q);
    expect(after.plain).toHaveLength(10);
    expect(after.jumped).toEqual(after.plain);
    // Past the last match: empty both ways.
    const past = await pageBoth({ ...q, page: 40 });
    expect(past).toMatchObject({ jumped: [], plain: [] });
  });

  it('a detached month marks its edge days, and pages across them stay right', async () => {
    await ensureMonths(ctx.db, 'txn', new Date('2023-02-01T00:00:00Z'), new Date('2023-03-31T00:00:00Z'));
    await ctx.db.query(`DELETE FROM txn WHERE order_no LIKE 'JU-%'`);
    // Month partitions run from 00:00 in the platform zone: the UTC day 28 February is shared by both months.
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 10), 12); // February's part of the edge day
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 20), 9); // March's part of it
    for (let d = 1; d <= 4; d++) await insert(DEMO.subA, Date.UTC(2023, 2, d, 5), 8);
    await compactDayCounts(ctx.db);
    await detachMonth(ctx.db, 'txn', '2023-02', new Date());
    const marked = await ctx.db.query<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM txn_day_inexact ORDER BY day`);
    expect(marked.rows.map((r) => r.day)).toEqual(expect.arrayContaining(['2023-01-31', '2023-02-28']));
    // A later row on the edge day gives it a count again — one, where the ledger holds ten.
    await insert(DEMO.subA, Date.UTC(2023, 1, 28, 22), 1);
    await compactDayCounts(ctx.db);
    const w = txnWhere({ beginDate: '2023-02-20 00:00:00', endDate: '2023-03-10 23:59:59' } as never, [DEMO.subA], zone());
    for (const page of [3, 4, 5, 6]) {
      const { jumped, plain } = await bothWays(w, page, 10);
      expect(jumped).toEqual(plain);
    }
  });
});
