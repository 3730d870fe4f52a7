import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, revoke } from './txn.fixtures';

/** GET /api/txn/takings: the phone home screen's figures (issue 29). The day is 2026-11-10 in the platform zone (UTC+8). */
const DAY = { beginDate: '2026-11-10 00:00:00', endDate: '2026-11-10 23:59:59' };

describe.each(DB_KINDS)('takings per store and brand (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const at = (iso: string) => new Date(iso);
    const sale = await addTxn(ctx, { amount: 10000, storeId: DEMO.stores.nanjingRoad, txnTime: at('2026-11-10T04:00:00Z') });
    await addTxn(ctx, { amount: 5000, storeId: DEMO.stores.nanjingRoad, paymentSchema: 'AP', paymentBrand: 'alipay_cn', txnTime: at('2026-11-10T04:10:00Z') });
    await addTxn(ctx, { tranType: 'REFD', amount: 2000, originTxnId: sale.id, storeId: DEMO.stores.nanjingRoad, txnTime: at('2026-11-10T05:00:00Z'), cardNumber: null });
    await addTxn(ctx, { amount: 3000, storeId: DEMO.stores.pudongAirport, paymentSchema: 'AP', paymentBrand: 'alipay_cn', txnTime: at('2026-11-10T06:00:00Z') });
    await addTxn(ctx, { amount: 700, txnTime: at('2026-11-10T07:00:00Z') });
    // 01:00 on the 10th in the platform zone (17:00 UTC on the 9th): inside the day.
    await addTxn(ctx, { amount: 100, txnTime: at('2026-11-09T17:00:00Z') });
    // Not takings: failed, processing, and the next day (10:00 on the 11th).
    await addTxn(ctx, { amount: 99900, gwResponse: '51', respMsg: 'Insufficient funds', storeId: DEMO.stores.nanjingRoad, txnTime: at('2026-11-10T04:20:00Z') });
    await addTxn(ctx, { amount: 88800, gwResponse: '04', storeId: DEMO.stores.nanjingRoad, txnTime: at('2026-11-10T04:30:00Z') });
    await addTxn(ctx, { amount: 77700, storeId: DEMO.stores.nanjingRoad, txnTime: at('2026-11-11T02:00:00Z') });
    await addTxn(ctx, { merId: DEMO.subB, amount: 5000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: at('2026-11-10T03:00:00Z') });
    await addTxn(ctx, { merId: DEMO.other, amount: 4200, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', storeId: DEMO.stores.orchard, txnTime: at('2026-11-10T03:00:00Z') });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx?.close());

  const takings = (token: string, query: Record<string, string> = DAY, lang = 'en') =>
    ctx.call({ method: 'GET', url: '/api/txn/takings', headers: { ...auth(token), 'accept-language': lang }, query });

  it("sums successful purchases less refunds per currency, store and brand, in the platform zone's day", async () => {
    const r = await takings(demo);
    expect(r.body.code).toBe(0);
    expect(r.headers['cache-control']).toBe('private, no-store');
    expect(r.body.data.totals).toEqual([
      { currency: 'CNY', count: 5, amount: '168.00' },
      { currency: 'JPY', count: 1, amount: '5000' },
    ]);
    expect(r.body.data.stores).toEqual([
      { storeId: DEMO.stores.nanjingRoad, storeName: '南京路门店 Nanjing Road', currency: 'CNY', count: 2, amount: '130.00' },
      { storeId: DEMO.stores.pudongAirport, storeName: expect.any(String), currency: 'CNY', count: 1, amount: '30.00' },
      { storeId: null, storeName: null, currency: 'CNY', count: 2, amount: '8.00' },
      { storeId: null, storeName: null, currency: 'JPY', count: 1, amount: '5000' },
    ]);
    expect(r.body.data.brands).toEqual([
      { brand: 'wechat_pay', currency: 'CNY', count: 3, amount: '88.00' },
      { brand: 'alipay_cn', currency: 'CNY', count: 2, amount: '80.00' },
      { brand: 'visa', currency: 'JPY', count: 1, amount: '5000' },
    ]);
    // The store and brand figures add up to the totals.
    const cny = (rows: { currency: string; amount: string }[]) => rows.filter((x) => x.currency === 'CNY').reduce((s, x) => s + Math.round(Number(x.amount) * 100), 0);
    expect(cny(r.body.data.stores)).toBe(16800);
    expect(cny(r.body.data.brands)).toBe(16800);
    // An empty period: no rows.
    const none = await takings(demo, { beginDate: '2026-10-01 00:00:00', endDate: '2026-10-01 23:59:59' });
    expect(none.body.data).toEqual({ totals: [], stores: [], brands: [] });
  });

  it("gives a sub-merchant's user only its merchant, and narrows by merId", async () => {
    const s = await takings(sub);
    expect(s.body.data.totals).toEqual([{ currency: 'CNY', count: 5, amount: '168.00' }]);
    const online = await takings(demo, { ...DAY, merId: DEMO.subB });
    expect(online.body.data.totals).toEqual([{ currency: 'JPY', count: 1, amount: '5000' }]);
    // A sub-merchant's user naming its sister merchant: nothing, not the sister's figures.
    const sister = await takings(sub, { ...DAY, merId: DEMO.subB });
    expect(sister.body.data).toEqual({ totals: [], stores: [], brands: [] });
  });

  it("never gives another merchant's takings", async () => {
    const foreign = await takings(demo, { ...DAY, merId: DEMO.other });
    expect(foreign.body.code).toBe(0);
    expect(foreign.body.data).toEqual({ totals: [], stores: [], brands: [] });
    const o = await takings(other);
    expect(o.body.data.totals).toEqual([{ currency: 'SGD', count: 1, amount: '42.00' }]);
    expect(o.body.data.stores.map((x: { storeId: string }) => x.storeId)).toEqual([DEMO.stores.orchard]);
  });

  it("refuses bad input with a message in the caller's language, and a missing sign-in", async () => {
    const bad: Record<string, string>[] = [
      {},
      { beginDate: DAY.beginDate },
      { beginDate: '2026-02-31 00:00:00', endDate: '2026-03-01 00:00:00' },
      { beginDate: '2026/11/10 00:00:00', endDate: DAY.endDate },
      { ...DAY, merId: '12' },
      { beginDate: 'x\u0000', endDate: DAY.endDate },
      { beginDate: DAY.endDate, endDate: DAY.beginDate },
      { beginDate: '2026-01-01 00:00:00', endDate: '2026-11-01 00:00:00' },
    ];
    for (const q of bad) {
      const r = await takings(demo, q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.body.code, JSON.stringify(q)).toBe(400);
      expect(r.body.msg, JSON.stringify(q)).toBeTruthy();
    }
    const en = await takings(demo, { beginDate: '2026-02-31 00:00:00', endDate: '2026-03-01 00:00:00' });
    const zh = await takings(demo, { beginDate: '2026-02-31 00:00:00', endDate: '2026-03-01 00:00:00' }, 'zh');
    expect(zh.body.msg).not.toBe(en.body.msg);
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    const anon = await ctx.call({ method: 'GET', url: '/api/txn/takings', query: DAY });
    expect(anon.body.code).toBe(-1);
  });

  it('refuses a user without the transaction list permission', async () => {
    expect((await takings(sub)).status).toBe(200);
    await revoke(ctx.db, DEMO.users.sub, Perm.txnList);
    const r = await takings(sub);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(403);
  });
});
