import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, revoke } from '../txn/txn.fixtures';
import { createOrder } from '../paybylink/paybylink.fixtures';
import { createUser } from '../../../test/security/route-table';

describe.each(DB_KINDS)('global search (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let other: string;
  let purchase: { id: number; gwTransId: string };
  let refund: { id: number; gwTransId: string };
  let order: { id: number; orderNo: string };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    purchase = await addTxn(ctx, { orderNo: 'ORD-SEARCH-1', channelOrderNo: 'CH-SEARCH-1', amount: 12345, currency: 'CNY' });
    refund = await addTxn(ctx, { orderNo: 'ORD-SEARCH-1-R1', tranType: 'REFD', amount: 345, originTxnId: purchase.id, cardNumber: null });
    // The same merchant order number at two merchants of the group: two hits to choose from.
    await addTxn(ctx, { merId: DEMO.subB, orderNo: 'ORD-TWICE', currency: 'JPY', amount: 500, paymentSchema: 'CARD', paymentBrand: 'visa' });
    await addTxn(ctx, { merId: DEMO.subA, orderNo: 'ORD-TWICE', txnTime: new Date('2026-11-11T04:00:00Z') });
    await addTxn(ctx, { merId: DEMO.other, orderNo: 'ORD-OTHER-SEARCH', channelOrderNo: 'CH-SEARCH-1', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    demo = (await ctx.login()).token;
    other = (await ctx.login(DEMO.users.other)).token;
    order = await createOrder(ctx, demo, { reconId: 'INV-SEARCH-1' });
    await createOrder(ctx, other, { orderCurrency: 'SGD', reconId: 'INV-SEARCH-1' });
    await createUser(ctx, { username: 'search-none', email: 'search-none@demo-group.example', merId: DEMO.subA, permissions: [Perm.txnList] });
  });
  afterAll(() => ctx?.close());

  const search = (token: string, q: string, lang = 'en') => ctx.call({ method: 'GET', url: '/api/search', headers: { ...auth(token), 'accept-language': lang }, query: { q } });

  it('finds a transaction by merchant order number, channel order number and gateway id, within the scope only', async () => {
    for (const q of ['ORD-SEARCH-1', '  ORD-SEARCH-1  ', purchase.gwTransId]) {
      const r = await search(demo, q);
      expect(r.body.code, r.body.msg).toBe(0);
      expect(r.body.data.content).toEqual([expect.objectContaining({ kind: 'txn', id: purchase.id, orderNo: 'ORD-SEARCH-1', merId: DEMO.subA, amount: '123.45', currency: 'CNY', type: 'PURC' })]);
    }
    // The other merchant's transaction shares the channel order number: not shown.
    const ch = await search(demo, 'CH-SEARCH-1');
    expect(ch.body.data.content.map((h: any) => [h.kind, h.id, h.match])).toEqual([['txn', purchase.id, 'channelOrderNo']]);
    expect(JSON.stringify(ch.body)).not.toContain(DEMO.other);
  });

  it('finds a refund by its id, order number or gateway id (kind refund, opens its transaction)', async () => {
    for (const q of [String(refund.id), 'ORD-SEARCH-1-R1', refund.gwTransId]) {
      const r = await search(demo, q);
      expect(r.body.data.content).toEqual([expect.objectContaining({ kind: 'refund', id: refund.id, type: 'REFD' })]);
    }
  });

  it('finds a pay-link order by order number and invoice id; several hits are all listed', async () => {
    const byNo = await search(demo, order.orderNo);
    expect(byNo.body.data.content).toEqual([expect.objectContaining({ kind: 'payByLink', id: order.id, match: 'payLinkOrderNo' })]);
    const byInvoice = await search(demo, 'INV-SEARCH-1');
    expect(byInvoice.body.data.content).toEqual([expect.objectContaining({ kind: 'payByLink', id: order.id, match: 'invoiceId' })]);
    const twice = await search(demo, 'ORD-TWICE');
    expect(twice.body.data.totalElements).toBe(2);
    expect(twice.body.data.content.map((h: any) => h.merId).sort()).toEqual([DEMO.subA, DEMO.subB].sort());
  });

  it("answers an empty list when nothing matches, and never finds another merchant's record", async () => {
    const none = await search(demo, 'ORD-OTHER-SEARCH');
    expect(none.body).toMatchObject({ code: 0, data: { content: [], totalElements: 0 } });
    const mine = await search(other, 'ORD-OTHER-SEARCH');
    expect(mine.body.data.totalElements).toBe(1);
    const inv = await search(other, 'INV-SEARCH-1');
    expect(inv.body.data.content.every((h: any) => h.merId === DEMO.other)).toBe(true);
  });

  it("refuses bad input with 400 in the caller's language", async () => {
    for (const q of ['', '   ', 'x'.repeat(65), 'ORD\u0000SEARCH', 'ORD\nSEARCH']) {
      const r = await search(demo, q);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe(Code.BAD_REQUEST);
    }
    const zh = await search(demo, 'x'.repeat(65), 'zh');
    expect(zh.body.msg).toMatch(/请求参数错误/);
    const missing = await ctx.call({ method: 'GET', url: '/api/search', headers: auth(demo) });
    expect(missing.status).toBe(400);
  });

  it('returns only the kinds the caller may see; without any of the permissions 403', async () => {
    const none = (await ctx.login('search-none')).token;
    expect((await search(none, 'ORD-SEARCH-1')).status).toBe(403);
    await revoke(ctx.db, DEMO.users.sub, Perm.txnDetail);
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await search(sub, 'ORD-SEARCH-1')).body.data.content).toEqual([]);
    // demo-sub's merchant is the Shanghai sub-merchant: the group's pay link is outside its scope.
    expect((await search(sub, order.orderNo)).body.data.content).toEqual([]);
    const r = await search(demo, order.orderNo);
    expect(r.body.data.totalElements).toBe(1);
  });
});
