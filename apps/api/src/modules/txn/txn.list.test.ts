import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, revoke, settle } from './txn.fixtures';

describe.each(DB_KINDS)('transaction list and detail (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  let purchase: { id: number; gwTransId: string };
  let refundRow: { id: number; gwTransId: string };
  let otherTxn: { id: number; gwTransId: string };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    purchase = await addTxn(ctx, {
      orderNo: 'ORD-LIST-1',
      amount: 12345,
      currency: 'CNY',
      merReserve: 'vip',
      channelOrderNo: 'CH-1',
      storeName: 'ignored: the store table names it',
      storeId: DEMO.stores.nanjingRoad,
      backUrl: 'https://b.example/cb',
      frontUrl: 'https://f.example/r',
    });
    refundRow = await addTxn(ctx, { orderNo: 'ORD-LIST-1-R1', tranType: 'REFD', amount: 345, originTxnId: purchase.id, txnTime: new Date('2026-11-10T05:00:00Z'), cardNumber: null });
    await addTxn(ctx, { merId: DEMO.subB, orderNo: 'ORD-JPY-1', amount: 5000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: new Date('2026-11-09T01:00:00Z') });
    await addTxn(ctx, { orderNo: 'ORD-PEND-1', gwResponse: '04', txnTime: new Date('2026-11-08T01:00:00Z') });
    await addTxn(ctx, { orderNo: 'ORD-FAIL-1', gwResponse: '51', respMsg: 'Insufficient funds', txnTime: new Date('2026-11-07T01:00:00Z') });
    otherTxn = await addTxn(ctx, { merId: DEMO.other, orderNo: 'ORD-OTHER-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    await settle(ctx.db, purchase.id, { date: '2026-11-11', currency: 'CNY', amount: 12345, fee: 309, flag: 'S' });
    await ctx.db.query(`INSERT INTO logistics (mer_id, order_no, txn_id, shipment_no, company, ship_date, status) VALUES ($1,'ORD-LIST-1',$2,'SF100','SF Express','2026-11-12','SHIPPED')`, [
      DEMO.subA,
      purchase.id,
    ]);
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx?.close());

  const list = (token: string, query: Record<string, string | number> = {}) =>
    ctx.call({ method: 'GET', url: '/api/txn/list', headers: auth(token), query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });

  it("lists the caller's transactions newest first, in the spec's row shape", async () => {
    const r = await list(demo);
    expect(r.body.code).toBe(0);
    expect(r.body.data.totalElements).toBe(5);
    const rows = r.body.data.content;
    expect(rows.map((x: any) => x.mrequest.orderno)).toEqual(['ORD-LIST-1-R1', 'ORD-LIST-1', 'ORD-JPY-1', 'ORD-PEND-1', 'ORD-FAIL-1']);
    const p = rows[1];
    expect(p).toMatchObject({
      id: purchase.id,
      mrequest: { orderno: 'ORD-LIST-1', originorderno: null, orderCurrency: 'CNY', orderAmount: '123.45' },
      currentTime: '2026-11-10 12:00:00',
      gwResponse: '00',
      merId: DEMO.subA,
      merName: 'Demo Store Shanghai',
      gwTranType: 'PURC',
      gwAmount: '123.45',
      gwCurrency: 'CNY',
      paymentBrand: 'wechat_pay',
      settleFlag: 'S',
      settleState: 'W',
    });
    expect(rows[0]).toMatchObject({ gwTranType: 'REFD', mrequest: { originorderno: 'ORD-LIST-1' }, gwAmount: '3.45' });
    expect(rows[2]).toMatchObject({ gwAmount: '5000', gwCurrency: 'JPY', settleState: 'N' });
    expect(rows[4]).toMatchObject({ gwResponse: '51', settleState: '' });
  });

  it('filters by every field of the query (times in the platform zone, brands comma-joined, 0-based page)', async () => {
    const n = async (q: Record<string, string | number>) => (await list(demo, q)).body.data.totalElements;
    expect(await n({ beginDate: '2026-11-10 00:00:00', endDate: '2026-11-10 23:59:59' })).toBe(2);
    expect(await n({ beginDate: '2026-11-10 12:00:01', endDate: '2026-11-10 23:59:59' })).toBe(1);
    expect(await n({ orderNum: 'ORD-LIST-1' })).toBe(1);
    expect(await n({ channelOrderNum: 'CH-1' })).toBe(1);
    expect(await n({ originOrderNum: 'ORD-LIST-1' })).toBe(1);
    expect(await n({ gwGTransId: purchase.gwTransId })).toBe(1);
    expect(await n({ gwTranType: 'REFD' })).toBe(1);
    expect(await n({ gwTranType: 'REFUND' }), 'spec §4: REFD/REFUND').toBe(1);
    expect(await n({ gwResponse: '00' })).toBe(3);
    expect(await n({ gwResponse: '04' })).toBe(1);
    expect(await n({ gwResponse: '01' })).toBe(1);
    expect(await n({ merReserve: 'vip' })).toBe(1);
    expect(await n({ paymentSchema: 'CARD' })).toBe(1);
    expect(await n({ paymentBrand: 'visa,alipay_cn' })).toBe(1);
    expect(await n({ paymentBrand: 'visa,wechat_pay' })).toBe(5);
    expect(await n({ merId: DEMO.subB })).toBe(1);
    const page1 = await list(demo, { page: 1, size: 5 });
    expect(page1.body.data.content).toHaveLength(0);
    const p = await list(demo, { page: 0, size: 5 });
    expect(p.body.data.content).toHaveLength(5);
  });

  it('refuses bad input', async () => {
    for (const q of <Record<string, string | number>[]>[
      { size: 7 },
      { page: -1 },
      { beginDate: '2026/11/10' },
      { gwTranType: 'NOPE' },
      { gwResponse: '99' },
      { paymentBrand: 'Visa;drop' },
      { merId: '12' },
    ]) {
      const r = await list(demo, q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.body.code).toBe(400);
    }
    const inverted = await list(demo, { beginDate: '2026-11-10 00:00:00', endDate: '2026-11-01 00:00:00' });
    expect(inverted.body.code).toBe(400);
    const tooLong = await list(demo, { beginDate: '2026-01-01 00:00:00', endDate: '2026-11-01 00:00:00' });
    expect(tooLong.body.code).toBe(400);
  });

  it('gives per-currency totals of the matching rows', async () => {
    const r = await ctx.call({ method: 'GET', url: '/api/txn/totals', headers: auth(demo) });
    expect(r.body.code).toBe(0);
    const cny = r.body.data.find((x: any) => x.currency === 'CNY');
    // purchase 123.45 + refund 3.45 + pending 100 + failed 100 listed; net of successful: 123.45 − 3.45
    expect(cny).toEqual({ currency: 'CNY', count: 4, amount: '326.90', net: '120.00' });
    expect(r.body.data.find((x: any) => x.currency === 'JPY')).toEqual({ currency: 'JPY', count: 1, amount: '5000', net: '5000' });
  });

  it('shows a sub-merchant user only its own merchant, and another merchant nothing of ours', async () => {
    const s = await list(sub);
    expect(s.body.data.totalElements).toBe(4);
    const o = await list(other);
    expect(o.body.data.content.map((x: any) => x.mrequest.orderno)).toEqual(['ORD-OTHER-1']);
    const asked = await list(other, { merId: DEMO.subA });
    expect(asked.body.data).toEqual({ content: [], totalElements: 0, totalExact: true });
    const totals = await ctx.call({ method: 'GET', url: '/api/txn/totals', headers: auth(other), query: { merId: DEMO.subA } });
    expect(totals.body.data).toEqual([]);
  });

  it('gives the detail with every block, the card masked', async () => {
    const r = await ctx.call({ method: 'GET', url: `/api/txn/${purchase.id}`, headers: auth(demo) });
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(d).toMatchObject({
      gwGTransId: purchase.gwTransId,
      gw_trans_id: 'CH-1',
      gwResponse: '00',
      gwAmount: '123.45',
      gwDate: '2026-11-11',
      gwReconFlag: 'S',
      msettleCurrency: 'CNY',
      settlefeeAmount: [{ currency: 'CNY', amount: '123.45' }],
      settlefee: [{ currency: 'CNY', amount: '3.09' }],
      backResponseToG: { accNo: '622202******7890' },
      mrequest: {
        orderNum: 'ORD-LIST-1',
        returnAmount: '0.00',
        clientid: DEMO.subA,
        merReserve: 'vip',
        storeName: '南京路门店 Nanjing Road',
        storeId: DEMO.stores.nanjingRoad,
        paymentSchema: 'WX',
        backURL: 'https://b.example/cb',
        frontURL: 'https://f.example/r',
      },
      refundable: '123.45',
      shipping: { shipmentNo: 'SF100', company: 'SF Express', shipDate: '2026-11-12', status: 'SHIPPED' },
    });
    expect(JSON.stringify(d)).not.toContain('6222021234567890');
    expect(d.associated.map((x: any) => x.id)).toEqual([purchase.id, refundRow.id]);
    const refundDetail = await ctx.call({ method: 'GET', url: `/api/txn/${refundRow.id}`, headers: auth(demo) });
    expect(refundDetail.body.data.associated.map((x: any) => x.id)).toEqual([purchase.id, refundRow.id]);
    expect(refundDetail.body.data.refundable).toBe('0.00');
  });

  it("answers another merchant's detail as absent, and bad ids as bad input", async () => {
    const r = await ctx.call({ method: 'GET', url: `/api/txn/${otherTxn.id}`, headers: auth(demo) });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(404);
    const r2 = await ctx.call({ method: 'GET', url: `/api/txn/${purchase.id}`, headers: auth(other) });
    expect(r2.status).toBe(404);
    const missing = await ctx.call({ method: 'GET', url: '/api/txn/999999999', headers: auth(demo) });
    expect(missing.status).toBe(404);
    const bad = await ctx.call({ method: 'GET', url: '/api/txn/abc', headers: auth(demo) });
    expect(bad.status).toBe(400);
  });

  it("asks the acquirer for a processing transaction's result", async () => {
    const pend = (await list(demo, { orderNum: 'ORD-PEND-1' })).body.data.content[0];
    const r = await ctx.call({ method: 'GET', url: '/api/txn/queryResult', headers: auth(demo), query: { id: String(pend.id) } });
    expect(r.body.code).toBe(0);
    expect(r.body.data.id).toBe(pend.id);
    // The sandbox resolves a processing amount ending in anything but 14 as approved.
    expect(r.body.data.gwResponse).toBe('00');
    const settled = await ctx.call({ method: 'GET', url: '/api/txn/queryResult', headers: auth(demo), query: { id: String(purchase.id) } });
    expect(settled.body.data.gwResponse).toBe('00');
    const foreign = await ctx.call({ method: 'GET', url: '/api/txn/queryResult', headers: auth(demo), query: { id: String(otherTxn.id) } });
    expect(foreign.status).toBe(404);
    const bad = await ctx.call({ method: 'GET', url: '/api/txn/queryResult', headers: auth(demo), query: { id: 'x' } });
    expect(bad.status).toBe(400);
  });

  it('refuses each call without its permission', async () => {
    const calls: [string, string][] = [
      [Perm.txnList, '/api/txn/list'],
      [Perm.txnList, '/api/txn/totals'],
      [Perm.txnDetail, `/api/txn/${purchase.id}`],
      [Perm.txnQueryResult, `/api/txn/queryResult?id=${purchase.id}`],
    ];
    const revoked = new Set<string>();
    for (const [perm, url] of calls) {
      if (!revoked.has(perm)) {
        const before = await ctx.call({ method: 'GET', url, headers: auth(sub) });
        expect(before.status, url).not.toBe(403);
      }
      revoked.add(perm);
      await revoke(ctx.db, DEMO.users.sub, perm);
      const r = await ctx.call({ method: 'GET', url, headers: auth(sub) });
      expect(r.status, url).toBe(403);
      expect(r.body.code).toBe(403);
    }
    const anon = await ctx.call({ method: 'GET', url: '/api/txn/list' });
    expect(anon.body.code).toBe(-1);
  });
});
