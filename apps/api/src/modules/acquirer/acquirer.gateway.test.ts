import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, pgUrlOf, type TestCtx } from '../../../test/helpers';
import { startFakeGateway, type FakeGateway } from '../../../test/fake-gateway';
import { addTxn, auth, loginWithStepUp } from '../txn/txn.fixtures';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { createHttpAcquirer } from './http.adapter';
import { signRequest, verifySignature } from './signature';
import { loadConfig } from '../../config';
import { resolveDueOperations, resolveOperation } from './operations.service';
import type { OperationRow } from './operations.repo';

/**
 * Refunds and charges through the HTTP gateway adapter against the fake gateway on loopback
 * (decision 033): signed requests, timeouts, 5xx, dropped connections, stale status answers, and
 * on PostgreSQL truly parallel refunds and a probe proving no row lock is held during a call.
 */
describe.each(DB_KINDS)('gateway adapter over HTTP (%s)', (kind) => {
  let ctx: TestCtx;
  let gw: FakeGateway;
  let demo: string;
  let probe: pg.Client | null = null;

  beforeAll(async () => {
    gw = await startFakeGateway();
    ctx = await createTestApp({
      kind,
      config: { acquirer: { kind: 'http', url: gw.url, signingKey: gw.signingKey, keyId: gw.keyId, timeoutMs: 300, retries: 1, retryDelayMs: 10 } },
    });
    if (kind === 'postgres') {
      probe = new pg.Client({ connectionString: pgUrlOf(ctx.db) });
      await probe.connect();
    }
  });
  afterAll(async () => {
    await probe?.end();
    await ctx?.close();
    await gw?.close();
  });
  beforeEach(async () => {
    gw.reset();
    // The job passes move the clock: a fresh step-up grant (5 minutes) for each test.
    demo = await loginWithStepUp(ctx);
  });

  const refund = (body: Record<string, string>) => ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form(body).headers }, payload: form(body).payload });
  const returnAmount = async (id: number) => (await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [id])).rows[0].return_amount;
  const txnOf = async (id: number) =>
    (await ctx.db.query<{ gw_response: string; gw_trans_id: string; source: string }>('SELECT gw_response, gw_trans_id, source FROM txn WHERE id = $1', [id])).rows[0];
  const opOf = async (txnId: number) => (await ctx.db.query<OperationRow>('SELECT * FROM acquirer_operation WHERE txn_id = $1', [txnId])).rows[0];
  const audits = async (target: string) =>
    (await ctx.db.query<{ action: string; outcome: string; detail: Record<string, unknown> }>('SELECT action, outcome, detail FROM audit_log WHERE target = $1 ORDER BY id', [target])).rows;
  /** Runs the acquirer job's pass once the backoff of every pending operation has passed. */
  const jobPass = async () => {
    ctx.clock.advance(61_000);
    return resolveDueOperations(ctx.deps);
  };
  /** PostgreSQL: tries to lock the purchase row from another connection, without waiting. */
  const lockProbe = (purchaseId: number) => async () => {
    await probe!.query('BEGIN');
    try {
      await probe!.query('SELECT id FROM txn WHERE id = $1 FOR UPDATE NOWAIT', [purchaseId]);
    } finally {
      await probe!.query('ROLLBACK');
    }
  };

  it('refunds through a signed request: one call, REFD 00, money reserved then kept, audited; no row lock held during the call (PostgreSQL probe)', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-OK', amount: 10000 });
    if (probe) gw.onRequest = lockProbe(p.id);
    const r = await refund({ id: p.gwTransId, amount: '25.50', requestKey: 'gw-ok-key-1' });
    expect(r.body.data).toMatchObject({ code: RefundCode.OK, msg: 'Refund successful', gwResponse: '00', returnAmount: '25.50', refundOrderNo: 'GW-OK-R1' });
    const refd = await txnOf(r.body.data.refundId);
    expect(refd).toMatchObject({ gw_response: '00', source: 'gateway' });
    const posts = gw.postsFor(refd.gw_trans_id);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ path: '/refunds', signed: true });
    expect(posts[0].hookError).toBeUndefined();
    expect(gw.ops.get(refd.gw_trans_id)).toMatchObject({ executions: 1, body: { kind: 'refund', amount: '25.50', currency: 'CNY', original: { gwTransId: p.gwTransId } } });
    expect(await opOf(r.body.data.refundId)).toMatchObject({ state: 'succeeded', attempts: 1, gw_response: '00', op_key: refd.gw_trans_id });
    expect(await returnAmount(p.id)).toBe(2550);
    expect((await audits(p.gwTransId)).map((a) => [a.action, a.outcome])).toEqual([
      ['txn.refund.reserve', 'success'],
      ['txn.refund.result', 'success'],
      ['txn.refund', 'success'],
    ]);
  });

  it('the lock probe does see a held purchase lock (so the test above can fail)', async ({ skip }) => {
    if (!probe) skip('PostgreSQL only: PGlite runs one transaction at a time, a second connection cannot probe');
    const p = await addTxn(ctx, { orderNo: 'GW-PROBE', amount: 1000 });
    await ctx.db.tx(async (q) => {
      await q.query('SELECT id FROM txn WHERE id = $1 FOR UPDATE', [p.id]);
      await expect(lockProbe(p.id)()).rejects.toThrow(/lock/);
    });
  });

  it('a timeout leaves the refund processing (said so to the merchant); the job asks the status and settles it once', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-SLOW', amount: 10000 });
    gw.script('post', { mode: 'slow', delayMs: 900 }, { mode: 'slow', delayMs: 900 });
    const r = await refund({ id: p.gwTransId, amount: '10.00', requestKey: 'gw-slow-key-1' });
    expect(r.body.data).toMatchObject({ code: RefundCode.OK, msg: 'Refund submitted, processing', gwResponse: '04', returnAmount: '10.00' });
    const zh = await ctx.call({ method: 'GET', url: `/api/txn/${r.body.data.refundId}`, headers: { ...auth(demo), 'accept-language': 'zh' } });
    expect(zh.body.data.gwResponse).toBe('04');
    const refd = await txnOf(r.body.data.refundId);
    expect(refd.gw_response).toBe('04');
    expect(await opOf(r.body.data.refundId)).toMatchObject({ state: 'pending', attempts: 1, last_error: expect.stringMatching(/timeout/) });
    // Not before its backoff: the job leaves it alone.
    expect((await resolveDueOperations(ctx.deps)).asked).toBe(0);
    expect(await jobPass()).toMatchObject({ settled: 1 });
    expect(await txnOf(r.body.data.refundId)).toMatchObject({ gw_response: '00' });
    expect(await returnAmount(p.id)).toBe(1000);
    // Two requests (the retry) with one key; the gateway acted once; the status query settled it.
    expect(gw.postsFor(refd.gw_trans_id)).toHaveLength(2);
    expect(gw.ops.get(refd.gw_trans_id)!.executions).toBe(1);
    expect(gw.calls.filter((c) => c.path === `/operations/${refd.gw_trans_id}`)).toHaveLength(1);
    // A repeat of the request key now answers the final result.
    expect((await refund({ id: p.gwTransId, amount: '10.00', requestKey: 'gw-slow-key-1' })).body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '00', msg: 'Refund successful' });
    // Asking again changes nothing.
    expect(await jobPass()).toEqual({ asked: 0, settled: 0 });
    expect((await audits(p.gwTransId)).filter((a) => a.action === 'txn.refund.result')).toHaveLength(1);
  });

  it('a 500 is retried at once with the same key and succeeds; 500s all the way leave it to the job, which sends it again (never lost, never twice)', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-500', amount: 10000 });
    gw.script('post', { mode: '500', execute: true });
    const r1 = await refund({ id: p.gwTransId, amount: '5.00' });
    expect(r1.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '00' });
    const k1 = (await txnOf(r1.body.data.refundId)).gw_trans_id;
    expect(gw.postsFor(k1)).toHaveLength(2);
    expect(gw.ops.get(k1)!.executions).toBe(1);

    gw.script('post', { mode: '500' }, { mode: 'drop' });
    const r2 = await refund({ id: p.gwTransId, amount: '6.00' });
    expect(r2.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '04' });
    const k2 = (await txnOf(r2.body.data.refundId)).gw_trans_id;
    expect(gw.ops.has(k2)).toBe(false);
    expect(await returnAmount(p.id)).toBe(1100);
    await jobPass();
    // The status query found nothing, so the same request went again under the same key.
    expect(gw.calls.filter((c) => c.key === k2).map((c) => `${c.method} ${c.mode}`)).toEqual(['POST 500', 'POST drop', 'GET ok', 'POST ok']);
    expect(gw.ops.get(k2)!.executions).toBe(1);
    expect(await txnOf(r2.body.data.refundId)).toMatchObject({ gw_response: '00' });
    expect(await returnAmount(p.id)).toBe(1100);
  });

  it('a final failure releases the reservation: declined at once, or decided later after "processing"', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-FAIL', amount: 10000 });
    const declined = await refund({ id: p.gwTransId, amount: '0.51' });
    expect(declined.body.data).toMatchObject({ code: RefundCode.DECLINED, gwResponse: '05', returnAmount: '0.00', msg: 'The refund was declined: Do not honour' });
    expect(await returnAmount(p.id)).toBe(0);

    gw.script('post', { mode: 'processing' });
    const r = await refund({ id: p.gwTransId, amount: '40.00', requestKey: 'gw-fail-key-1' });
    expect(r.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '04', returnAmount: '40.00' });
    const key = (await txnOf(r.body.data.refundId)).gw_trans_id;
    // Held while processing: only 60.00 is left to refund.
    expect((await refund({ id: p.gwTransId, amount: '60.01' })).body.data.code).toBe(RefundCode.OVER_AMOUNT);
    await jobPass();
    expect(await opOf(r.body.data.refundId)).toMatchObject({ state: 'pending', resp_msg: 'Processing' });
    gw.settle(key, 'failed');
    expect(await jobPass()).toMatchObject({ settled: 1 });
    expect(await txnOf(r.body.data.refundId)).toMatchObject({ gw_response: '05' });
    expect(await returnAmount(p.id)).toBe(0);
    expect((await refund({ id: p.gwTransId, amount: '40.00', requestKey: 'gw-fail-key-1' })).body.data).toMatchObject({ code: RefundCode.DECLINED, gwResponse: '05' });
    const result = (await audits(p.gwTransId)).filter((a) => a.action === 'txn.refund.result');
    expect(result.map((a) => [a.outcome, a.detail.released, a.detail.by])).toEqual([
      ['failure', true, 'user'],
      ['failure', true, 'system'],
    ]);
    expect((await refund({ id: p.gwTransId, amount: '100.00' })).body.data).toMatchObject({ code: RefundCode.OK, returnAmount: '100.00' });
  });

  it('answers out of order or twice move money once: a stale status is not a decision, a second final answer changes nothing', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-ORDER', amount: 10000 });
    gw.script('post', { mode: 'drop', execute: true }, { mode: 'drop' });
    const r = await refund({ id: p.gwTransId, amount: '30.00' });
    expect(r.body.data.gwResponse).toBe('04');
    const op = await opOf(r.body.data.refundId);
    gw.script('status', { mode: 'stale' });
    await jobPass();
    expect(await opOf(r.body.data.refundId)).toMatchObject({ state: 'pending', attempts: 2 });
    // Two askers at once (the job and the detail screen's button): one settles, the other finds it done.
    const both = await Promise.all([resolveOperation(ctx.deps, op.id), resolveOperation(ctx.deps, op.id)]);
    expect(both.filter((b) => b.changed)).toHaveLength(1);
    expect(await returnAmount(p.id)).toBe(3000);
    expect(gw.ops.get(op.op_key)!.executions).toBe(1);
    expect((await audits(p.gwTransId)).filter((a) => a.action === 'txn.refund.result')).toHaveLength(1);
  });

  it('a second, contradicting answer on the same connection is ignored: the first is recorded, money moves once', async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-TWICE', amount: 10000 });
    gw.script('post', { mode: 'twice' });
    const r = await refund({ id: p.gwTransId, amount: '7.00' });
    expect(r.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '00' });
    // The next requests (new connections if the old one was spoilt) still work.
    const r2 = await refund({ id: p.gwTransId, amount: '1.00' });
    expect(r2.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '00' });
    expect(await returnAmount(p.id)).toBe(800);
    await jobPass();
    expect(await txnOf(r.body.data.refundId)).toMatchObject({ gw_response: '00' });
    expect(gw.ops.get((await txnOf(r.body.data.refundId)).gw_trans_id)!.executions).toBe(1);
  });

  it(`parallel refunds never exceed the purchase, each sent once under its own key (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
    const p = await addTxn(ctx, { orderNo: 'GW-PAR', amount: 3000 });
    gw.script('post', { mode: '500' }, { mode: '500' }, { mode: 'slow', delayMs: 400 }, { mode: 'slow', delayMs: 400 });
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => refund({ id: p.gwTransId, amount: '3.00', requestKey: `gw-par-${i}-xxxx` })));
    const ok = results.filter((r) => r.body.data?.code === RefundCode.OK);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.body.data?.code === RefundCode.OVER_AMOUNT)).toHaveLength(6);
    expect(await returnAmount(p.id)).toBe(3000);
    await jobPass();
    const rows = (await ctx.db.query<{ amount: number; gw_response: string; gw_trans_id: string }>(`SELECT amount, gw_response, gw_trans_id FROM txn WHERE origin_txn_id = $1`, [p.id])).rows;
    expect(rows.map((x) => x.gw_response)).toEqual(Array(10).fill('00'));
    expect(rows.reduce((a, x) => a + x.amount, 0)).toBe(3000);
    for (const x of rows) expect(gw.ops.get(x.gw_trans_id)!.executions).toBe(1);
    expect(await returnAmount(p.id)).toBe(3000);
  });

  it('a pay-link charge goes to /charges with the card (never stored); a dropped answer is settled by the job and the order is paid', async () => {
    const o = await createOrder(ctx, demo, { totalAmount: '12.00', goodsPrice: '12.00' });
    gw.script('post', { mode: 'drop', execute: true }, { mode: 'drop' });
    expect((await buyerPay(ctx, o.linkToken, 'visa', '4111111111111111')).body.data).toMatchObject({ result: 'pending', status: '04', openStatus: '00' });
    const op = (await ctx.db.query<OperationRow>('SELECT * FROM acquirer_operation WHERE order_id = $1', [o.id])).rows[0];
    expect(op.request).toMatchObject({ kind: 'charge', maskedCard: '411111******1111' });
    expect(JSON.stringify(op.request)).not.toContain('4111111111111111');
    expect(gw.ops.get(op.op_key)!.body.card).toEqual({ number: '4111111111111111' });
    expect(await jobPass()).toMatchObject({ settled: 1 });
    const after = await ctx.call({ method: 'GET', url: `/api/checkout/${o.linkToken}/status` });
    expect(after.body.data).toMatchObject({ status: '00', payment: { result: 'success' } });
    expect((await txnOf(op.txn_id)).gw_response).toBe('00');
    expect((await audits(op.op_key)).map((a) => [a.action, a.outcome])).toEqual([
      ['checkout.charge', 'success'],
      ['checkout.charge.result', 'success'],
    ]);
    // A declined charge ends the order failed at once.
    const d = await createOrder(ctx, demo, { totalAmount: '12.51', goodsPrice: '12.51' });
    expect((await buyerPay(ctx, d.linkToken, 'visa', '4111111111111111')).body.data).toMatchObject({ result: 'failed', status: '01' });
  });

  it('signs every request: a wrong key is refused by the gateway and counts as no answer (nothing decided)', async () => {
    const bad = createHttpAcquirer({ url: gw.url, signingKey: 'x'.repeat(40), keyId: gw.keyId, timeoutMs: 300, retries: 0 });
    const req = { kind: 'refund' as const, idempotencyKey: 'G-unsigned-1', merchantId: DEMO.subA, orderNo: 'X-1', amount: '1.00', currency: 'CNY', channel: 'WX', brand: null };
    expect(await bad.refund(req)).toMatchObject({ kind: 'unknown', error: expect.stringMatching(/401/) });
    expect(gw.calls.at(-1)).toMatchObject({ signed: false });
    expect(gw.ops.has('G-unsigned-1')).toBe(false);
    const good = createHttpAcquirer({ url: gw.url, signingKey: gw.signingKey, keyId: gw.keyId, timeoutMs: 300, retries: 0 });
    expect(await good.status(req)).toEqual({ kind: 'not_found' });
    expect(await good.refund(req)).toMatchObject({ kind: 'final', gwResponse: '00' });
    // Same key, other body: the gateway refuses (409) and we decide nothing.
    expect(await good.refund({ ...req, amount: '2.00' })).toMatchObject({ kind: 'unknown', error: expect.stringMatching(/409/) });
  });
});

describe('ACQUIRER settings', () => {
  it('sandbox by default; http needs a URL and a signing key of at least 32 characters', () => {
    expect(loadConfig({}).acquirer).toMatchObject({ kind: 'sandbox', timeoutMs: 10_000, retries: 2, keyId: 'portal' });
    expect(() => loadConfig({ ACQUIRER: 'http' })).toThrow(/ACQUIRER=http needs ACQUIRER_URL and ACQUIRER_SIGNING_KEY/);
    expect(() => loadConfig({ ACQUIRER: 'http', ACQUIRER_URL: 'https://gw.example.com/v1', ACQUIRER_SIGNING_KEY: 'short' })).toThrow(/ACQUIRER_SIGNING_KEY/);
    expect(() => loadConfig({ ACQUIRER: 'ftp' })).toThrow(/ACQUIRER/);
    expect(() => loadConfig({ ACQUIRER: 'http', ACQUIRER_URL: 'file:///etc/passwd', ACQUIRER_SIGNING_KEY: 'k'.repeat(32) })).toThrow(/ACQUIRER_URL/);
    const c = loadConfig({ ACQUIRER: 'http', ACQUIRER_URL: 'https://gw.example.com/v1', ACQUIRER_SIGNING_KEY: 'k'.repeat(32), ACQUIRER_TIMEOUT_MS: '2500', ACQUIRER_RETRIES: '0' });
    expect(c.acquirer).toMatchObject({ kind: 'http', url: 'https://gw.example.com/v1', timeoutMs: 2500, retries: 0 });
  });

  it('the signature covers timestamp, method, path and body', () => {
    const key = 'k'.repeat(32);
    const sig = signRequest(key, '1764150000', 'post', '/v1/refunds', '{"a":1}');
    expect(verifySignature(key, '1764150000', 'POST', '/v1/refunds', '{"a":1}', sig)).toBe(true);
    for (const [ts, m, p, b] of [
      ['1764150001', 'POST', '/v1/refunds', '{"a":1}'],
      ['1764150000', 'GET', '/v1/refunds', '{"a":1}'],
      ['1764150000', 'POST', '/v1/voids', '{"a":1}'],
      ['1764150000', 'POST', '/v1/refunds', '{"a":2}'],
    ])
      expect(verifySignature(key, ts, m, p, b, sig)).toBe(false);
    expect(verifySignature('x'.repeat(32), '1764150000', 'POST', '/v1/refunds', '{"a":1}', sig)).toBe(false);
  });
});
