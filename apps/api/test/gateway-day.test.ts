import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from './helpers';
import { startFakeGateway, type FakeGateway } from './fake-gateway';
import { feedRow, makeConnection, signedCall, type TestKey } from '../src/modules/gateway/gateway.fixtures';
import { loginWithStepUp, auth } from '../src/modules/txn/txn.fixtures';
import { resolveDueOperations } from '../src/modules/acquirer/operations.service';
import { settleDate } from '../src/modules/payments/settlement/settle.run';
import { checkInvariants } from '../src/modules/payments/settlement/invariants';
import { reconcileDay } from '../src/modules/gateway/recon.service';
import { formatInZone } from '../src/modules/txn/time';

const TX = '/provider/v1/transactions';

/**
 * Issue 25, "Done when": a whole day through the provider API, on both databases — signed batches
 * (with a duplicate, a rejected row and a late status), a refund the merchant asks for through the
 * HTTP gateway adapter to the fake gateway (which first times out; the gateway's own feed then
 * reports the refund's result), the settlement run and the reconciliation: the invariants hold
 * and the merchant's list, detail and report show the day.
 */
describe.each(DB_KINDS)('a gateway day end to end (%s)', (kind) => {
  let ctx: TestCtx;
  let gw: FakeGateway;
  let key: TestKey;
  let demo: string;

  beforeAll(async () => {
    gw = await startFakeGateway();
    ctx = await createTestApp({
      kind,
      config: { acquirer: { kind: 'http', url: gw.url, signingKey: gw.signingKey, keyId: gw.keyId, timeoutMs: 300, retries: 1, retryDelayMs: 10 } },
    });
    key = await makeConnection(ctx, 'acme-gw', [DEMO.group, DEMO.subA]);
    demo = await loginWithStepUp(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await gw?.close();
  });

  it('feed → late status → refund over HTTP (timeout, then the feed settles it) → settlement → reconciliation', async () => {
    const tz = ctx.config.platformTz;
    const day = formatInZone(ctx.clock.now(), tz).slice(0, 10);
    const at = () =>
      ctx.clock
        .now()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
    const p1 = feedRow({ currentTime: at(), gwAmount: '200.00' });
    const p2 = feedRow({ currentTime: at(), gwAmount: '50.50', paymentBrand: 'mastercard' });
    const p3 = feedRow({ currentTime: at(), gwAmount: '80.00', gwResponse: '04' });
    const bad = feedRow({ currentTime: at(), gwCurrency: 'XXX' });

    // 1. a signed batch: three accepted, the bad row rejected alone; the same rows again are duplicates
    const first = await signedCall(ctx, key, 'POST', TX, { transactions: [p1, p2, p3, bad] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'rejected']);
    const again = await signedCall(ctx, key, 'POST', TX, { transactions: [p1, p2] });
    expect(again.body.data.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate']);

    // 2. a late status: the processing purchase succeeds
    const st = await signedCall(ctx, key, 'POST', `${TX}/${p3.gwGTransId}/status`, { gwResponse: '00' });
    expect(st.body.data).toMatchObject({ gwResponse: '00', changed: true });

    // 3. the merchant refunds 30.00 of p1; the gateway times out twice: the refund stays processing
    const purchase = (await ctx.db.query<{ id: number }>('SELECT id FROM txn WHERE gw_trans_id = $1', [p1.gwGTransId])).rows[0];
    gw.script('post', { mode: 'slow', delayMs: 900 }, { mode: 'slow', delayMs: 900 });
    const refundBody = { id: p1.gwGTransId as string, amount: '30.00', requestKey: 'day-refund-1' };
    const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form(refundBody).headers }, payload: form(refundBody).payload });
    expect(r.body.data).toMatchObject({ code: RefundCode.OK, gwResponse: '04', returnAmount: '30.00' });
    const refd = (await ctx.db.query<{ gw_trans_id: string; gw_response: string }>('SELECT gw_trans_id, gw_response FROM txn WHERE id = $1', [r.body.data.refundId])).rows[0];
    expect(refd.gw_response).toBe('04');
    const processing = await ctx.call({ method: 'GET', url: `/api/txn/${r.body.data.refundId}`, headers: auth(demo) });
    expect(processing.body.data.gwResponse).toBe('04');

    // 4. the gateway's feed reports the refund, done, in its next batch (under the id the portal sent
    //    it), stamped with the gateway's own time (seconds after the portal's) and its own channel
    //    order number: the portal's row is matched on what the refund fixed, not on those.
    const row = (
      await ctx.db.query<{ order_no: string; txn_time: Date; payment_schema: string; payment_brand: string }>('SELECT order_no, txn_time, payment_schema, payment_brand FROM txn WHERE id = $1', [
        r.body.data.refundId,
      ])
    ).rows[0];
    const refundRow = {
      gwGTransId: refd.gw_trans_id,
      clientid: DEMO.group,
      orderNum: row.order_no,
      originorderno: p1.orderNum,
      gwTranType: 'REFD',
      gwResponse: '00',
      gwAmount: '30.00',
      gwCurrency: 'HKD',
      paymentSchema: row.payment_schema,
      paymentBrand: row.payment_brand,
      currentTime: new Date(new Date(row.txn_time).getTime() + 7_000).toISOString(),
      cardNumber: p1.cardNumber,
      channelOrderNo: 'GW-CH-REF-1',
    };
    // The same id with another amount is still a conflict.
    const wrong = await signedCall(ctx, key, 'POST', TX, { transactions: [{ ...refundRow, gwAmount: '31.00' }] });
    expect(wrong.body.data.results[0]).toMatchObject({ status: 'rejected', field: 'gwAmount' });
    const fed = await signedCall(ctx, key, 'POST', TX, { transactions: [refundRow] });
    expect(fed.body.data.results[0], JSON.stringify(fed.body.data.results[0])).toMatchObject({ status: 'accepted' });
    const op = (await ctx.db.query<{ state: string }>('SELECT state FROM acquirer_operation WHERE txn_id = $1', [r.body.data.refundId])).rows[0];
    expect(op.state, 'the operation follows the feed').toBe('succeeded');
    // the job finds nothing left to ask; the gateway was asked to refund under one key only
    ctx.clock.advance(61_000);
    expect(await resolveDueOperations(ctx.deps)).toMatchObject({ settled: 0 });
    const posts = gw.postsFor(refd.gw_trans_id);
    expect(posts.length).toBeGreaterThan(0);
    expect(new Set(posts.map((c) => c.key))).toEqual(new Set([refd.gw_trans_id]));
    expect((await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [purchase.id])).rows[0].return_amount).toBe(3000);

    // 5. control totals for the day, the settlement run of the next day, the reconciliation
    const ct = await signedCall(ctx, key, 'POST', '/provider/v1/control-totals', {
      date: day,
      totals: [
        { gwCurrency: 'HKD', gwTranType: 'PURC', count: 3, sum: '330.50' },
        { gwCurrency: 'HKD', gwTranType: 'REFD', count: 1, sum: '30.00' }, // amounts as the rows carry them
      ],
    });
    expect(ct.body.code, JSON.stringify(ct.body)).toBe(0);
    const next = formatInZone(new Date(ctx.clock.now().getTime() + 86_400_000), tz).slice(0, 10);
    await settleDate(ctx.db, next);
    const [recon] = await reconcileDay(ctx.db, day, { platformTz: tz, connectionId: 'acme-gw' });
    const diffs = (await ctx.db.query('SELECT kind, gw_trans_id, detail FROM recon_difference WHERE connection_id = $1 AND txn_date = $2', ['acme-gw', day])).rows;
    expect(recon.controlTotals).toBe(true);
    expect(diffs, JSON.stringify(diffs)).toEqual([]);
    const broken = Object.entries(await checkInvariants(ctx.db)).filter(([, rows]) => rows.length);
    expect(broken, JSON.stringify(broken)).toEqual([]);

    // 6. the merchant sees it: the list with the refund, the detail, the day's bill report row
    const list = await ctx.call({ method: 'GET', url: `/api/txn/list?page=0&size=10&orderNum=${p1.orderNum}`, headers: auth(demo) });
    expect(list.body.data.content.map((t: { gwTranType: string; gwResponse: string }) => `${t.gwTranType}:${t.gwResponse}`).sort()).toEqual(['PURC:00']);
    const refunds = await ctx.call({ method: 'GET', url: `/api/txn/list?page=0&size=10&originOrderNum=${p1.orderNum}`, headers: auth(demo) });
    expect(refunds.body.data.content).toHaveLength(1);
    expect(refunds.body.data.content[0]).toMatchObject({ gwTranType: 'REFD', gwResponse: '00', gwAmount: '30.00' });
    const detail = await ctx.call({ method: 'GET', url: `/api/txn/${purchase.id}`, headers: auth(demo) });
    expect(detail.body.data).toMatchObject({ gwResponse: '00' });
    const bill = await ctx.call({ method: 'GET', url: `/api/report/bill/list?page=0&size=10&beginDate=${next}&endDate=${next}&merId=${DEMO.group}`, headers: auth(demo) });
    expect(bill.body.code, JSON.stringify(bill.body)).toBe(0);
  });
});
