import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createPortalClient, listAll, orThrow, paginate, paginatePages, PortalApiError, verifyPortalSignature, verifyStandardWebhook, verifyWebhook, type PortalClient } from '@portal/sdk';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from './helpers';
import { addTxn } from '../src/modules/txn/txn.fixtures';
import { createApiKey } from '../src/modules/apikey/apikey.fixtures';
import { startReceiver } from '../src/modules/webhook/webhook.fixtures';
import { deliverDue } from '../src/modules/webhook/webhook.deliver';
import { readSdkTypes, sdkTypesOf } from './sdk-types';

/**
 * The SDK (packages/sdk, issue 50; decision 075) against a running API server (a real port, the
 * global fetch): its generated types are the live document's, typed calls and their refusals,
 * auto-pagination (cursor and numbered pages), retries that keep the Idempotency-Key (a POST whose
 * answer was lost is replayed, not done twice) and the webhook helpers on real deliveries of both
 * signature schemes.
 */
describe.each(DB_KINDS)('@portal/sdk against a running server (%s)', (kind) => {
  let ctx: TestCtx;
  let base: string;
  let secret: string;
  let api: PortalClient;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const demo = (await ctx.login()).token;
    secret = (
      await createApiKey(ctx, demo, {
        permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund, Perm.settleDetail, Perm.reportTransfer, Perm.developerWebhooks],
      })
    ).secret;
    api = createPortalClient({ baseUrl: base, apiKey: secret, sleep });
  });
  afterAll(() => ctx?.close());

  it.skipIf(kind !== DB_KINDS[0])('its generated types are those of the live /v1 document (else: npm run sdk:generate)', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    expect(readSdkTypes() === (await sdkTypesOf(doc)), 'packages/sdk/src/generated/v1.ts differs from /v1/docs/json: run `npm run sdk:generate`').toBe(true);
  });

  it('typed calls answer the objects; refusals: bad input, a missing permission, another merchant’s data', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 4200 });
    const t = orThrow(await api.GET('/v1/transactions/{id}', { params: { path: { id: p.id } } }));
    expect(t).toMatchObject({ id: p.id, gateway_id: p.gwTransId, amount: '42.00', currency: 'CNY' });
    // Bad input: the error's param names the field; orThrow throws a PortalApiError.
    const bad = await api.GET('/v1/transactions', { params: { query: { limit: 1000 } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.param).toBe('limit');
    expect(() => orThrow(bad)).toThrow(PortalApiError);
    // A key without the permission: 403 permission_error.
    const demo = (await ctx.login()).token;
    const reader = createPortalClient({ baseUrl: base, apiKey: (await createApiKey(ctx, demo, { permissions: [Perm.txnDetail] })).secret, sleep });
    const refused = await reader.POST('/v1/refunds', { body: { transaction_id: p.id, amount: '1.00' } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.type).toBe('permission_error');
    // Another merchant's transaction answers as absent.
    const theirs = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const absent = await api.GET('/v1/transactions/{id}', { params: { path: { id: theirs.id } } });
    expect(absent.response.status).toBe(404);
    expect(absent.error?.error.type).toBe('not_found_error');
    // The version asked for the whole client is sent (and echoed).
    const pinned = createPortalClient({ baseUrl: base, apiKey: secret, version: '2026-06-01' });
    expect((await pinned.GET('/v1/transactions/{id}', { params: { path: { id: p.id } } })).response.headers.get('portal-version')).toBe('2026-06-01');
  });

  it('auto-pagination: every row once over cursor pages; numbered pages of settlements', async () => {
    for (let i = 0; i < 7; i++) await addTxn(ctx, { merId: DEMO.subB, amount: 100 + i, currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const one = orThrow(await api.GET('/v1/transactions', { params: { query: { merId: DEMO.subB, limit: 100 } } }));
    const paged = await listAll(api, '/v1/transactions', { merId: DEMO.subB, limit: 2 });
    expect(paged.map((x) => x.id)).toEqual(one.data.map((x) => x.id));
    expect(new Set(paged.map((x) => x.id)).size).toBe(paged.length);
    expect(paged.length).toBeGreaterThanOrEqual(7);
    // A refusal throws a PortalApiError (here: a parameter the list does not know).
    await expect(listAll(api, '/v1/transactions', { merId: DEMO.subB, limit: 2, nope: 1 } as never)).rejects.toThrow(PortalApiError);
    // Numbered pages: 12 batches in 2 pages of 10.
    await ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       SELECT d::date, $1, 'ONLINE', 'CNY', 1, 100, 1, 0, 0, 99, 0, 0, 0, 99, 0, 99, 0, 'D', d::date + 1, d::date
         FROM generate_series('2026-05-01'::date, '2026-05-12'::date, interval '1 day') d`,
      [DEMO.subA],
    );
    const batches: string[] = [];
    for await (const b of paginatePages(api, '/v1/settlements', { beginDate: '2026-05-01', endDate: '2026-05-31', size: 10 })) batches.push(b.id);
    expect(batches).toHaveLength(12);
    expect(new Set(batches).size).toBe(12);
    // for await over a generator stops where the caller stops.
    let n = 0;
    for await (const _ of paginate(api, '/v1/transactions', { merId: DEMO.subB, limit: 2 })) if (++n === 3) break;
    expect(n).toBe(3);
  });

  it('retries keep the Idempotency-Key: a refund whose answer was lost is replayed, not made twice; 503 and 429 are waited for', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    const keys: string[] = [];
    let lose = true;
    const lossy = createPortalClient({
      baseUrl: base,
      apiKey: secret,
      sleep,
      fetch: async (req) => {
        keys.push(req.headers.get('idempotency-key') ?? '');
        const res = await fetch(req);
        if (lose) {
          lose = false;
          await res.arrayBuffer();
          throw new TypeError('fetch failed: the connection was reset'); // the server did it; the answer is lost
        }
        return res;
      },
    });
    const made = await lossy.POST('/v1/refunds', { body: { transaction_id: p.id, amount: '3.00' } });
    expect(made.response.status).toBe(201);
    expect(made.response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keys[1]).toBe(keys[0]);
    const refunds = await ctx.db.query("SELECT id FROM txn WHERE tran_type = 'REFD' AND origin_txn_id = $1", [p.id]);
    expect(refunds.rows).toHaveLength(1);
    expect(made.data?.id).toBe(Number(refunds.rows[0].id));
    // A key of the caller's own is kept.
    const own = await api.POST('/v1/refunds', { params: { header: { 'Idempotency-Key': 'my-own-key-1' } }, body: { transaction_id: p.id, amount: '1.00' } });
    const again = await api.POST('/v1/refunds', { params: { header: { 'Idempotency-Key': 'my-own-key-1' } }, body: { transaction_id: p.id, amount: '1.00' } });
    expect(again.data?.id).toBe(own.data?.id);
    // 503, then 429 with Retry-After: 2, then the answer; a third failure is returned as it is.
    sleeps.length = 0;
    const plan = [503, 429];
    const flaky = createPortalClient({
      baseUrl: base,
      apiKey: secret,
      sleep,
      fetch: async (req) => {
        const s = plan.shift();
        return s ? new Response('{}', { status: s, headers: s === 429 ? { 'retry-after': '2' } : {} }) : fetch(req);
      },
    });
    expect((await flaky.GET('/v1/transactions/{id}', { params: { path: { id: p.id } } })).response.status).toBe(200);
    expect(sleeps[1]).toBe(2000);
    const down = createPortalClient({ baseUrl: base, apiKey: secret, sleep, retries: 1, fetch: async () => new Response('{}', { status: 502 }) });
    expect((await down.GET('/v1/transactions/{id}', { params: { path: { id: p.id } } })).response.status).toBe(502);
  });

  it('webhook helpers verify real deliveries of both schemes, and refuse a changed body or an old timestamp', async () => {
    const rx = await startReceiver();
    try {
      const stripe = orThrow(await api.POST('/v1/webhook_endpoints', { body: { url: rx.url, enabled_events: ['transaction.succeeded'], merchant_id: DEMO.group } }));
      const standard = orThrow(await api.POST('/v1/webhook_endpoints', { body: { url: rx.url, enabled_events: ['*'], merchant_id: DEMO.group, signature_scheme: 'standard' } }));
      const p = await addTxn(ctx, { merId: DEMO.group });
      for (let i = 0; i < 5 && (await deliverDue(ctx.deps, 100)).tried > 0; i++);
      // The key's version (the newest): data is the /v1 Transaction (decision 079), its id the /v1 id, the gateway's gateway_id.
      const mine = rx.got.filter((g) => g.event.data.gateway_id === p.gwTransId);
      expect(mine).toHaveLength(2);
      const viaStripe = mine.find((g) => g.headers['portal-signature'])!;
      const viaStandard = mine.find((g) => g.headers['webhook-signature'])!;
      expect(verifyPortalSignature(viaStripe.body, String(viaStripe.headers['portal-signature']), stripe.secret).type).toBe('transaction.succeeded');
      expect(verifyStandardWebhook(viaStandard.body, viaStandard.headers, standard.secret).id).toBe(viaStandard.headers['webhook-id']);
      expect(verifyWebhook(viaStandard.body, viaStandard.headers, standard.secret).data.id).toBe(p.id);
      expect(verifyWebhook(viaStripe.body, viaStripe.headers, stripe.secret).data.id).toBe(p.id);
      // The event delivered is the one GET /v1/events/{id} answers.
      const pulled = orThrow(await api.GET('/v1/events/{id}', { params: { path: { id: viaStripe.event.id } } }));
      expect(pulled).toEqual(JSON.parse(viaStripe.body));
      // Refusals: a changed body, another secret, a timestamp past the tolerance.
      const changed = viaStripe.body.replace(p.gwTransId, 'X');
      expect(changed).not.toBe(viaStripe.body);
      expect(() => verifyPortalSignature(changed, String(viaStripe.headers['portal-signature']), stripe.secret)).toThrow(/no signature matches/);
      expect(() => verifyStandardWebhook(viaStandard.body, viaStandard.headers, stripe.secret)).toThrow();
      expect(() => verifyWebhook(viaStripe.body, viaStripe.headers, stripe.secret, { now: Math.floor(Date.now() / 1000) + 3600 })).toThrow(/tolerance/);
      expect(() => verifyWebhook(viaStripe.body, {}, stripe.secret)).toThrow(/no Portal-Signature/);
    } finally {
      await rx.close();
    }
  });
});
