import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { deliverDue } from '../webhook/webhook.deliver';
import { addEndpoint, demoUser, startReceiver } from '../webhook/webhook.fixtures';
import { deliveryDetail } from '../webhook/webhook.deliveries';

/**
 * Issue 50, decision 075: one id form and one time format per object across /v1 and the webhooks.
 * From Portal-Version 2026-12-03 an event names its object by the /v1 id and writes every time in
 * ISO-8601 UTC (`created_at` on the envelope); an endpoint's version is pinned at its creation, and
 * an endpoint (or a GET /v1/events) of an older version is still sent the old shape, byte for byte.
 */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PG = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

describe.each(DB_KINDS)('/v1 and webhook payloads: one id form and one time format (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  const drain = async () => {
    for (let i = 0; i < 10 && (await deliverDue(ctx.deps, 100)).tried > 0; i++);
  };
  const endpoint = async (payload: Record<string, unknown>, headers?: Record<string, string>) => {
    const r = await v1(ctx, key.secret, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: rx.url, enabled_events: ['*'], ...payload },
      ...(headers ? { headers: { ...headers, 'idempotency-key': `ep-${Math.random().toString(36).slice(2)}` } } : {}),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: [Perm.txnList, Perm.txnDetail, Perm.developerWebhooks, Perm.settleDetail] });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await ctx?.close();
  });

  it('an endpoint pins the version: the newest from the key, or the one asked for; bad input, a missing permission, another merchant refused', async () => {
    const now = await endpoint({ merchant_id: DEMO.subA });
    expect(now.api_version).toBe('2026-12-03');
    expect((await endpoint({ merchant_id: DEMO.subA, api_version: '2026-12-01' })).api_version).toBe('2026-12-01');
    expect((await endpoint({ merchant_id: DEMO.subA }, { 'portal-version': '2026-06-01' })).api_version).toBe('2026-06-01');
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/webhook_endpoints/${now.id}` })).body.api_version).toBe('2026-12-03');
    const bad = await v1(ctx, key.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: rx.url, enabled_events: ['*'], merchant_id: DEMO.subA, api_version: '2027-01-01' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('api_version');
    const nope = await createApiKey(ctx, demo, { permissions: [Perm.txnList] });
    expect((await v1(ctx, nope.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: rx.url, enabled_events: ['*'], api_version: '2026-12-03' } })).status).toBe(403);
    expect(
      (await v1(ctx, key.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: rx.url, enabled_events: ['*'], merchant_id: DEMO.other, api_version: '2026-12-03' } })).status,
    ).toBe(404);
  });

  it('a transaction: the new version names it by its /v1 id with ISO times; the old version keeps its shape (delivered and pulled)', async () => {
    const fresh = await endpoint({ merchant_id: DEMO.group, enabled_events: ['transaction.succeeded'] });
    const old = await endpoint({ merchant_id: DEMO.group, enabled_events: ['transaction.succeeded'], api_version: '2026-12-01' });
    const p = await addTxn(ctx, { merId: DEMO.group, orderNo: `EF-${kind}-1`, currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    await drain();
    const got = rx.got.filter((g) => (g.event.data.orderNo ?? g.event.data.order_no) === `EF-${kind}-1`);
    expect(got).toHaveLength(2);
    const [nw, od] = [got.find((g) => 'created_at' in g.event)!, got.find((g) => 'created' in g.event)!];
    expect(nw && od).toBeTruthy();
    const n = JSON.parse(nw.body);
    expect(n.created_at).toMatch(ISO);
    expect(n).not.toHaveProperty('created');
    expect(n.data).toMatchObject({ id: p.id, gateway_id: p.gwTransId, created_at: '2026-11-10T04:00:00.000Z', order_no: `EF-${kind}-1` });
    expect(Object.keys(n.data).filter((k) => k.startsWith('_'))).toEqual([]);
    // One public transaction shape (decision 079): the event's data is the very object GET /v1/transactions/{id} answers.
    const t = await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${n.data.id}` });
    expect(t.body).toEqual(n.data);
    // The old shape, exactly: Unix seconds, the gateway id as id, PostgreSQL's time form, no /v1 id.
    const o = JSON.parse(od.body);
    expect(o.created).toBeTypeOf('number');
    expect(o).not.toHaveProperty('created_at');
    expect(o.data.id).toBe(p.gwTransId);
    expect(o.data.time).toMatch(PG);
    expect(Object.keys(o.data).sort()).toEqual(['amount', 'brand', 'channel', 'currency', 'gwResponse', 'id', 'merId', 'metadata', 'orderNo', 'originalOrderNo', 'respMsg', 'storeId', 'time', 'type']);
    // GET /v1/events answers in the request's version: the key's (the new), or the header's (the old) — each the body delivered.
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${n.id}` })).body).toEqual(n);
    const pulledOld = await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${n.id}`, headers: { 'portal-version': '2026-12-01' } });
    expect(pulledOld.body).toEqual(o);
    const listed = await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type: 'transaction.succeeded', merId: DEMO.group }, headers: { 'portal-version': '2026-06-01' } });
    expect(listed.body.data.find((e: { id: string }) => e.id === o.id)).toEqual(o);
    // The portal's delivery log shows each delivery's body as its endpoint got it.
    const d = await ctx.db.query<{ endpoint_id: number; id: number }>('SELECT d.id, d.endpoint_id FROM webhook_delivery d JOIN webhook_event v ON v.id = d.event_id WHERE v.event_id = $1', [n.id]);
    const user = await demoUser(ctx, [DEMO.group]);
    const bodies = new Map<number, string>();
    for (const row of d.rows) bodies.set(Number(row.endpoint_id), (await deliveryDetail(ctx.deps, user, 'en', Number(row.id))).body);
    expect(bodies.get(fresh.id)).toBe(nw.body);
    expect(bodies.get(old.id)).toBe(od.body);
    // Another merchant's event stays absent in every version.
    await addEndpoint(ctx, DEMO.other, rx.url, ['transaction.succeeded']);
    const theirs = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const ev = await ctx.db.query<{ event_id: string }>("SELECT event_id FROM webhook_event WHERE mer_id = $1 AND data->>'id' = $2", [DEMO.other, theirs.gwTransId]);
    expect(ev.rows).toHaveLength(1);
    for (const version of ['2026-12-03', '2026-12-01'])
      expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${ev.rows[0].event_id}`, headers: { 'portal-version': version } })).status).toBe(404);
  });

  it('a pay link paid: the order by its /v1 id, its transaction by the /v1 number (the gateway id beside); a settlement by its /v1 id', async () => {
    const order = await createOrder(ctx, demo, { totalAmount: '20.00', goodsPrice: '20.00' });
    expect((await buyerPay(ctx, order.linkToken)).body.code).toBe(0);
    const evs = (await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type: 'paylink.paid', limit: '100' } })).body.data;
    const e = evs.find((x: any) => x.data.orderNo === order.orderNo);
    expect(e.data.id).toBe(order.id);
    expect(e.data.transactionId).toBeTypeOf('number');
    expect(e.data.paidAt).toMatch(ISO);
    expect(e.data.expiresAt).toMatch(ISO);
    const t = await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${e.data.transactionId}` });
    expect(t.body.gateway_id).toBe(e.data.gatewayId);
    const old = (await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${e.id}`, headers: { 'portal-version': '2026-12-01' } })).body;
    expect(old.data.transactionId).toBe(e.data.gatewayId);
    expect(old.data).not.toHaveProperty('id');
    expect(old.data.paidAt).toMatch(PG);

    await ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       VALUES ('2026-10-05', $1, 'ONLINE', 'CNY', 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-10-06', '2026-10-05')`,
      [DEMO.subA],
    );
    const s = (await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type: 'settlement.transferred', merId: DEMO.subA } })).body.data[0];
    expect(s.data.id).toBe(`2026-10-05.${DEMO.subA}.ONLINE.CNY`);
    expect(s.data.settlementDate).toBe('2026-10-05');
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/settlements/${s.data.id}` })).body.id).toBe(s.data.id);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${s.id}`, headers: { 'portal-version': '2026-12-01' } })).body.data).not.toHaveProperty('id');
  });
});
