/**
 * Prepared statements with generic plans (issue 30, target 2; decision 043), on
 * PostgreSQL: every statement the lists, totals, reports and global search prepare is recorded
 * through the API, filter set by filter set, and for each one
 * - the generic plan, once the executor has started with the values, reads the same partitions
 *   (pruned at run time) as the custom plan made for those values. Which index each month is
 *   walked by depends on the statistics of a ledger of real size, not of this test's thousands of
 *   rows: `npm run bench -- plans` compares them on the benchmark's data;
 * - it answers the same rows prepared (twice: parse, then bind only) as unprepared.
 * PGlite has no pool of its own for them (it ignores `prepare`): its half is that the same calls
 * answer as before, which every list test already proves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, NO_POSTGRES, pgUrlOf, type TestCtx } from '../../test/helpers';
import { addDays } from '../modules/payments/time';
import { generateReportData } from '../modules/report/report.fixtures';
import { get } from '../modules/report/report.test-utils';
import { planOf as planUnder } from '../../test/plan-facts';
import { openPostgres, PREPARED, type Queryable, type QueryOptions } from './db';

// The test's months hold thousands of rows, not millions: without this the custom plan reads
// them whole. Both plans are asked which index they would walk on a ledger of real size.
const planOf = (q: Queryable, text: string, params: unknown[], mode: 'force_custom_plan' | 'force_generic_plan') => planUnder(q, text, params, mode, ['SET LOCAL enable_seqscan = off']);

const FROM = '2026-08-20';
const DAYS = 50;
const END = addDays(FROM, DAYS);
const T = (d: string, end = false) => `${d} ${end ? '23:59:59' : '00:00:00'}`;

interface Recorded {
  label: string;
  text: string;
  params: unknown[];
}

describe.skipIf(NO_POSTGRES)('prepared statements with generic plans (postgres)', () => {
  let ctx: TestCtx;
  let demo: string;
  const seen: Recorded[] = [];
  let label = '';

  beforeAll(async () => {
    ctx = await createTestApp({ kind: 'postgres' });
    // About 50 days over three months (three partitions), settled: lists, reports and search have rows.
    await generateReportData(ctx.db, ctx.config.platformTz, { from: FROM, days: DAYS, perDay: 30, seed: 5 });
    await ctx.db.query('ANALYZE');
    demo = (await ctx.login()).token;
    // Lists and reports read through `db.read`, the search through the primary: both recorded.
    for (const handle of [ctx.db.read, ctx.db] as { query: Queryable['query'] }[]) {
      const query = handle.query;
      handle.query = ((text: string, params?: unknown[], o?: QueryOptions) => {
        if (o?.prepare && label) seen.push({ label, text, params: params ?? [] });
        return query(text, params, o);
      }) as Queryable['query'];
    }
  }, 300_000);
  afterAll(() => ctx?.close());

  /** Calls `url` as the demo user and records the statements it prepares under `name`. */
  const call = async (name: string, url: string, params: Record<string, string | number>) => {
    label = name;
    try {
      const r = await get(ctx, demo, url, params);
      expect(r.body.code, `${name}: ${r.body.msg}`).toBe(0);
      return r.body.data;
    } finally {
      label = '';
    }
  };

  it('the lists, totals, reports and search prepare their statements, filter set by filter set', async () => {
    const range = { beginDate: T(addDays(END, -6)), endDate: T(END, true) };
    const wide = { beginDate: T(FROM), endDate: T(END, true) };
    const first = await call('txn: last 7 days, page 1', '/api/txn/list', { ...range, page: 0, size: 10 });
    const row = first.content[0] as { id: number; mrequest: { orderno: string } };
    expect(row).toBeDefined();
    await call('txn: one merchant, purchases, successful, 30 days', '/api/txn/list', {
      beginDate: T(addDays(END, -29)),
      endDate: T(END, true),
      merId: DEMO.subA,
      gwTranType: 'PURC',
      gwResponse: '00',
      page: 0,
      size: 30,
    });
    await call('txn: order number, whole range', '/api/txn/list', { ...wide, orderNum: row.mrequest.orderno, page: 0, size: 10 });
    await call('txn: two brands, whole range', '/api/txn/list', { ...wide, paymentBrand: 'visa,mastercard', page: 0, size: 50 });
    await call('txn: one merchant, whole range', '/api/txn/list', { ...wide, merId: DEMO.subA, page: 0, size: 10 });
    await call('txn: next page by keyset', '/api/txn/list', { ...range, page: 1, size: 10, after: String(first.content[9].id) });
    await call('txn: exact total', '/api/txn/list', { ...range, page: 0, size: 10, exactTotal: 'true' });
    await call('txn: totals', '/api/txn/totals', range);
    await call('settle list', '/api/txn/settleList', { beginDate: addDays(END, -20), endDate: END, busLine: 'UP', setCur: 'CNY', clientid: DEMO.subA, page: 0, size: 10 });
    for (const path of ['bill/list', 'transfer/list', 'txn/newList', 'txn/list']) await call(`report ${path}`, `/api/report/${path}`, { beginDate: addDays(FROM, 1), endDate: END, page: 0, size: 10 });
    await call('report reserve/list', '/api/report/reserve/list', { releaseBeginDate: FROM, releaseEndDate: addDays(END, 20), page: 0, size: 10 });
    await call('search by order number', '/api/search', { q: row.mrequest.orderno });

    const labels = new Set(seen.map((s) => s.label));
    for (const l of ['txn: last 7 days, page 1', 'txn: order number, whole range', 'txn: one merchant, whole range', 'txn: next page by keyset', 'search by order number'])
      expect(labels, l).toContain(l);
    // Page 1 with the day sums of its bounded count is one statement (prepared when the filter set
    // allows); the count's walk, when the sums prove nothing and the page is full, one of its own
    // (decision 054), prepared too.
    for (const l of ['txn: last 7 days, page 1', 'txn: one merchant, whole range']) {
      const texts = seen.filter((s) => s.label === l).map((s) => s.text);
      expect(texts[0], l).toMatch(/txn_day_count[\s\S]*ORDER BY/);
      expect(texts[0], l).not.toContain('LIMIT 1001');
      expect(
        texts.slice(1).map((t) => t.includes('LIMIT 1001') && !t.includes('ORDER BY')),
        l,
      ).toEqual(texts.length > 1 ? [true] : []);
    }
    // This test's scopes hold fewer than 1,000 rows: the walk ran (and its plan is checked below).
    expect(seen.filter((s) => s.label === 'txn: last 7 days, page 1')).toHaveLength(2);
    // Filtered by a column (a generic plan would pick the wide filter index and sort): page 1 with
    // its count runs unprepared. Totals, exact counts, settle list and reports: unprepared.
    expect(labels).not.toContain('txn: one merchant, purchases, successful, 30 days');
    for (const l of ['txn: totals', 'settle list', 'report bill/list', 'report txn/newList']) expect(labels, l).not.toContain(l);
    expect(seen.filter((s) => s.label === 'txn: exact total').every((s) => s.text.includes('ORDER BY'))).toBe(true);
  }, 120_000);

  it('each generic plan reads the partitions its custom plan reads: pruned when the executor starts', async () => {
    expect(seen.length).toBeGreaterThanOrEqual(8);
    const differ: string[] = [];
    let prunedAtStart = 0;
    for (const s of seen) {
      const [custom, generic] = await ctx.db.tx(async (q) => [await planOf(q, s.text, s.params, 'force_custom_plan'), await planOf(q, s.text, s.params, 'force_generic_plan')]);
      if (JSON.stringify(custom.relations) !== JSON.stringify(generic.relations))
        differ.push(`${s.label}\n  custom  ${JSON.stringify(custom)}\n  generic ${JSON.stringify(generic)}\n  ${s.text.replace(/\s+/g, ' ').slice(0, 300)}`);
      // Every partition either plan reads, it reads through an index (the ledger is never walked whole).
      expect(generic.indexes.length, s.label).toBeGreaterThan(0);
      if (generic.removed > 0) prunedAtStart++;
    }
    expect(differ, differ.join('\n')).toEqual([]);
    // The ranges above that leave months out are pruned by the executor (a generic plan knows no dates).
    expect(prunedAtStart).toBeGreaterThan(4);
  }, 120_000);

  it('a prepared statement answers what the unprepared one answers, parsed once and then bound', async () => {
    for (const s of seen) {
      const plain = await ctx.db.read.query(s.text, s.params);
      const once = await ctx.db.read.query(s.text, s.params, PREPARED);
      const again = await ctx.db.read.query(s.text, s.params, PREPARED);
      expect(once.rows, s.label).toEqual(plain.rows);
      expect(again.rows, s.label).toEqual(plain.rows);
    }
  }, 60_000);

  it('runs them as named statements, parsed once per connection, with generic plans only', async () => {
    // One connection for the prepared statements, so the view below sees the ones run before it.
    const db = await openPostgres(pgUrlOf(ctx.db), { max: 1 });
    try {
      const list = seen.find((s) => s.label === 'txn: last 7 days, page 1' && s.text.includes('ORDER BY'))!;
      for (let i = 0; i < 3; i++) await db.read.query(list.text, list.params, PREPARED);
      await db.read.query(list.text, list.params); // unprepared: not in the view
      const { rows: stmts } = await db.read.query<{ statement: string; generic_plans: number; custom_plans: number }>(
        'SELECT statement, generic_plans::int8, custom_plans::int8 FROM pg_prepared_statements WHERE statement LIKE $1',
        ['%ORDER BY t.txn_time DESC%'],
        PREPARED,
      );
      expect(stmts).toHaveLength(1);
      expect(stmts[0]).toMatchObject({ generic_plans: 3, custom_plans: 0 });
    } finally {
      await db.close();
    }
  });
});
