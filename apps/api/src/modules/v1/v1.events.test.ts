import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import Stripe from 'stripe';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { startReceiver } from '../webhook/webhook.fixtures';
import { deliverDue, purgeEvents } from '../webhook/webhook.deliver';

/**
 * Issue 50: webhook endpoints by API (/v1/webhook_endpoints, key permission developer:webhooks),
 * events to pull (/v1/events: the very objects delivered, cursor paging, type filter, 30 days), and
 * both signature schemes verified by the libraries a merchant uses: Stripe's `constructEvent` for
 * the default, `standardwebhooks` and `svix` for Standard Webhooks.
 */
describe.each(DB_KINDS)('/v1 events and webhook endpoints (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  const drain = async () => {
    for (let i = 0; i < 10 && (await deliverDue(ctx.deps, 100)).tried > 0; i++);
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: [Perm.developerWebhooks, Perm.txnList], merIds: [DEMO.group, DEMO.subA, DEMO.subB] });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await ctx?.close();
  });

  it('create endpoints of both schemes; deliveries verify with stripe, standardwebhooks and svix; /v1/events lists the same objects', async () => {
    const std = await v1(ctx, key.secret, {
      method: 'POST',
      url: '/v1/webhook_endpoints',
      payload: { url: `${rx.url}?s=standard`, enabled_events: ['*'], merchant_id: DEMO.subA, signature_scheme: 'standard' },
    });
    expect(std.status, JSON.stringify(std.body)).toBe(201);
    expect(std.body).toMatchObject({ merchant_id: DEMO.subA, enabled_events: ['*'], signature_scheme: 'standard', status: 'enabled' });
    expect(std.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const str = await v1(ctx, key.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: `${rx.url}?s=stripe`, enabled_events: ['transaction.succeeded'], merchant_id: DEMO.subA } });
    expect(str.status).toBe(201);
    expect(str.body.signature_scheme).toBe('stripe');

    const t = await addTxn(ctx, { merId: DEMO.subA, orderNo: `EV-${kind}-1` });
    void t;
    await drain();
    // The key's version (2026-12-03): the event's data is the /v1 Transaction (decision 079).
    const got = rx.got.filter((g) => g.event.data.order_no === `EV-${kind}-1`);
    expect(got).toHaveLength(2);
    const standard = got.find((g) => g.headers['webhook-signature'])!;
    const stripeLike = got.find((g) => g.headers['portal-signature'])!;
    const h = (g: typeof standard) => Object.fromEntries(Object.entries(g.headers).map(([k, v]) => [k, String(v)]));
    // Standard Webhooks: both libraries, unchanged.
    expect(new StandardWebhook(std.body.secret).verify(standard.body, h(standard))).toMatchObject({ type: 'transaction.succeeded' });
    expect(new SvixWebhook(std.body.secret).verify(standard.body, h(standard))).toMatchObject({ type: 'transaction.succeeded' });
    expect(standard.headers['webhook-id']).toBe(standard.event.id);
    expect(() => new StandardWebhook(std.body.secret).verify(standard.body.replace('succeeded', 'failed'), h(standard))).toThrow();
    // The default: Stripe's own verifier.
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(stripeLike.body, String(stripeLike.headers['portal-signature']), str.body.secret)).toMatchObject({ id: stripeLike.event.id });
    expect(() => stripe.webhooks.constructEvent(stripeLike.body, String(stripeLike.headers['portal-signature']), std.body.secret)).toThrow();

    // Pull: the same object, by list and by id.
    const list = await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type: 'transaction.succeeded', merId: DEMO.subA } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const mine = list.body.data.find((e: { id: string }) => e.id === standard.event.id);
    expect(mine).toEqual(JSON.parse(standard.body));
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${standard.event.id}` })).body).toEqual(JSON.parse(standard.body));
    expect(list.body.data.every((e: { type: string }) => e.type === 'transaction.succeeded')).toBe(true);
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { type: 'refund.' } })).body.data).toEqual([]);
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { nope: '1' } })).body.error.param).toBe('nope');
  });

  it('cursor paging: every event once, newest first; events are recorded for a merchant with a key even without an endpoint', async () => {
    for (let i = 0; i < 5; i++) await addTxn(ctx, { merId: DEMO.subB, currency: 'USD', orderNo: `EVP-${kind}-${i}` });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const r = await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { merId: DEMO.subB, limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data.map((e: { data: { order_no: string } }) => e.data.order_no));
      if (!r.body.has_more) break;
      cursor = r.body.next_cursor;
    }
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `EVP-${kind}-${i}`));
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { cursor: 'bm9wZQ' } })).body.error.code).toBe('cursor_invalid');
  });

  it("another merchant's events and endpoints answer as absent; a key without developer:webhooks → 403", async () => {
    const otherRx = await ctx.db.query<{ event_id: string }>("INSERT INTO webhook_event (mer_id, type, data) VALUES ($1, 'transaction.succeeded', '{}') RETURNING event_id", [DEMO.other]);
    const foreign = otherRx.rows[0].event_id;
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${foreign}` })).status).toBe(404);
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/events', query: { merId: DEMO.other } })).body.data).toEqual([]);
    const { rows } = await ctx.db.query<{ id: number }>(
      "INSERT INTO webhook_endpoint (mer_id, url, events, secret_key_id, secret_enc) VALUES ($1, 'http://127.0.0.1:1/x', '{*}', 'k', 'x') RETURNING id",
      [DEMO.other],
    );
    for (const [method, payload] of [
      ['GET', undefined],
      ['POST', { description: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await v1(ctx, key.secret, { method, url: `/v1/webhook_endpoints/${rows[0].id}`, ...(payload ? { payload } : {}) });
      expect(r.status, `${method} ${JSON.stringify(r.body)}`).toBe(404);
    }
    expect((await v1(ctx, key.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: rx.url, enabled_events: ['*'], merchant_id: DEMO.other } })).status).toBe(404);
    const weak = await createApiKey(ctx, demo, { permissions: [Perm.txnList] });
    for (const url of ['/v1/events', '/v1/webhook_endpoints']) {
      const r = await v1(ctx, weak.secret, { method: 'GET', url });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('permission_missing');
    }
  });

  it('update, turn off, delete (audited); bad input → 400 naming the field, nothing changed', async () => {
    const made = await v1(ctx, key.secret, { method: 'POST', url: '/v1/webhook_endpoints', payload: { url: rx.url, enabled_events: ['refund.succeeded'], merchant_id: DEMO.subB } });
    const id = made.body.id;
    const bad = await v1(ctx, key.secret, { method: 'POST', url: `/v1/webhook_endpoints/${id}`, payload: { enabled_events: ['nothing.happened'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toContain('enabled_events');
    const upd = await v1(ctx, key.secret, { method: 'POST', url: `/v1/webhook_endpoints/${id}`, payload: { enabled_events: ['*'], description: 'all', disabled: true } });
    expect(upd.body).toMatchObject({ enabled_events: ['*'], description: 'all', status: 'disabled', disabled_reason: 'user' });
    expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/webhook_endpoints', query: { merId: DEMO.subB } })).body.data.map((e: { id: number }) => e.id)).toContain(id);
    expect((await v1(ctx, key.secret, { method: 'DELETE', url: `/v1/webhook_endpoints/${id}` })).status).toBe(200);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/webhook_endpoints/${id}` })).status).toBe(404);
    const a = await ctx.db.query<{ action: string; username: string }>("SELECT action, username FROM audit_log WHERE target = $1 AND action LIKE 'webhook.endpoint.%' ORDER BY id", [String(id)]);
    expect(a.rows.map((x) => x.action)).toEqual(['webhook.endpoint.create', 'webhook.endpoint.update', 'webhook.endpoint.disable', 'webhook.endpoint.delete']);
    expect(a.rows[0].username).toBe(`apikey:${key.prefix}`);
  });

  it('events are kept 30 days, then purged', async () => {
    const { rows } = await ctx.db.query<{ event_id: string }>(
      "INSERT INTO webhook_event (mer_id, type, data, created_at) VALUES ($1, 'transaction.succeeded', '{}', now() - interval '31 days') RETURNING event_id",
      [DEMO.subA],
    );
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/events/${rows[0].event_id}` })).status).toBe(404);
    expect(await purgeEvents(ctx.deps)).toBeGreaterThanOrEqual(1);
    expect((await ctx.db.query('SELECT 1 FROM webhook_event WHERE event_id = $1', [rows[0].event_id])).rowCount).toBe(0);
  });
});
