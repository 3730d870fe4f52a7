import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../helpers';
import { addTxn } from '../../src/modules/txn/txn.fixtures';
import { createApiKey, v1 } from '../../src/modules/apikey/apikey.fixtures';
import { createOrder, VALID_ORDER } from '../../src/modules/paybylink/paybylink.fixtures';
import { fillPath, routeKey, v1Routes, type ApiRoute } from './route-table';
import { receiveDispute } from '../../src/modules/disputes';

/**
 * The route-table access suite for the merchant API (/v1, issue 31): every /v1 route the app
 * registers — a route added tomorrow included — declares the permission its key must carry, and is
 * called without a key, with a made-up, a revoked and an expired key (401), with a key lacking that
 * permission (403), and with another merchant's record ids (404, as if absent).
 */
describe.each(DB_KINDS)('route table: /v1 keys, permissions, merchant scope (%s)', (kind) => {
  let ctx: TestCtx;
  let routes: (ApiRoute & { v1?: { permission: string } })[];
  let full: string;
  let foreignIds: string[];
  let foreignEvent: string;
  const keys: Record<string, string> = {};

  /** A valid body for each write (so a 404 is the record's, not the input's). */
  const body = (r: ApiRoute, id: string) =>
    r.method === 'GET' || r.method === 'DELETE' || r.url.endsWith('/close')
      ? undefined
      : /* issue 48 */ r.url.startsWith('/v1/disputes')
        ? r.url.endsWith('/statement')
          ? { statement: 'x' }
          : undefined
        : r.url.startsWith('/v1/webhook_endpoints')
          ? r.url.includes(':id')
            ? { description: 'x' }
            : { url: 'http://127.0.0.1:9/x', enabled_events: ['*'] }
          : r.url.startsWith('/v1/refunds')
            ? { transaction_id: Number(id), amount: '1.00' }
            : r.url.startsWith('/v1/in-store')
              ? { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '1.00' }
              : r.url.includes(':id')
                ? { goodsPrice: '120.50', goodsQuantity: '1', logFee: '0', totalAmount: '120.50' }
                : { ...VALID_ORDER, orderCurrency: 'CNY' };
  const call = (r: ApiRoute, key: string | null, id = '1', remoteAddress?: string) =>
    v1(ctx, key, {
      method: r.method,
      url: fillPath(r.url, () => id),
      headers: { 'idempotency-key': `sec-${r.method}-${id}-${Math.random().toString(36).slice(2, 10)}` },
      ...(body(r, id) ? { payload: body(r, id) } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    routes = v1Routes(ctx.routes);
    const demo = (await ctx.login()).token;
    const needed = [...new Set(routes.map((r) => r.v1?.permission).filter(Boolean))] as string[];
    full = (await createApiKey(ctx, demo, { permissions: needed })).secret;
    // One key per permission: it holds everything but that one (notice:list keeps it non-empty).
    for (const p of needed) keys[p] = (await createApiKey(ctx, demo, { permissions: [Perm.noticeList, ...needed.filter((x) => x !== p)] })).secret;
    const revoked = await createApiKey(ctx, demo, { permissions: needed });
    const f = form({ id: revoked.id });
    await ctx.call({ method: 'POST', url: '/api/developer/keys/revoke', headers: { ...f.headers, 'x-token': demo }, payload: f.payload });
    keys.revoked = revoked.secret;
    const expired = await createApiKey(ctx, demo, { permissions: needed, expiresOn: '2099-01-01' });
    await ctx.db.query("UPDATE api_key SET expires_at = now() - interval '1 minute' WHERE id = $1", [expired.id]);
    keys.expired = expired.secret;
    const t = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const otherKey = await createApiKey(ctx, (await ctx.login(DEMO.users.other)).token, { merIds: [DEMO.other], permissions: [Perm.txnRefund] });
    const refd = await v1(ctx, otherKey.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': 'other-refund-1' }, payload: { transaction_id: t.id, amount: '1.00' } });
    expect(refd.status, JSON.stringify(refd.body)).toBe(201);
    const o = await createOrder(ctx, (await ctx.login(DEMO.users.other)).token, { orderCurrency: 'SGD' });
    const otherToken = (await ctx.login(DEMO.users.other)).token;
    const pis = await ctx.call({
      method: 'POST',
      url: '/api/payInStore/add',
      headers: { ...form({}).headers, 'x-token': otherToken },
      payload: form({ storeId: DEMO.stores.orchard, orderCurrency: 'SGD', totalAmount: '5.00', goodsName: 'x' }).payload,
    });
    expect(pis.body.code, pis.body.msg).toBe(0);
    // Issue 50: the other merchant's webhook endpoint and event.
    const ep = await ctx.db.query<{ id: number }>("INSERT INTO webhook_endpoint (mer_id, url, events, secret_key_id, secret_enc) VALUES ($1, 'http://127.0.0.1:9/x', '{*}', 'k', 'x') RETURNING id", [
      DEMO.other,
    ]);
    const ev = await ctx.db.query<{ event_id: string }>("INSERT INTO webhook_event (mer_id, type, data) VALUES ($1, 'transaction.succeeded', '{}') RETURNING event_id", [DEMO.other]);
    foreignIds = [String(t.id), String(refd.body.id), String(o.id), String(pis.body.data.id), String(ep.rows[0].id)];
    foreignEvent = ev.rows[0].event_id;
    // Issue 48: a dispute of the other merchant's purchase.
    const dsp = await ctx.db.tx((q) =>
      receiveDispute(
        q,
        {
          gwDisputeId: 'DSP-V1-OTHER',
          gwTransId: t.gwTransId,
          kind: 'chargeback',
          state: 'needs_response',
          reasonCode: '13.1',
          amount: 100,
          currency: 'SGD',
          deadline: new Date(Date.now() + 9 * 86_400_000),
        },
        { platformTz: ctx.config.platformTz, now: new Date(), by: 'test' },
      ),
    );
    foreignIds.push(String(dsp.dispute.id));
  });
  afterAll(() => ctx?.close());

  it('collects the /v1 routes, each with the permission its key needs', () => {
    expect(routes.length).toBeGreaterThanOrEqual(5);
    expect(routes.map(routeKey)).toContain('POST /v1/refunds');
    expect(routes.filter((r) => !r.v1?.permission).map(routeKey)).toEqual([]);
  });

  it('every route: 401 without a key, with a made-up, a revoked or an expired key', async () => {
    const failures: string[] = [];
    // Each route's refusals from an address of its own: failed authentications are throttled per address (issue 47).
    for (const [i, r] of routes.entries()) {
      for (const [what, key, code] of [
        ['none', null, 'api_key_missing'],
        ['made-up', `mpk_AAAAAAAAAAAA_${'B'.repeat(43)}`, 'api_key_invalid'],
        ['revoked', keys.revoked, 'api_key_revoked'],
        ['expired', keys.expired, 'api_key_expired'],
      ] as const) {
        const res = await call(r, key, '1', `127.0.${i + 1}.1`);
        if (res.status !== 401 || res.body?.error?.code !== code) failures.push(`${routeKey(r)} ${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every route: 403 to a key without its permission', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      const res = await call(r, keys[r.v1!.permission]);
      if (res.status !== 403 || res.body?.error?.type !== 'permission_error') failures.push(`${routeKey(r)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every route taking an id: another merchant's records answer 404; nothing of them leaks", async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.url.includes(':id') || routeKey(x) === 'POST /v1/refunds')) {
      for (const id of r.url.startsWith('/v1/events') ? [...foreignIds, foreignEvent] : r.url.startsWith('/v1/stores') ? [...foreignIds, DEMO.stores.orchard] : foreignIds) {
        const res = await call(r, full, id);
        if (res.status !== 404 || res.body?.error?.type !== 'not_found_error') failures.push(`${routeKey(r)} id ${id} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    for (const r of routes.filter((x) => x.method === 'GET' && !x.url.includes(':'))) {
      const res = await call(r, full);
      if (JSON.stringify(res.body).includes(DEMO.other)) failures.push(`${routeKey(r)} leaks ${DEMO.other}`);
    }
    expect(failures).toEqual([]);
  });
  it("issue 50 round two: expand[] and metadata never reach another merchant's records; the expanded transfer needs its permission", async () => {
    const failures: string[] = [];
    const [, refundId, orderId] = foreignIds;
    const asked = [
      { method: 'GET', url: `/v1/refunds/${refundId}`, query: { 'expand[]': 'purchase' } },
      { method: 'POST', url: `/v1/payment-links/${orderId}`, payload: { metadata: { x: 'y' } } },
    ] as const;
    for (const a of asked) {
      const res = await v1(ctx, full, { ...a, headers: { 'idempotency-key': `sec-x-${Math.random().toString(36).slice(2, 10)}` } });
      if (res.status !== 404) failures.push(`${a.method} ${a.url} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    const meta = await ctx.db.query<{ metadata: unknown }>('SELECT metadata FROM pay_by_link_order WHERE id = $1', [orderId]);
    expect(meta.rows[0].metadata).toEqual({});
    await ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       VALUES ('2026-07-01', $1, 'ONLINE', 'SGD', 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-07-02', '2026-07-01'),
              ('2026-07-01', $2, 'ONLINE', 'CNY', 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-07-02', '2026-07-01')`,
      [DEMO.other, DEMO.subA],
    );
    const foreign = await v1(ctx, full, { method: 'GET', url: `/v1/settlements/2026-07-01.${DEMO.other}.ONLINE.SGD`, query: { 'expand[]': 'transfer' } });
    if (foreign.status !== 404) failures.push(`GET /v1/settlements (another merchant's, expanded) → ${foreign.status}`);
    // The lists expanded (decision 075): another merchant's rows neither listed nor inlined, with or without its merId.
    const lists = [
      ['/v1/refunds', { 'expand[]': 'data.purchase', merId: DEMO.other }],
      ['/v1/refunds', { 'expand[]': 'data.purchase', limit: '100' }],
      ['/v1/settlements', { beginDate: '2026-07-01', endDate: '2026-07-31', 'expand[]': 'data.transfer', merId: DEMO.other }],
      ['/v1/settlements', { beginDate: '2026-07-01', endDate: '2026-07-31', 'expand[]': 'data.transfer' }],
    ] as const;
    for (const [url, query] of lists) {
      const res = await v1(ctx, full, { method: 'GET', url, query });
      if (res.status !== 200 || JSON.stringify(res.body).includes(DEMO.other)) failures.push(`GET ${url} ${JSON.stringify(query)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    const noTransfer = await v1(ctx, keys[Perm.reportTransfer], { method: 'GET', url: `/v1/settlements/2026-07-01.${DEMO.subA}.ONLINE.CNY`, query: { 'expand[]': 'transfer' } });
    expect(noTransfer.status, JSON.stringify(noTransfer.body)).toBe(403);
    expect(noTransfer.body.error.code).toBe('permission_missing');
  });
});
