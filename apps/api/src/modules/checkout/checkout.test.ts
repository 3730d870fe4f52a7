import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { buyerPay, createOrder, pbl } from '../paybylink/paybylink.fixtures';
import { validCard } from './checkout.service';
import { expireDue } from '../paybylink/paybylink.repo';

describe.each(DB_KINDS)('hosted checkout /api/checkout/{token} on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let other: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx.close());
  const view = (token: string, lang = 'en') => ctx.call({ method: 'GET', url: `/api/checkout/${token}`, headers: { 'accept-language': lang } });

  it('shows the buyer the order without a sign-in, and records the visit once per 10 minutes', async () => {
    const o = await createOrder(ctx, demo, { orderCurrency: 'HKD', totalAmount: '88.00', goodsPrice: '88.00' });
    const res = await view(o.linkToken);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ orderno: o.orderNo, merName: 'Demo Group Ltd', goodsName: 'Blue widget', totalAmount: '88.00', orderCurrency: 'HKD', status: '04', payment: null });
    expect(res.body.data.methods.map((m: { code: string }) => m.code)).toEqual(['visa', 'mastercard', 'amex', 'jcb', 'unionpay', 'alipay_cn', 'alipay_hk', 'wechat_pay']);
    await view(o.linkToken);
    const kinds = async () => (await pbl(ctx, demo).get(`/api/payByLink/${o.id}`)).body.data.activity.map((a: { kind: string }) => a.kind);
    expect(await kinds()).toEqual(['created', 'opened']);
    ctx.clock.advance(11 * 60_000);
    demo = (await ctx.login(DEMO.users.demo)).token;
    await view(o.linkToken);
    expect(await kinds()).toEqual(['created', 'opened', 'opened']);
  });

  it('answers unknown and malformed tokens as not found', async () => {
    expect((await view('A'.repeat(43))).status).toBe(404);
    expect((await view('short')).status).toBe(404);
    expect((await buyerPay(ctx, 'B'.repeat(43))).status).toBe(404);
  });

  it('pays through the sandbox acquirer: the order is paid and the transaction is in the merchant list', async () => {
    const o = await createOrder(ctx, demo, { totalAmount: '42.00', goodsPrice: '42.00' });
    const res = await buyerPay(ctx, o.linkToken, 'visa', '4111 1111 1111 1111');
    expect(res.body.data).toEqual({ result: 'success', respMsg: 'Approved', status: '00', openStatus: '02' });
    const st = await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`);
    expect(st.body.data.status).toBe('00');
    const { rows } = await ctx.db.query<{ order_no: string; source: string; amount: number; gw_response: string; payment_brand: string; card_last4: string; mer_reserve: string; tran_type: string }>(
      'SELECT order_no, source, amount, gw_response, payment_brand, card_last4, mer_reserve, tran_type FROM txn WHERE order_no = $1',
      [o.orderNo],
    );
    expect(rows).toEqual([{ order_no: o.orderNo, source: 'paybylink', amount: 4200, gw_response: '00', payment_brand: 'visa', card_last4: '1111', mer_reserve: 'INV-2026-001', tran_type: 'PURC' }]);
    const txns = await ctx.call({ method: 'GET', url: `/api/txn/list?page=0&size=10&orderNum=${o.orderNo}`, headers: { 'x-token': demo } });
    expect(txns.body.data.totalElements).toBe(1);
    // the buyer's page shows the result afterwards; a second payment is refused
    expect((await view(o.linkToken)).body.data).toMatchObject({ status: '00', payment: { result: 'success', brand: 'visa' }, methods: [] });
    expect((await buyerPay(ctx, o.linkToken)).body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
  });

  it('a failing test amount (…51) fails the payment and ends the order', async () => {
    const o = await createOrder(ctx, demo, { totalAmount: '10.51', goodsPrice: '10.51' });
    const res = await buyerPay(ctx, o.linkToken, 'wechat_pay', '');
    expect(res.body.data).toMatchObject({ result: 'failed', status: '01', openStatus: '01' });
    const st = await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`);
    expect(st.body.data).toMatchObject({ status: '01', closeReason: 'failed' });
  });

  it('a processing amount (…14) stays processing, then ends failed when the acquirer answers', async () => {
    const o = await createOrder(ctx, demo, { totalAmount: '20.14', goodsPrice: '20.14' });
    expect((await buyerPay(ctx, o.linkToken, 'alipay_cn', '')).body.data).toMatchObject({ result: 'pending', status: '04', openStatus: '00' });
    expect((await ctx.call({ method: 'GET', url: `/api/checkout/${o.linkToken}/status` })).body.data.openStatus).toBe('00');
    ctx.clock.advance(6_000);
    const after = await ctx.call({ method: 'GET', url: `/api/checkout/${o.linkToken}/status` });
    expect(after.body.data).toMatchObject({ status: '01', openStatus: '01', closeReason: 'failed', payment: { result: 'failed', respMsg: 'Declined by issuer' } });
  });

  it('checks the method and the card number', async () => {
    const o = await createOrder(ctx, demo);
    expect((await buyerPay(ctx, o.linkToken, 'paypay', '')).body).toMatchObject({ code: 400, msg: 'This payment method is not available for this order' });
    expect((await buyerPay(ctx, o.linkToken, 'visa', '4111111111111112')).body).toMatchObject({ code: 400, msg: 'Please enter a valid card number' });
    const ja = await ctx.call({ method: 'POST', url: `/api/checkout/${o.linkToken}/pay`, headers: { 'accept-language': 'ja' }, payload: { method: 'visa', cardNumber: '123' } });
    expect(ja.body.msg).toBe('正しいカード番号を入力してください');
    expect((await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`)).body.data.openStatus).toBe('02');
    expect(validCard('4242424242424242')).toBe(true);
    expect(validCard('5555555555554444')).toBe(true);
  });

  it('a card method needs a card number (the field is named; spaces and dashes allowed); the payment event names the buyer, the method and the masked card', async () => {
    const o = await createOrder(ctx, demo);
    const noCard = await ctx.call({ method: 'POST', url: `/api/checkout/${o.linkToken}/pay`, payload: { method: 'visa' } });
    expect(noCard.body).toMatchObject({ code: 400, msg: 'Please enter a valid card number', data: { field: 'cardNumber' } });
    expect((await buyerPay(ctx, o.linkToken, 'visa', '4111 1111-1111 1111')).body.data).toMatchObject({ result: 'success' });
    const ev = await ctx.db.query<{ actor: string; detail: Record<string, unknown> }>(`SELECT actor, detail FROM pay_by_link_event WHERE order_id = $1 AND kind = 'payment'`, [o.id]);
    expect(ev.rows).toEqual([
      { actor: 'buyer', detail: { result: 'success', gwResponse: '00', respMsg: 'Approved', brand: 'visa', channel: 'CARD', gwTransId: expect.any(String), card: '****1111' } },
    ]);
    // Paid now: any method, known or not, meets an order that changed — not "method unavailable".
    expect((await buyerPay(ctx, o.linkToken, 'paypay', '')).body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
    const wallet = await createOrder(ctx, demo);
    await buyerPay(ctx, wallet.linkToken, 'alipay_cn', '');
    const w = await ctx.db.query<{ detail: { card: string | null; channel: string } }>(`SELECT detail FROM pay_by_link_event WHERE order_id = $1 AND kind = 'payment'`, [wallet.id]);
    expect(w.rows[0].detail).toMatchObject({ card: null, channel: 'AP' });
  });

  it('a link closed by the merchant and paid at its expiry instant says it expired; one closed by another process\'s expiry (a clock ahead) too; else "changed"', async () => {
    const expiresAt = async (id: number) => new Date((await ctx.db.query<{ e: Date }>('SELECT expires_at AS e FROM pay_by_link_order WHERE id = $1', [id])).rows[0].e);
    const closed = await createOrder(ctx, demo);
    expect((await pbl(ctx, demo).get(`/api/payByLink/closeOrder/${closed.id}`)).body.code).toBe(0);
    expect((await buyerPay(ctx, closed.linkToken)).body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
    const saved = ctx.clock.now();
    ctx.clock.set((await expiresAt(closed.id)).toISOString());
    expect((await buyerPay(ctx, closed.linkToken)).body).toMatchObject({ code: 409, msg: 'This payment link has expired' });
    ctx.clock.set(saved.toISOString());
    // Another process's expiry run, its clock 1 s past the end, closed it; this one's clock is 1 s before.
    const ahead = await createOrder(ctx, demo);
    const end = await expiresAt(ahead.id);
    expect(await expireDue(ctx.db, new Date(end.getTime() + 1000), { id: ahead.id })).toBe(1);
    ctx.clock.set(new Date(end.getTime() - 1000).toISOString());
    expect((await buyerPay(ctx, ahead.linkToken)).body).toMatchObject({ code: 409, msg: 'This payment link has expired' });
    ctx.clock.set(saved.toISOString());
  });

  it('qrList gives the logos of the link currency, for the caller scope only', async () => {
    const o = await createOrder(ctx, demo, { orderCurrency: 'EUR', totalAmount: '5.00', goodsPrice: '5.00' });
    const res = await pbl(ctx, demo).qrList(o.payByLink, 'EUR');
    expect(res.body.data.map((m: { code: string }) => m.code)).toEqual(['visa', 'mastercard', 'amex', 'jcb', 'unionpay', 'alipay_cn', 'wechat_pay', 'ideal']);
    expect(res.body.data[0]).toEqual({ code: 'visa', name: 'VISA', channel: 'CARD', logo: '/api/payByLink/logo/visa.svg', card: true });
    expect((await pbl(ctx, other).qrList(o.payByLink, 'EUR')).status).toBe(404);
    expect((await pbl(ctx, demo).qrList('https://example.com/x')).status).toBe(404);
    const logo = await ctx.app.inject({ method: 'GET', url: '/api/payByLink/logo/ideal.svg' });
    expect(logo.headers['content-type']).toContain('image/svg+xml');
    expect(logo.body).toMatch(/^<svg [^>]*viewBox="0 0 100 40"/);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/payByLink/logo/nope.svg' })).statusCode).toBe(404);
  });
});
