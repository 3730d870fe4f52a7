import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TXN_COUNT_BUDGET, TXN_MAX_OFFSET } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn, auth } from './txn.fixtures';
import { ensureMonths } from '../../db/partitions';
import { compactDayCounts } from '../../jobs/day-counts.job';

/** More rows than the count budget and the offset bound for sub-merchant A, a handful for B (issue 16). */
const MANY = Math.max(TXN_COUNT_BUDGET, TXN_MAX_OFFSET) + 25;

describe.each(DB_KINDS)('transaction list past the count budget (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let seedId: number;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await ensureMonths(ctx.db, 'txn', new Date('2026-09-01T00:00:00Z'), new Date('2026-12-31T00:00:00Z'));
    const seed = await addTxn(ctx, { orderNo: 'BULK-0', txnTime: new Date('2026-10-01T00:00:00Z') });
    seedId = seed.id;
    // Copies of one ingested row, one second apart (bulk SQL: ingestion row by row would take minutes).
    await ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, resp_msg, amount, currency, order_amount, order_currency,
                        payment_schema, bus_line, payment_brand, txn_time, txn_date, source)
       SELECT t.gw_trans_id || '-' || g, t.mer_id, 'BULK-' || g, t.tran_type, t.gw_response, t.resp_msg, t.amount, t.currency, t.order_amount,
              t.order_currency, t.payment_schema, t.bus_line, t.payment_brand, t.txn_time + g * interval '1 second', t.txn_date, 'generator'
         FROM txn t, generate_series(1, $2::int) g WHERE t.id = $1`,
      [seed.id, MANY - 1],
    );
    for (let i = 0; i < 3; i++)
      await addTxn(ctx, { merId: DEMO.subB, orderNo: `FEW-${i}`, amount: 5000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date('2026-10-02T00:00:00Z') });
    await compactDayCounts(ctx.db); // what the job does every minute: the days' sums include these rows
    demo = (await ctx.login()).token;
  }, 400_000);
  afterAll(() => ctx?.close());

  const list = (query: Record<string, string | number>, lang = 'en') =>
    ctx.call({
      method: 'GET',
      url: '/api/txn/list',
      headers: { ...auth(demo), 'accept-language': lang },
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });

  it('counts exactly while the matches stay within the budget', async () => {
    const r = await list({ merId: DEMO.subB });
    expect(r.body.data).toMatchObject({ totalElements: 3, totalExact: true });
    expect(r.body.data.content).toHaveLength(3);
  });

  it('answers "more than the budget" past it, and the exact count when asked', async () => {
    const r = await list({ merId: DEMO.subA, size: 10 });
    expect(r.body.code).toBe(0);
    expect(r.body.data.totalExact).toBe(false);
    expect(r.body.data.totalElements).toBe(TXN_COUNT_BUDGET);
    expect(r.body.data.content.map((x: { mrequest: { orderno: string } }) => x.mrequest.orderno)[0]).toBe(`BULK-${MANY - 1}`);
    const exact = await list({ merId: DEMO.subA, size: 10, exactTotal: 'true' });
    expect(exact.body.data).toMatchObject({ totalElements: MANY, totalExact: true });
    expect(exact.body.data.content).toEqual(r.body.data.content);
    const all = await list({ size: 10 });
    expect(all.body.data).toMatchObject({ totalElements: TXN_COUNT_BUDGET, totalExact: false });
  });

  it("serves the deepest page within the offset bound, and refuses deeper ones in the caller's language", async () => {
    const size = 100;
    const last = TXN_MAX_OFFSET / size - 1;
    const deep = await list({ merId: DEMO.subA, size, page: last });
    expect(deep.body.code).toBe(0);
    expect(deep.body.data.content).toHaveLength(size);
    // Newest first: row k (0-based) of the whole list is BULK-(MANY-1-k).
    expect(deep.body.data.content[0].mrequest.orderno).toBe(`BULK-${MANY - 1 - last * size}`);
    const tooDeep = await list({ merId: DEMO.subA, size, page: last + 1 });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.msg).toContain(TXN_MAX_OFFSET.toLocaleString('en-US'));
    const ja = await list({ merId: DEMO.subA, size, page: last + 1 }, 'ja');
    expect(ja.body.msg).toContain('ページ送り');
  });

  it('a page past the budget answers "more than the budget" without counting; past the end it counts', async () => {
    // Page 200 of 10 (offset 2,000 > budget) has rows: more than the budget match, whatever the count would say.
    const spy = vi.spyOn(ctx.db.read, 'query');
    // Count statements: the page's own (a deep one counts the partial newest day to skip whole days, txn.jump.ts) is not one.
    const counts = () => spy.mock.calls.filter(([sql]) => String(sql).includes('count(*)') && !/LIMIT \d+ OFFSET/.test(String(sql))).length;
    const deep = await list({ merId: DEMO.subA, size: 10, page: 200 });
    expect(deep.body.data).toMatchObject({ totalElements: TXN_COUNT_BUDGET, totalExact: false });
    expect(counts()).toBe(0);
    expect(deep.body.data.content[0].mrequest.orderno).toBe(`BULK-${MANY - 1 - 2000}`);
    // The first page at the budget itself (offset 1,000: its first row is match 1,001) needs no count either.
    const edge = await list({ merId: DEMO.subA, size: 10, page: TXN_COUNT_BUDGET / 10 });
    expect(edge.body.data).toMatchObject({ totalElements: TXN_COUNT_BUDGET, totalExact: false });
    expect(counts()).toBe(0);
    // Past the end of a small set (B has 3 rows): the page is empty and the total is the exact count.
    const empty = await list({ merId: DEMO.subB, size: 100, page: TXN_COUNT_BUDGET / 100 });
    expect(empty.body.data).toMatchObject({ content: [], totalElements: 3, totalExact: true });
    expect(counts()).toBe(1);
    spy.mockRestore();
    // Asked for the exact total, a deep page counts exactly.
    const exact = await list({ merId: DEMO.subA, size: 10, page: 200, exactTotal: 'true' });
    expect(exact.body.data).toMatchObject({ totalElements: MANY, totalExact: true });
    expect(exact.body.data.content).toEqual(deep.body.data.content);
  });

  it('a list filtered only by merchant and time is proved "more than the budget" by the days its range covers whole', async () => {
    // B has 3 rows on 2 Oct 2026 (UTC). Its day count, set too high on purpose, shows where the
    // count comes from: read → "more than the budget"; not read → the 3 rows counted.
    const set = (n: number) => ctx.db.query(`UPDATE txn_day_count SET n = $2 WHERE mer_id = $1 AND day = '2026-10-02'`, [DEMO.subB, n]);
    try {
      await set(5000);
      const more = { totalElements: TXN_COUNT_BUDGET, totalExact: false };
      const three = { totalElements: 3, totalExact: true };
      // Platform zone Asia/Shanghai: 2 Oct 00:00 UTC is 08:00 there.
      expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(more); // no range: every day
      expect((await list({ merId: DEMO.subB, beginDate: '2026-10-02 08:00:00', endDate: '2026-10-03 08:00:00' })).body.data).toMatchObject(more); // the UTC day exactly
      expect((await list({ beginDate: '2026-09-01 00:00:00', endDate: '2026-10-31 23:59:59' })).body.data).toMatchObject(more); // the whole scope
      // Days covered in part are not read: a second short at either end, the platform's calendar day.
      // (B's rows are at 00:00:00 UTC: a range from a second later holds none.)
      expect((await list({ merId: DEMO.subB, beginDate: '2026-10-02 08:00:01', endDate: '2026-10-03 08:00:00' })).body.data).toMatchObject({ totalElements: 0, totalExact: true });
      expect((await list({ merId: DEMO.subB, beginDate: '2026-10-02 08:00:00', endDate: '2026-10-03 07:59:59' })).body.data).toMatchObject(three);
      expect((await list({ merId: DEMO.subB, beginDate: '2026-10-02 00:00:00', endDate: '2026-10-02 23:59:59' })).body.data).toMatchObject(three);
      // Any other filter, or a key, counts the matches.
      expect((await list({ merId: DEMO.subB, gwTranType: 'PURC' })).body.data).toMatchObject(three);
      expect((await list({ merId: DEMO.subB, paymentBrand: 'visa' })).body.data).toMatchObject(three);
      expect((await list({ merId: DEMO.subB, orderNum: 'FEW-1' })).body.data).toMatchObject({ totalElements: 1, totalExact: true });
      // Only the merchants listed are summed: another merchant's busy day proves nothing for B.
      await ctx.db.query(`INSERT INTO txn_day_count (mer_id, day, n) VALUES ($1, '2026-10-05', 9000) ON CONFLICT (mer_id, day) DO UPDATE SET n = 9000`, [DEMO.other]);
      await set(3);
      expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(three);
      // The days prove "more" only above the budget: a sum of exactly the budget is counted.
      await set(TXN_COUNT_BUDGET);
      expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(three);
      await set(TXN_COUNT_BUDGET + 1);
      expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(more);
      // The first days read prove nothing alone, all of them together do (20 days of 60: the
      // first 16 sum to 960); 20 days of 49 (980 with B's 3) prove nothing: counted.
      await set(3);
      const busyDays = (n: number) =>
        ctx.db.query(
          `INSERT INTO txn_day_count (mer_id, day, n) SELECT $1, d::date, $2 FROM generate_series('2026-08-01'::date, '2026-08-20', '1 day') d
           ON CONFLICT (mer_id, day) DO UPDATE SET n = EXCLUDED.n`,
          [DEMO.subB, n],
        );
      try {
        await busyDays(60);
        expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(more);
        await busyDays(49);
        expect((await list({ merId: DEMO.subB })).body.data).toMatchObject(three);
      } finally {
        await ctx.db.query(`DELETE FROM txn_day_count WHERE mer_id = $1 AND day BETWEEN '2026-08-01' AND '2026-08-20'`, [DEMO.subB]);
      }
      // Asked for the exact total: counted, whatever the days say.
      await set(5000);
      expect((await list({ merId: DEMO.subB, exactTotal: 'true' })).body.data).toMatchObject(three);
    } finally {
      await set(3);
      await ctx.db.query(`DELETE FROM txn_day_count WHERE mer_id = $1 AND day = '2026-10-05'`, [DEMO.other]);
    }
  });

  it('when the day sums prove nothing and page 1 is full, the matches are walked (a statement of its own)', async () => {
    // A's days set far too low: they prove nothing, so only the walk can tell "more than the budget".
    const { rows: saved } = await ctx.db.query<{ day: string; n: number }>(`SELECT day::text AS day, n FROM txn_day_count WHERE mer_id = $1`, [DEMO.subA]);
    try {
      await ctx.db.query(`UPDATE txn_day_count SET n = 1 WHERE mer_id = $1`, [DEMO.subA]);
      const r = await list({ merId: DEMO.subA, size: 5 });
      expect(r.body.data).toMatchObject({ totalElements: TXN_COUNT_BUDGET, totalExact: false });
      expect(r.body.data.content).toHaveLength(5);
      // A page shorter than its size is every match: B's 3 rows with its day set to 1.
      await ctx.db.query(`UPDATE txn_day_count SET n = 1 WHERE mer_id = $1`, [DEMO.subB]);
      expect((await list({ merId: DEMO.subB, size: 5 })).body.data).toMatchObject({ totalElements: 3, totalExact: true });
    } finally {
      for (const d of saved) await ctx.db.query(`UPDATE txn_day_count SET n = $3 WHERE mer_id = $1 AND day = $2::date`, [DEMO.subA, d.day, d.n]);
      await ctx.db.query(`UPDATE txn_day_count SET n = 3 WHERE mer_id = $1`, [DEMO.subB]);
    }
  });

  const orderNos = (r: { body: { data: { content: { mrequest: { orderno: string } }[] } } }) => r.body.data.content.map((x) => x.mrequest.orderno);
  const lastId = (r: { body: { data: { content: { id: number }[] } } }) => String(r.body.data.content.at(-1)!.id);

  it('Next (after = the last row shown) reads by keyset the very page the offset gives, however deep', async () => {
    const size = 100;
    for (const page of [1, 2, 57, TXN_MAX_OFFSET / size - 1]) {
      const before = await list({ merId: DEMO.subA, size, page: page - 1 });
      const byOffset = await list({ merId: DEMO.subA, size, page });
      const byKey = await list({ merId: DEMO.subA, size, page, after: lastId(before) });
      expect(byKey.body.code).toBe(0);
      expect(orderNos(byKey)).toHaveLength(size);
      expect(orderNos(byKey)).toEqual(orderNos(byOffset));
      expect(byKey.body.data.totalElements).toBe(byOffset.body.data.totalElements);
    }
  });

  it('keyset: rows with the same time are told apart by id, none repeated or skipped', async () => {
    // 25 rows of the group merchant at one and the same time: pages of 10 split them.
    await ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, resp_msg, amount, currency, order_amount, order_currency,
                        payment_schema, bus_line, payment_brand, txn_time, txn_date, source)
       SELECT t.gw_trans_id || '-TIE-' || g, $2, 'TIE-' || g, t.tran_type, t.gw_response, t.resp_msg, t.amount, t.currency, t.order_amount,
              t.order_currency, t.payment_schema, t.bus_line, t.payment_brand, '2026-10-03T00:00:00Z', '2026-10-03', 'generator'
         FROM txn t, generate_series(1, 25) g WHERE t.id = $1`,
      [seedId, DEMO.group],
    );
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 3; page++) {
      const r = await list({ merId: DEMO.group, size: 10, page, ...(after ? { after } : {}) });
      expect(orderNos(r)).toEqual(orderNos(await list({ merId: DEMO.group, size: 10, page })));
      seen.push(...orderNos(r));
      after = lastId(r);
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(orderNos(await list({ merId: DEMO.group, size: 10, page: 3, after: after! }))).toEqual([]);
  });

  it("a cursor naming another merchant's row, or no row, is not followed: the offset serves", async () => {
    const foreign = await addTxn(ctx, { merId: DEMO.other, orderNo: 'FOREIGN-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date('2026-10-01T12:00:00Z') });
    const byOffset = await list({ merId: DEMO.subA, size: 10, page: 3 });
    for (const after of [String(foreign.id), '999999999']) {
      const r = await list({ merId: DEMO.subA, size: 10, page: 3, after });
      expect(r.body.code).toBe(0);
      expect(orderNos(r)).toEqual(orderNos(byOffset));
    }
  });

  it('refuses a bad exactTotal or cursor', async () => {
    expect((await list({ exactTotal: 'yes' })).status).toBe(400);
    for (const after of ['abc', '0', '-5', '1.5', '12345678901234567']) expect((await list({ page: 1, after })).status).toBe(400);
  });
});
