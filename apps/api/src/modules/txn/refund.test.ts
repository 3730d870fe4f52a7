import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, loginWithStepUp } from './txn.fixtures';
import { resolveDueOperations } from '../acquirer/operations.service';
import { reserveReturn } from './refund.repo';

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
  const purchaseRow = async (id: number) => (await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [id])).rows[0];
  const refunds = async (id: number) =>
    (await ctx.db.query<{ amount: number; gw_response: string; order_no: string }>(`SELECT amount, gw_response, order_no FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD' ORDER BY id`, [id]))
      .rows;

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

  it('a declined refund gives its reservation back: what can still be refunded does not shrink', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-DECL', amount: 1000 });
    expect((await refund(demo, { id: p.gwTransId, amount: '2.00' })).body.data).toMatchObject({ code: RefundCode.OK, returnAmount: '2.00' });
    // x.51 is the sandbox's declining amount.
    const declined = await refund(demo, { id: p.gwTransId, amount: '0.51' });
    expect(declined.status).toBe(200);
    expect(declined.body.code).toBe(0);
    expect(declined.body.data).toMatchObject({ code: RefundCode.DECLINED, gwResponse: '01', refundOrderNo: 'RF-DECL-R2', returnAmount: '2.00' });
    expect(declined.body.data.msg).toContain('insufficient funds');
    expect((await purchaseRow(p.id)).return_amount).toBe(200);
    expect((await refunds(p.id)).map((r) => [r.amount, r.gw_response])).toEqual([
      [200, '00'],
      [51, '01'],
    ]);
    const detail = await ctx.call({ method: 'GET', url: `/api/txn/${p.id}`, headers: auth(demo) });
    expect(detail.body.data.refundable).toBe('8.00');
    // All that is left can still be refunded, to the cent.
    expect((await refund(demo, { id: p.gwTransId, amount: '8.00' })).body.data).toMatchObject({ code: RefundCode.OK, returnAmount: '10.00', refundOrderNo: 'RF-DECL-R3' });
    expect((await purchaseRow(p.id)).return_amount).toBe(1000);
    const audit = await ctx.db.query<{ outcome: string; code: number }>(`SELECT outcome, (detail->>'code')::int AS code FROM audit_log WHERE action = 'txn.refund' AND target = $1 ORDER BY id`, [
      p.gwTransId,
    ]);
    expect(audit.rows).toEqual([
      { outcome: 'success', code: RefundCode.OK },
      { outcome: 'failure', code: RefundCode.DECLINED },
      { outcome: 'success', code: RefundCode.OK },
    ]);
  });

  it('answers a processing refund as submitted, and a successful one as successful', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-PROC', amount: 1000 });
    // x.04 is the sandbox's "processing" amount.
    const proc = await refund(demo, { id: p.gwTransId, amount: '0.04' });
    expect(proc.body.data).toMatchObject({ code: RefundCode.OK, msg: 'Refund submitted, processing', gwResponse: '04', returnAmount: '0.04' });
    const ok = await refund(demo, { id: p.gwTransId, amount: '1.00' });
    expect(ok.body.data).toMatchObject({ code: RefundCode.OK, msg: 'Refund successful', gwResponse: '00', returnAmount: '1.04' });
    const zh = await ctx.call({
      method: 'POST',
      url: '/api/txn/refund',
      headers: { ...auth(demo), 'accept-language': 'zh', ...form({}).headers },
      payload: form({ id: p.gwTransId, amount: '1.00' }).payload,
    });
    expect(zh.body.data.msg).toBe('退款成功');
  });

  it('a processing sandbox refund is settled by the acquirer job: …04 becomes successful, …14 fails and gives its reservation back', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-JOB', amount: 1000 });
    const a = await refund(demo, { id: p.gwTransId, amount: '1.04' });
    const b = await refund(demo, { id: p.gwTransId, amount: '2.14', requestKey: 'key-RF-JOB-b' });
    expect([a.body.data.gwResponse, b.body.data.gwResponse]).toEqual(['04', '04']);
    expect((await purchaseRow(p.id)).return_amount).toBe(318);
    // Nothing is due before the first send's lease has run out.
    await resolveDueOperations(ctx.deps);
    expect((await refunds(p.id)).map((r) => r.gw_response)).toEqual(['04', '04']);
    ctx.clock.advance(31_000);
    expect((await resolveDueOperations(ctx.deps)).settled).toBeGreaterThanOrEqual(2);
    expect((await refunds(p.id)).map((r) => [r.amount, r.gw_response])).toEqual([
      [104, '00'],
      [214, '01'],
    ]);
    expect((await purchaseRow(p.id)).return_amount).toBe(104);
    expect((await refund(demo, { id: p.gwTransId, amount: '2.14', requestKey: 'key-RF-JOB-b' })).body.data).toMatchObject({
      code: RefundCode.DECLINED,
      msg: 'The refund was declined: Declined by issuer',
    });
    const results = await ctx.db.query<{ outcome: string; released: boolean | null }>(
      `SELECT outcome, (detail->>'released')::boolean AS released FROM audit_log WHERE action = 'txn.refund.result' AND target = $1 ORDER BY id`,
      [p.gwTransId],
    );
    expect(results.rows).toEqual([
      { outcome: 'success', released: false },
      { outcome: 'failure', released: true },
    ]);
  });

  it('numbers a refund after its purchase while that fits 64 characters, else after the gateway id', async () => {
    const fits = await addTxn(ctx, { orderNo: 'A'.repeat(56), amount: 1000 });
    expect((await refund(demo, { id: fits.gwTransId, amount: '1.00' })).body.data.refundOrderNo).toBe(`${'A'.repeat(56)}-R1`);
    const long = await addTxn(ctx, { orderNo: 'B'.repeat(57), amount: 1000 });
    expect((await refund(demo, { id: long.gwTransId, amount: '1.00' })).body.data.refundOrderNo).toBe(`R1-${long.gwTransId}`);
  });

  it('keeps the answer of a refused request under its key: a repeat gets the same refusal, with nothing sent', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-KEYREF', amount: 1000 });
    const over = { id: p.gwTransId, amount: '10.01', requestKey: 'key-RF-KEYREF-over' };
    const first = await refund(demo, over);
    expect(first.body.data).toEqual({ code: RefundCode.OVER_AMOUNT, msg: 'The refund amount exceeds what can still be refunded (10.00)' });
    expect((await refund(demo, over)).body.data).toEqual(first.body.data);
    const declined = { id: p.gwTransId, amount: '0.51', requestKey: 'key-RF-KEYREF-decl' };
    const d1 = await refund(demo, declined);
    expect(d1.body.data.code).toBe(RefundCode.DECLINED);
    expect((await refund(demo, declined)).body.data).toEqual(d1.body.data);
    expect((await refunds(p.id)).map((r) => r.gw_response)).toEqual(['01']); // the repeat asked the acquirer nothing
    const stored = await ctx.db.query<{ result: { code: number } }>('SELECT result FROM refund_request WHERE purchase_id = $1 ORDER BY request_key', [p.id]);
    expect(stored.rows.map((r) => r.result.code)).toEqual([RefundCode.DECLINED, RefundCode.OVER_AMOUNT]);
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
    // The key is tied to the refund it made, and the audit entry names both.
    const keyRow = await ctx.db.query<{ refund_txn_id: string }>('SELECT refund_txn_id FROM refund_request WHERE purchase_id = $1 AND request_key = $2', [p.id, body.requestKey]);
    expect(Number(keyRow.rows[0].refund_txn_id)).toBe(first.body.data.refundId);
    const audited = await ctx.db.query<{ detail: { refundId: number; requestKey: string } }>(`SELECT detail FROM audit_log WHERE action = 'txn.refund' AND target = $1 ORDER BY id`, [p.gwTransId]);
    expect(audited.rows[0].detail).toMatchObject({ refundId: first.body.data.refundId, requestKey: body.requestKey });
    // Twins at once: they race for the request key's primary key on PostgreSQL; outcome only on PGlite.
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
      expect(r.body.code, amount).toBe(Code.BAD_REQUEST);
    }
    // The message tells the currency's decimals.
    expect((await refund(demo, { id: p.gwTransId, amount: '1.234' })).body.msg).toBe('The amount must be greater than 0 with at most 2 decimals');
    const jpy = await addTxn(ctx, { merId: DEMO.subB, orderNo: 'RF-JPY', amount: 1000, currency: 'JPY', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const jpyBad = await refund(demo, { id: jpy.gwTransId, amount: '1.5' });
    expect(jpyBad.status).toBe(400);
    expect(jpyBad.body.msg).toBe('The amount must be greater than 0 with at most 0 decimals');
    expect((await refund(demo, { id: jpy.gwTransId, amount: '15' })).body.data.code).toBe(0);
    expect((await refund(demo, { id: p.gwTransId, amount: '1', requestKey: 'bad key!' })).status).toBe(400);
    expect((await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form({}).headers }, payload: form({ amount: '1' }).payload })).status).toBe(400);
  });

  it('needs the password step-up of this session', async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-7' });
    const { token } = await ctx.login();
    const r = await refund(token, { id: p.gwTransId, amount: '1.00' });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(Code.FORBIDDEN);
    expect(r.body.msg).toMatch(/password/i);
    // The grant lasts 5 minutes.
    const fresh = await loginWithStepUp(ctx);
    ctx.clock.advance(5 * 60_000 + 1000);
    // Still signed in (a call keeps the session alive): only the step-up grant has run out.
    expect((await ctx.call({ method: 'GET', url: '/api/txn/list', headers: auth(fresh) })).body.code).toBe(0);
    const late = await refund(fresh, { id: p.gwTransId, amount: '1.00' });
    expect(late.status).toBe(403);
    expect(late.body.code).toBe(Code.FORBIDDEN);
    expect(late.body.msg).toMatch(/password/i);
    expect(await refunds(p.id)).toHaveLength(0);
    demo = await loginWithStepUp(ctx);
  });

  it("refuses a user without txn:detail:refund, and another merchant's purchase answers as absent", async () => {
    const p = await addTxn(ctx, { orderNo: 'RF-8' });
    const sub = await loginWithStepUp(ctx, DEMO.users.sub);
    expect((await refund(sub, { id: p.gwTransId, amount: '1.00' })).status).toBe(403);
    const other = await loginWithStepUp(ctx, DEMO.users.other);
    const r = await refund(other, { id: p.gwTransId, amount: '1.00' });
    expect(r.status).toBe(404);
    expect(await refunds(p.id)).toHaveLength(0);
  });

  // Meaningful on PostgreSQL (pooled connections race for the purchase's row lock and the guarded
  // UPDATE); PGlite runs one transaction at a time, so there it checks the outcome only.
  it(`lets 50 concurrent refunds add up to at most the purchase (no lost update) (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
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
    // Each refused one read the purchase under its row lock, after the others: it names what is
    // really left (a read before the lock would name an older, larger remainder).
    expect(new Set(over.map((r) => r.body.data.msg))).toEqual(new Set(['The refund amount exceeds what can still be refunded (1.00)']));
  });

  it('the over-refund guard itself adds returns only to a successful purchase (its own rule, not only the check before it)', async () => {
    const declined = await addTxn(ctx, { orderNo: 'RF-GUARD-DECL', gwResponse: '05', respMsg: 'Declined' });
    const notPurchase = await addTxn(ctx, { orderNo: 'RF-GUARD-PAUT', tranType: 'PAUT' });
    const good = await addTxn(ctx, { orderNo: 'RF-GUARD-OK' });
    expect(await reserveReturn(ctx.db, declined.id, 100)).toBeNull();
    expect(await reserveReturn(ctx.db, notPurchase.id, 100)).toBeNull();
    expect(await reserveReturn(ctx.db, good.id, 100)).toBe(100);
    expect((await purchaseRow(declined.id)).return_amount).toBe(0);
    expect((await purchaseRow(notPurchase.id)).return_amount).toBe(0);
  });
});
