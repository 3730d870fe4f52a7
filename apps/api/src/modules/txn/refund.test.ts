import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, loginWithStepUp } from './txn.fixtures';

describe.each(DB_KINDS)('refund (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
  });
  afterAll(() => ctx?.close());

  const refund = (token: string, body: Record<string, string | number>) =>
    ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(token), ...form(body).headers }, payload: form(body).payload });
  const purchaseRow = async (id: number) =>
    (await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [id])).rows[0];
  const refunds = async (id: number) =>
    (await ctx.db.query<{ amount: number; gw_response: string; order_no: string }>(`SELECT amount, gw_response, order_no FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD' ORDER BY id`, [id])).rows;

  it('refunds part of a purchase as a REFD, raises returnAmount and writes the audit log', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-1', amount: 10000 });
    const r = await refund(demo, { id: p.gwTransId, amount: '25.50', txnschema: 'WX' });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ code: 0, refundOrderNo: 'RF-1-R1', returnAmount: '25.50' });
    expect((await purchaseRow(p.id)).return_amount).toBe(2550);
    expect(await refunds(p.id)).toEqual([expect.objectContaining({ amount: 2550, order_no: 'RF-1-R1' })]);
    const list = await ctx.call({ method: 'GET', url: '/api/txn/list', headers: auth(demo), query: { originOrderNum: 'RF-1' } });
    expect(list.body.data.content[0]).toMatchObject({ gwTranType: 'REFD', gwAmount: '25.50' });
    const audit = await ctx.db.query<{ outcome: string; target: string; detail: any }>(`SELECT outcome, target, detail FROM audit_log WHERE action = 'txn.refund' AND target = $1`, [p.gwTransId]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ outcome: 'success', detail: { amount: '25.50', currency: 'CNY', refundOrderNo: 'RF-1-R1' } });
    const detail = await ctx.call({ method: 'GET', url: `/api/txn/${p.id}`, headers: auth(demo) });
    expect(detail.body.data.refundable).toBe('74.50');
    expect(detail.body.data.associated).toHaveLength(2);
  });

  it('never refunds more than what is left', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-2', amount: 1000 });
    expect((await refund(demo, { id: p.gwTransId, amount: '6.00' })).body.data.code).toBe(0);
    const over = await refund(demo, { id: p.gwTransId, amount: '4.01' });
    expect(over.body.code).toBe(0);
    expect(over.body.data.code).toBe(2);
    expect(over.body.data.msg).toContain('4.00');
    expect((await refund(demo, { id: p.gwTransId, amount: '4.00' })).body.data.code).toBe(0);
    expect((await purchaseRow(p.id)).return_amount).toBe(1000);
    expect((await refund(demo, { id: p.gwTransId, amount: '0.01' })).body.data.code).toBe(2);
  });

  it('is idempotent for a repeated request key', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-3', amount: 5000 });
    const body = { id: p.gwTransId, amount: '10.00', requestKey: 'key-RF-3-abcdef' };
    const first = await refund(demo, body);
    const again = await refund(demo, body);
    expect(first.body.data.code).toBe(0);
    expect(again.body.data).toEqual(first.body.data);
    expect(await refunds(p.id)).toHaveLength(1);
    expect((await purchaseRow(p.id)).return_amount).toBe(1000);
    const twins = await Promise.all([1, 2, 3, 4, 5].map(() => refund(demo, { ...body, requestKey: 'key-RF-3-twins' })));
    expect(new Set(twins.map((t) => t.body.data.refundId)).size).toBe(1);
    expect(await refunds(p.id)).toHaveLength(2);
    const changed = await refund(demo, { ...body, amount: '11.00' });
    expect(changed.body.data.code).toBe(4);
    expect((await purchaseRow(p.id)).return_amount).toBe(2000);
  });

  it('refuses what cannot be refunded', async () => {
    const failed = await addTxn(ctx, { orderNo: 'RF-4', gwResponse: '05' });
    expect((await refund(demo, { id: failed.gwTransId, amount: '1.00' })).body.data.code).toBe(1);
    const p = await addTxn(ctx, { orderNo: 'RF-5' });
    expect((await refund(demo, { id: p.gwTransId, amount: '1.00', txnschema: 'AP' })).body.data.code).toBe(1);
    const r = await refund(demo, { id: p.gwTransId, amount: '1.00' });
    const child = await ctx.db.query<{ gw_trans_id: string }>('SELECT gw_trans_id FROM txn WHERE id = $1', [r.body.data.refundId]);
    expect((await refund(demo, { id: child.rows[0].gw_trans_id, amount: '0.50' })).body.data.code).toBe(1);
  });

  it('refuses bad input', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-6', amount: 1000 });
    for (const amount of ['abc', '0', '-1', '1.234', '']) {
      const r = await refund(demo, { id: p.gwTransId, amount });
      expect(r.status, amount).toBe(400);
    }
    const jpy = await addTxn(ctx, { merId: DEMO.subB, orderNo: 'RF-JPY', amount: 1000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa' });
    expect((await refund(demo, { id: jpy.gwTransId, amount: '1.5' })).status).toBe(400);
    expect((await refund(demo, { id: jpy.gwTransId, amount: '15' })).body.data.code).toBe(0);
    expect((await refund(demo, { id: p.gwTransId, amount: '1', requestKey: 'bad key!' })).status).toBe(400);
    expect((await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form({}).headers }, payload: form({ amount: '1' }).payload })).status).toBe(400);
  });

  it('needs the password step-up of this session', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-7' });
    const { token } = await ctx.login();
    const r = await refund(token, { id: p.gwTransId, amount: '1.00' });
    expect(r.status).toBe(403);
    expect(r.body.msg).toMatch(/password/i);
    // The grant lasts 5 minutes.
    const fresh = await loginWithStepUp(ctx);
    ctx.clock.advance(5 * 60_000 + 1000);
    await ctx.call({ method: 'GET', url: '/api/txn/list', headers: auth(fresh) }).catch(() => undefined);
    const late = await refund(fresh, { id: p.gwTransId, amount: '1.00' });
    expect(late.status).toBe(403);
    expect(await refunds(p.id)).toHaveLength(0);
    demo = await loginWithStepUp(ctx);
  });

  it('refuses a user without txn:detail:refund, and another merchant\'s purchase answers as absent', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-8' });
    const sub = await loginWithStepUp(ctx, DEMO.users.sub);
    expect((await refund(sub, { id: p.gwTransId, amount: '1.00' })).status).toBe(403);
    const other = await loginWithStepUp(ctx, DEMO.users.other);
    const r = await refund(other, { id: p.gwTransId, amount: '1.00' });
    expect(r.status).toBe(404);
    expect(await refunds(p.id)).toHaveLength(0);
  });

  it('lets 50 concurrent refunds add up to at most the purchase (no lost update)', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-CONC', amount: 10000 });
    // 50 × 3.00 = 150.00 asked against 100.00: exactly 33 can pass.
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => refund(demo, { id: p.gwTransId, amount: '3.00', requestKey: `conc-${i}-xxxxxx` })));
    const ok = results.filter((r) => r.body.data?.code === 0);
    const over = results.filter((r) => r.body.data?.code === 2);
    expect(ok.length + over.length).toBe(50);
    expect(ok).toHaveLength(33);
    const rows = await refunds(p.id);
    const sum = rows.filter((r) => r.gw_response === '00').reduce((a, r) => a + r.amount, 0);
    expect(sum).toBeLessThanOrEqual(10000);
    expect(sum).toBe(9900);
    expect((await purchaseRow(p.id)).return_amount).toBe(sum);
    expect(new Set(rows.map((r) => r.order_no)).size).toBe(rows.length);
  });
});
