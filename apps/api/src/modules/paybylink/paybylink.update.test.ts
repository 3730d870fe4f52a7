import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { PDF, VALID_ORDER, buyerPay, createOrder, pbl } from './paybylink.fixtures';

describe.each(DB_KINDS)('pay-by-link close, update, expiry on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx.close());
  const close = (id: number, token = demo, lang = 'en') => pbl(ctx, token, lang).get(`/api/payByLink/closeOrder/${id}`);

  it("closes an open order ('00'); a second close answers '01' with the status-changed message", async () => {
    const o = await createOrder(ctx, demo);
    const res = await close(o.id);
    expect(res.body).toEqual({ code: 0, msg: 'success', data: '00' });
    const again = await close(o.id);
    expect(again.body).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
    expect((await close(o.id, demo, 'zh')).body.msg).toBe('订单状态已变更，操作失败');
    const d = await pbl(ctx, demo).get(`/api/payByLink/${o.id}`);
    expect(d.body.data).toMatchObject({ status: '01', openStatus: '01', closeReason: 'merchant' });
    expect(d.body.data.closeTime).toMatch(/^\d{4}-/);
    expect(d.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created', 'closed']);
    // a closed link cannot be paid
    const pay = await buyerPay(ctx, o.linkToken);
    expect(pay.body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
  });

  it("refuses to close a paid order ('01') and an order of another merchant (404); needs the close permission", async () => {
    const o = await createOrder(ctx, demo);
    await buyerPay(ctx, o.linkToken);
    expect((await close(o.id)).body.data).toBe('01');
    expect((await pbl(ctx, demo).get(`/api/payByLink/${o.id}`)).body.data.status).toBe('00');
    const open = await createOrder(ctx, demo);
    expect((await close(open.id, other)).status).toBe(404);
    const denied = await close(open.id, sub);
    expect(denied.status).toBe(403);
    expect((await pbl(ctx, demo).get(`/api/payByLink/${open.id}`)).body.data.openStatus).toBe('02');
  });

  it('updates amounts, quantity, fee and attachment; keeps the read-only fields as stored', async () => {
    const o = await createOrder(ctx, demo);
    const res = await pbl(ctx, demo).update({
      ...VALID_ORDER,
      id: String(o.id),
      totalAmount: '99.90',
      goodsPrice: '31.50',
      goodsQuantity: '3',
      logFee: '5.40',
      reconId: 'CHANGED',
      goodsName: 'Changed',
      remarks: 'changed',
      buyerEmail: 'x@example.com',
      orderCurrency: 'EUR',
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      totalAmount: '99.90',
      goodsPrice: '31.50',
      goodsQuantity: 3,
      logFee: '5.40',
      reconId: VALID_ORDER.reconId,
      goodsName: 'Blue widget',
      remarks: 'thank you',
      buyerEmail: null,
      orderCurrency: 'USD',
    });
    const d = await pbl(ctx, demo).get(`/api/payByLink/${o.id}`);
    expect(d.body.data.activity[1]).toMatchObject({ kind: 'updated', actor: 'demo', detail: { totalAmount: '99.90', goodsQuantity: 3 } });
  });

  it('the update records exactly what changed; without an attachment field the stored one stays; validity counts from now; audited', async () => {
    const up = await pbl(ctx, demo).upload('terms.pdf', PDF);
    const o = await createOrder(ctx, demo, { attachment: up.body.data.attachment });
    const events = async () => (await pbl(ctx, demo).get(`/api/payByLink/${o.id}`)).body.data.activity.filter((a: { kind: string }) => a.kind === 'updated');
    // The same values, no attachment field: nothing changed, the file stays.
    const { attachment: _none, ...same } = { ...VALID_ORDER, attachment: undefined };
    const r1 = await pbl(ctx, demo).update({ ...same, id: String(o.id) });
    expect(r1.body.data).toMatchObject({ fileName: 'terms.pdf', totalAmount: '120.50' });
    expect((await events()).at(-1).detail).toEqual({});
    // Validity: 3 days from now (not from the creation).
    ctx.clock.advance(5 * 60_000); // within the session's idle time
    expect((await pbl(ctx, demo).update({ ...same, id: String(o.id), validDays: '3' })).body.code).toBe(0);
    const e = await ctx.db.query<{ e: Date }>('SELECT expires_at AS e FROM pay_by_link_order WHERE id = $1', [o.id]);
    expect(new Date(e.rows[0].e).getTime()).toBe(ctx.clock.now().getTime() + 3 * 86_400_000);
    expect((await events()).at(-1).detail).toEqual({ validDays: 3 });
    // A new total and quantity, and the attachment removed.
    await pbl(ctx, demo).update({ ...same, id: String(o.id), totalAmount: ' 61.00 ', goodsPrice: '30.50', goodsQuantity: '2', attachment: '' });
    expect((await events()).at(-1).detail).toEqual({ totalAmount: '61.00', goodsQuantity: 2, attachment: true });
    const audited = await ctx.db.query<{ target: string; n: number }>(`SELECT target, count(*)::int AS n FROM audit_log WHERE action = 'paybylink.update' AND target = $1 GROUP BY target`, [
      o.orderNo,
    ]);
    expect(audited.rows).toEqual([{ target: o.orderNo, n: 3 }]);
    // Not asked to e-mail: no mail goes.
    expect((await ctx.db.query(`SELECT 1 FROM pay_by_link_event WHERE order_id = $1 AND kind = 'emailed'`, [o.id])).rows).toEqual([]);
  });

  it('an id of 0 or below is a required-field error, not a search', async () => {
    for (const id of ['0', '-3']) expect((await pbl(ctx, demo).update({ ...VALID_ORDER, id })).body).toMatchObject({ code: 400, msg: 'Required' });
  });

  it('the close is audited with the order number', async () => {
    const o = await createOrder(ctx, demo);
    await close(o.id);
    const audited = await ctx.db.query<{ target: string; merId: string }>(`SELECT target, mer_id AS "merId" FROM audit_log WHERE action = 'paybylink.close' AND target = $1`, [o.orderNo]);
    expect(audited.rows).toEqual([{ target: o.orderNo, merId: DEMO.group }]);
  });

  it('checks the update form with the same messages', async () => {
    const o = await createOrder(ctx, demo);
    const bad = await pbl(ctx, demo, 'ko').update({ ...VALID_ORDER, id: String(o.id), totalAmount: '0' });
    expect(bad.body).toMatchObject({ code: 400, msg: '값은 0보다 커야 합니다' });
    const qty = await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id), goodsQuantity: '2.5' });
    expect(qty.body.msg).toBe('Please enter a positive integer');
    // sending e-mail needs the (stored) buyer e-mail
    const mail = await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id), sendEmailChecked: 'true', buyerEmail: 'new@example.com', attachment: 'x' });
    expect(mail.body.msg).toBe('Please enter the buyer e-mail before choosing to send an e-mail');
    expect((await pbl(ctx, demo).update({ ...VALID_ORDER, id: 'abc' })).body.msg).toBe('Required');
  });

  it('re-sends the buyer e-mail on update when asked', async () => {
    const up = await pbl(ctx, demo).upload('bill.pdf', PDF);
    const o = await createOrder(ctx, demo, { buyerEmail: 'b@example.com', sendEmailChecked: 'true', attachment: up.body.data.attachment });
    const res = await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id), totalAmount: '50.00', goodsPrice: '50.00', sendEmailChecked: 'true', attachment: up.body.data.attachment });
    expect(res.body.data).toMatchObject({ emailStatus: 'sent', totalAmount: '50.00', fileName: 'bill.pdf' });
    const kinds = (await pbl(ctx, demo).get(`/api/payByLink/${o.id}`)).body.data.activity.map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(['created', 'emailed', 'updated', 'emailed']);
  });

  it("refuses to update a closed or paid order with 'Order status has changed, operation failed'", async () => {
    const o = await createOrder(ctx, demo);
    await close(o.id);
    const res = await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id) });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed', data: { openStatus: '01' } });
    const p = await createOrder(ctx, demo);
    await buyerPay(ctx, p.linkToken);
    expect((await pbl(ctx, demo, 'ja').update({ ...VALID_ORDER, id: String(p.id) })).body.msg).toBe('注文のステータスが変更されたため、操作に失敗しました');
  });

  it("refuses update without the permission and another merchant's order", async () => {
    const o = await createOrder(ctx, demo);
    expect((await pbl(ctx, sub).update({ ...VALID_ORDER, id: String(o.id) })).status).toBe(403);
    expect((await pbl(ctx, other).update({ ...VALID_ORDER, id: String(o.id) })).status).toBe(404);
  });

  it('leaves other product categories alone: no close, no update', async () => {
    const o = await createOrder(ctx, demo);
    await ctx.db.query(`UPDATE pay_by_link_order SET prod_category = 'invoice' WHERE id = $1`, [o.id]);
    expect((await close(o.id)).body.data).toBe('01');
    expect((await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id) })).status).toBe(409);
  });

  it('expires a link after its validity: closed on the timeline, cannot be paid', async () => {
    const o = await createOrder(ctx, demo, { validDays: '1' });
    ctx.clock.advance(86_400_000 + 1000);
    demo = (await ctx.login(DEMO.users.demo)).token; // the idle session ended meanwhile
    const st = await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`);
    expect(st.body.data).toMatchObject({ status: '01', openStatus: '01', closeReason: 'expired' });
    const pay = await buyerPay(ctx, o.linkToken);
    expect(pay.body.msg).toBe('This payment link has expired');
    const d = await pbl(ctx, demo).get(`/api/payByLink/${o.id}`);
    expect(d.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created', 'expired']);
    expect((await pbl(ctx, demo).get('/api/payByLink/list?status=01')).body.data.content.map((r: { id: number }) => r.id)).toContain(o.id);
  });
});
