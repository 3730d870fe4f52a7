import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, WEBHOOK_EVENTS } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { addTxn, auth, loginWithStepUp } from '../txn/txn.fixtures';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { createPis } from '../store/payinstore.fixtures';
import { ingestTransaction } from '../payments/ingest.service';
import { expireDue } from '../paybylink/paybylink.repo';
import { settleDate } from '../payments/settlement/settle.run';
import { WEBHOOK_MAIL_JOB, backoffMs, deliverDue, mailDisabled } from './webhook.deliver';
import { isPrivateAddress } from './webhook.net';
import { addEndpoint, startReceiver } from './webhook.fixtures';
import { readOutbox } from '../../plugins/mail';

/**
 * Webhooks (issue 31): an event for every listed change, written in the change's own transaction
 * (none for a rolled-back one), signed as documented (checked with openssl, an independent HMAC),
 * retried with backoff until 3 days then the endpoint disabled and its owners e-mailed, resend,
 * SSRF refusal in production mode, and the routes' permission, scope and input rules.
 */
describe.each(DB_KINDS)('webhooks (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  const secrets: Record<string, string> = {};
  const post = (url: string, payload: unknown, token = demo) => ctx.call({ method: 'POST', url, headers: auth(token), payload: payload as Record<string, unknown> });
  const get = (url: string, query: Record<string, string>, token = demo) => ctx.call({ method: 'GET', url, headers: auth(token), query });
  /** Sends every due delivery (the job's pass), as often as it finds some. */
  const drain = async () => {
    for (let i = 0; i < 10 && (await deliverDue(ctx.deps, 100)).tried > 0; i++);
  };
  const events = async (merId: string, type?: string) =>
    (await ctx.db.query<{ type: string; data: any }>('SELECT type, data FROM webhook_event WHERE mer_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY id', [merId, type ?? null])).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    rx = await startReceiver();
    for (const merId of [DEMO.group, DEMO.subA, DEMO.other]) {
      const e = await addEndpoint(ctx, merId, rx.url, [...WEBHOOK_EVENTS]);
      secrets[merId] = e.secret;
    }
  });
  afterAll(async () => {
    await rx?.close();
    await ctx?.close();
  });

  it('a purchase ingested final: transaction.succeeded / failed; a processing one: none until it is final', async () => {
    const ok = await addTxn(ctx, { orderNo: 'WH-P-OK' });
    await addTxn(ctx, { orderNo: 'WH-P-NO', gwResponse: '05', respMsg: 'Declined' });
    const pending = await addTxn(ctx, { orderNo: 'WH-P-04', gwResponse: '04' });
    const ev = await events(DEMO.subA);
    expect(ev.filter((e) => e.data.orderNo === 'WH-P-OK').map((e) => e.type)).toEqual(['transaction.succeeded']);
    expect(ev.filter((e) => e.data.orderNo === 'WH-P-NO').map((e) => e.type)).toEqual(['transaction.failed']);
    expect(ev.filter((e) => e.data.orderNo === 'WH-P-04')).toEqual([]);
    await ctx.db.query("UPDATE txn SET gw_response = '00' WHERE id = $1", [pending.id]);
    await ctx.db.query("UPDATE txn SET gw_response = '01' WHERE id = $1", [pending.id]); // final → final: no second event
    expect((await events(DEMO.subA)).filter((e) => e.data.orderNo === 'WH-P-04').map((e) => e.type)).toEqual(['transaction.succeeded']);
    expect(ev.find((e) => e.data.orderNo === 'WH-P-OK')!.data).toMatchObject({ id: ok.gwTransId, amount: 10000, currency: 'CNY', gwResponse: '00' });
  });

  it('a change that rolls back leaves no event', async () => {
    const before = (await events(DEMO.subA)).length;
    await expect(
      ctx.db.tx(async (q) => {
        await ingestTransaction(
          q,
          { merId: DEMO.subA, orderNo: 'WH-ROLLBACK', tranType: 'PURC', amount: 500, currency: 'CNY', paymentSchema: 'WX', gwResponse: '00', txnTime: new Date('2026-11-10T04:00:00Z') },
          { platformTz: ctx.config.platformTz },
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await events(DEMO.subA)).length).toBe(before);
    expect((await ctx.db.query("SELECT 1 FROM webhook_event WHERE data->>'orderNo' = 'WH-ROLLBACK'")).rows).toEqual([]);
  });

  it('a portal refund: refund.succeeded (and refund.failed for a declined one), sent to the receiver signed', async () => {
    const p = await addTxn(ctx, { orderNo: 'WH-RF', amount: 10000 });
    const r1 = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form({}).headers }, payload: form({ id: p.gwTransId, amount: '12.00' }).payload });
    expect(r1.body.data.code).toBe(0);
    const r2 = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { ...auth(demo), ...form({}).headers }, payload: form({ id: p.gwTransId, amount: '1.51' }).payload });
    expect(r2.body.data.gwResponse).toBe('01');
    const ev = (await events(DEMO.subA)).filter((e) => e.data.originalOrderNo === 'WH-RF');
    expect(ev.map((e) => e.type)).toEqual(['refund.succeeded', 'refund.failed']);
    await drain();
    const got = rx.got.find((g) => g.event.type === 'refund.succeeded' && g.event.data.originalOrderNo === 'WH-RF')!;
    expect(got.event.data).toMatchObject({ amount: '12.00', currency: 'CNY', type: 'REFD' });
    // The signature, checked by openssl (not our code): t=…,v1=hex(HMAC-SHA256(secret, t.body)).
    const sig = String(got.headers['portal-signature']);
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
    expect(m).not.toBeNull();
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secrets[DEMO.subA]], { input: `${m[1]}.${got.body}` }).toString();
    expect(out.trim().split(/\s+/).pop()).toBe(m[2]);
    expect(got.headers['portal-event-id']).toBe(got.event.id);
    expect(got.event.id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('pay by link paid, closed and expired; in-store paid', async () => {
    const paid = await createOrder(ctx, demo, { totalAmount: '20.00', goodsPrice: '20.00' });
    expect((await buyerPay(ctx, paid.linkToken)).body.code).toBe(0);
    const closed = await createOrder(ctx, demo, { totalAmount: '21.00', goodsPrice: '21.00' });
    expect((await ctx.call({ method: 'GET', url: `/api/payByLink/closeOrder/${closed.id}`, headers: auth(demo) })).body.data).toBe('00');
    const expiring = await createOrder(ctx, demo, { totalAmount: '22.00', goodsPrice: '22.00' });
    await expireDue(ctx.db, new Date(Date.now() + 400 * 86_400_000), { id: expiring.id });
    const ev = (await events(DEMO.group)).filter((e) => e.type.startsWith('paylink.'));
    expect(ev.filter((e) => e.data.orderNo === paid.orderNo).map((e) => e.type)).toEqual(['paylink.paid']);
    expect(ev.filter((e) => e.data.orderNo === closed.orderNo).map((e) => e.type)).toEqual(['paylink.closed']);
    expect(ev.filter((e) => e.data.orderNo === expiring.orderNo).map((e) => e.type)).toEqual(['paylink.expired']);
    expect(ev.find((e) => e.data.orderNo === paid.orderNo)!.data.transactionId).toMatch(/\S/);
    const pis = await createPis(ctx, demo, DEMO.stores.causewayBay);
    expect((await buyerPay(ctx, pis.linkToken)).body.code).toBe(0);
    expect((await events(DEMO.group)).filter((e) => e.data.orderNo === pis.orderNo).map((e) => e.type)).toEqual(['transaction.succeeded', 'instore.paid']);
  });

  it('the settlement run: settlement.transferred and reserve.released', async () => {
    await ctx.db.query(
      `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
       VALUES ($1, 'CARD', 0, 0, 1, 1000, 0, 0, 0, 'D')
       ON CONFLICT (mer_id, bus_line) DO UPDATE SET mdr_bp = 0, fixed_fee = 0, cycle_days = 1, reserve_bp = 1000, reserve_hold_days = 0, tran_threshold = 0, tran_fee = 0, transfer_period = 'D'`,
      [DEMO.other],
    );
    await ingestTransaction(
      ctx.db,
      {
        merId: DEMO.other,
        orderNo: 'WH-SET',
        tranType: 'PURC',
        amount: 10000,
        currency: 'SGD',
        paymentSchema: 'CARD',
        paymentBrand: 'visa',
        gwResponse: '00',
        txnTime: new Date('2026-11-20T04:00:00Z'),
      },
      { platformTz: ctx.config.platformTz },
    );
    await settleDate(ctx.db, '2026-11-21');
    const ev = await events(DEMO.other);
    const transferred = ev.filter((e) => e.type === 'settlement.transferred');
    const released = ev.filter((e) => e.type === 'reserve.released');
    expect(transferred.length).toBeGreaterThan(0);
    expect(released.length).toBeGreaterThan(0);
    expect(transferred.find((e) => e.data.currency === 'SGD')?.data).toMatchObject({ settlementDate: '2026-11-21', businessLine: 'CARD' });
    expect(released.find((e) => e.data.currency === 'SGD')?.data).toMatchObject({ amount: 1000, heldOn: '2026-11-21' });
  });

  it('retries a failing receiver with backoff, with the same event id, until it answers 2xx; every attempt is logged', async () => {
    const r = await startReceiver([500, 503, 200]);
    try {
      const e = await addEndpoint(ctx, DEMO.subB, r.url, ['transaction.succeeded']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-RETRY', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      await drain();
      expect(r.got).toHaveLength(1);
      const list = await get('/api/webhooks/delivery/list', { id: String(e.endpoint.id) });
      const d = list.body.data.content[0];
      expect(d).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
      expect(new Date(d.nextAttemptAt).getTime() - ctx.clock.now().getTime()).toBeGreaterThan(backoffMs(1) - 5_000);
      ctx.clock.advance(backoffMs(1) + 1000);
      await drain();
      ctx.clock.advance(backoffMs(2) + 1000);
      await drain();
      expect(r.got).toHaveLength(3);
      expect(new Set(r.got.map((g) => g.event.id)).size).toBe(1);
      expect(new Set(r.got.map((g) => g.body)).size).toBe(1);
      const detail = await get('/api/webhooks/delivery/detail', { id: String(d.id) });
      expect(detail.body.data.state).toBe('succeeded');
      expect(detail.body.data.attemptList.map((a: any) => [a.outcome, a.status])).toEqual([
        ['succeeded', 200],
        ['failed', 503],
        ['failed', 500],
      ]);
      expect(detail.body.data.attemptList[2].response.length).toBe(2048);
      expect(detail.body.data.attemptList[2].nextRetryAt).not.toBeNull();
      expect(detail.body.data.attemptList[0].latencyMs).toBeGreaterThanOrEqual(0);
      // Resend one: the same event again, logged as a manual attempt.
      const re = await post('/api/webhooks/delivery/resend', { id: d.id });
      expect(re.body.data.state).toBe('pending');
      await drain();
      expect(r.got).toHaveLength(4);
      expect(r.got[3].event.id).toBe(r.got[0].event.id);
      const after = await get('/api/webhooks/delivery/detail', { id: String(d.id) });
      expect(after.body.data.attemptList[0]).toMatchObject({ manual: true, outcome: 'succeeded' });
      await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
    } finally {
      await r.close();
    }
  });

  it('after 3 days of failures the delivery fails, the endpoint is disabled and its owners e-mailed; resend failed since brings them back', async () => {
    const r = await startReceiver([500]);
    try {
      const e = await addEndpoint(ctx, DEMO.subB, r.url, ['transaction.failed']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-GIVEUP', gwResponse: '05', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      // The event's time is the database's (the change's transaction), not the test clock's.
      const since = new Date(Date.now() - 1000);
      for (let i = 0; i < 40; i++) {
        await drain();
        const { rows } = await ctx.db.query<{ state: string; next_attempt_at: Date | null }>('SELECT state, next_attempt_at FROM webhook_delivery WHERE endpoint_id = $1', [e.endpoint.id]);
        if (rows[0].state !== 'pending') break;
        ctx.clock.set(new Date(new Date(rows[0].next_attempt_at!).getTime() + 1000));
      }
      demo = await loginWithStepUp(ctx); // (days went by: the session ended)
      const ep = await get('/api/webhooks/endpoint/detail', { id: String(e.endpoint.id) });
      expect(ep.body.data).toMatchObject({ enabled: false, disabledReason: 'failing', failed: 1, pending: 0 });
      expect(r.got.length).toBeGreaterThan(8);
      expect(new Set(r.got.map((g) => g.event.id)).size).toBe(1);
      const audit = await ctx.db.query("SELECT 1 FROM audit_log WHERE action = 'webhook.endpoint.disable' AND target = $1 AND username = 'system'", [String(e.endpoint.id)]);
      expect(audit.rows).toHaveLength(1);
      const job = await ctx.db.query<{ payload: any }>('SELECT payload FROM job WHERE kind = $1', [WEBHOOK_MAIL_JOB]);
      expect(job.rows.map((j) => j.payload.endpointId)).toContain(e.endpoint.id);
      expect(await mailDisabled(ctx.deps, e.endpoint.id)).toBeGreaterThan(0);
      const mail = await readOutbox(ctx.outbox);
      expect(mail.some((m) => m.to.includes('demo@demo-group.example') && m.subject.includes(r.url))).toBe(true);
      // Resend while disabled: refused, nothing changed.
      const refused = await post('/api/webhooks/endpoint/resendFailed', { id: e.endpoint.id, since: since.toISOString() });
      expect(refused.status).toBe(400);
      await post('/api/webhooks/endpoint/enable', { id: e.endpoint.id });
      r.answer([200]);
      const again = await post('/api/webhooks/endpoint/resendFailed', { id: e.endpoint.id, since: since.toISOString() });
      expect(again.body.data).toEqual({ count: 1 });
      await drain();
      expect((await get('/api/webhooks/endpoint/detail', { id: String(e.endpoint.id) })).body.data).toMatchObject({ enabled: true, failed: 0, pending: 0 });
      await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
    } finally {
      await r.close();
    }
  });

  it('production mode: no delivery to loopback or private addresses (after DNS resolution), nor over plain http', async () => {
    expect(
      ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0.0.0.0', '100.64.0.1'].filter(
        (a) => !isPrivateAddress(a),
      ),
    ).toEqual([]);
    expect(['8.8.8.8', '1.1.1.1', '2606:4700::1111'].filter(isPrivateAddress)).toEqual([]);
    const r = await startReceiver([200]);
    try {
      const https = await addEndpoint(ctx, DEMO.subB, `https://localhost:${r.port}/hook`, ['transaction.succeeded']);
      const http = await addEndpoint(ctx, DEMO.subB, r.url, ['transaction.succeeded']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-SSRF', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      // (The development key the secrets were sealed with, configured as production requires.)
      const devKey = createHash('sha256').update('merchant-portal development provider key — never for production').digest('hex');
      const prod = { ...ctx.deps, config: { ...ctx.config, env: 'production' as const, webhookAllowPrivate: true, providerKeyEncryptionKey: devKey } };
      for (let i = 0; i < 3 && (await deliverDue(prod, 100)).tried > 0; i++);
      expect(r.got).toEqual([]);
      const attempt = async (endpointId: number) =>
        (
          await ctx.db.query<{ outcome: string; error: string }>('SELECT a.outcome, a.error FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE d.endpoint_id = $1', [
            endpointId,
          ])
        ).rows[0];
      expect(await attempt(https.endpoint.id)).toMatchObject({ outcome: 'refused', error: expect.stringMatching(/localhost resolves to (127\.0\.0\.1|::1), a loopback/) });
      expect(await attempt(http.endpoint.id)).toMatchObject({ outcome: 'refused', error: 'https only in production' });
      // Creating one in production: https only, no literal private address.
      const { createEndpoint } = await import('./webhook.service');
      const { demoUser } = await import('./webhook.fixtures');
      const u = await demoUser(ctx, [DEMO.subB]);
      await expect(createEndpoint(prod, u, 'en', { merId: DEMO.subB, url: r.url, events: ['refund.succeeded'], description: '' }, {})).rejects.toMatchObject({ key: 'webhookHttpsOnly' });
      await expect(createEndpoint(prod, u, 'en', { merId: DEMO.subB, url: 'https://10.0.0.8/x', events: ['refund.succeeded'], description: '' }, {})).rejects.toMatchObject({
        key: 'webhookPrivateAddress',
      });
      for (const e of [https, http]) await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
    } finally {
      await r.close();
    }
  });

  it('production mode: every IPv6 form that embeds an IPv4 is judged by it, the forms that cannot be judged are refused (issue 47)', async () => {
    const refused = [
      // IPv4-compatible ::a.b.c.d (deprecated): refused whatever the IPv4.
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '::8.8.8.8',
      // IPv4-translated ::ffff:0:a.b.c.d (SIIT), in both spellings.
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:10.1.2.3',
      '0:0:0:0:ffff:0:a9fe:a9fe',
      // IPv4-mapped.
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::FFFF:192.168.1.1',
      // NAT64: the well-known prefix judged by its IPv4; the local-use one refused.
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::808:808',
      // 6to4 embedding a private, loopback or link-local IPv4.
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
      '2002:a9fe:a9fe::',
      '2002:a00:1:1::5',
      // ISATAP interface ids on a global prefix embedding a private IPv4; Teredo.
      '2a00:1450:4001::5efe:10.0.0.1',
      '2a00:1450:4001::200:5efe:c0a8:101',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      // Other special ranges, zone ids, and what is no address at all.
      'fe80::1%eth0',
      '2001:db8::1',
      '3fff::1',
      '5f00::1',
      'fec0::1',
      '100::1',
      '2001:2::1',
      '255.255.255.255',
      '192.88.99.1',
      '198.18.0.1',
      '0177.0.0.1',
      '127.1',
      'localhost',
      '',
    ];
    expect(refused.filter((a) => !isPrivateAddress(a))).toEqual([]);
    const allowed = ['8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2a00:1450:4001::5efe:8.8.8.8'];
    expect(allowed.filter(isPrivateAddress)).toEqual([]);
    // The whole path: a literal IPv4-translated loopback is refused at creation and at delivery.
    const r = await startReceiver([200]);
    try {
      const e = await addEndpoint(ctx, DEMO.subB, `https://[::ffff:0:127.0.0.1]:${r.port}/hook`, ['transaction.succeeded']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-SSRF6', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      const devKey = createHash('sha256').update('merchant-portal development provider key — never for production').digest('hex');
      const prod = { ...ctx.deps, config: { ...ctx.config, env: 'production' as const, webhookAllowPrivate: true, providerKeyEncryptionKey: devKey } };
      for (let i = 0; i < 3 && (await deliverDue(prod, 100)).tried > 0; i++);
      const a = await ctx.db.query<{ outcome: string; reason: string }>('SELECT a.outcome, a.reason FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE d.endpoint_id = $1', [
        e.endpoint.id,
      ]);
      expect(a.rows[0]).toMatchObject({ outcome: 'refused', reason: 'address' });
      const { createEndpoint } = await import('./webhook.service');
      const { demoUser } = await import('./webhook.fixtures');
      const u = await demoUser(ctx, [DEMO.subB]);
      for (const url of ['https://[::ffff:0:127.0.0.1]/x', 'https://[::10.0.0.1]/x', 'https://[2002:c0a8:101::1]/x', 'https://[64:ff9b::a9fe:a9fe]/x'])
        await expect(createEndpoint(prod, u, 'en', { merId: DEMO.subB, url, events: ['refund.succeeded'], description: '' }, {}), url).rejects.toMatchObject({ key: 'webhookPrivateAddress' });
      await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
    } finally {
      await r.close();
    }
  });

  it("the delivery log tells the merchant a generic reason in its language, never the resolver's answer or the network error (issue 47)", async () => {
    const r = await startReceiver([200]);
    const closed = await startReceiver([200]);
    const closedPort = closed.port;
    await closed.close();
    try {
      const refusedEp = await addEndpoint(ctx, DEMO.subB, `https://localhost:${r.port}/hook`, ['transaction.succeeded']);
      const httpEp = await addEndpoint(ctx, DEMO.subB, r.url, ['transaction.succeeded']);
      const unknownEp = await addEndpoint(ctx, DEMO.subB, 'https://no-such-host.invalid/hook', ['transaction.succeeded']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-REASON-P', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      const devKey = createHash('sha256').update('merchant-portal development provider key — never for production').digest('hex');
      const prod = { ...ctx.deps, config: { ...ctx.config, env: 'production' as const, webhookAllowPrivate: true, providerKeyEncryptionKey: devKey } };
      for (let i = 0; i < 3 && (await deliverDue(prod, 100)).tried > 0; i++);
      for (const e of [refusedEp, httpEp, unknownEp]) await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
      // Development mode: a closed port, and TLS spoken to a plain-HTTP receiver.
      const connEp = await addEndpoint(ctx, DEMO.subB, `http://127.0.0.1:${closedPort}/hook`, ['transaction.succeeded']);
      const tlsEp = await addEndpoint(ctx, DEMO.subB, `https://127.0.0.1:${r.port}/hook`, ['transaction.succeeded']);
      await addTxn(ctx, { merId: DEMO.subB, orderNo: 'WH-REASON-D', currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      for (let i = 0; i < 3 && (await deliverDue(ctx.deps, 100)).tried > 0; i++);
      for (const e of [connEp, tlsEp]) await post('/api/webhooks/endpoint/disable', { id: e.endpoint.id });
      const seen = async (endpointId: number) => {
        const list = await get('/api/webhooks/delivery/list', { id: String(endpointId) });
        const d = await ctx.call({ method: 'GET', url: '/api/webhooks/delivery/detail', headers: { ...auth(demo), 'accept-language': 'zh' }, query: { id: String(list.body.data.content[0].id) } });
        return d.body.data.attemptList[0] as { outcome: string; reason: string; error: string };
      };
      const expected: [number, string, string, RegExp][] = [
        [refusedEp.endpoint.id, 'refused', 'address', /公网地址/],
        [unknownEp.endpoint.id, 'refused', 'address', /公网地址/],
        [httpEp.endpoint.id, 'refused', 'https', /https/],
        [connEp.endpoint.id, 'failed', 'connection', /无法连接/],
        [tlsEp.endpoint.id, 'failed', 'tls', /TLS/],
      ];
      for (const [id, outcome, reason, text] of expected) {
        const a = await seen(id);
        expect(a, reason).toMatchObject({ outcome, reason, error: expect.stringMatching(text) });
        // Nothing of the network: no address, host name, port, error code or resolver wording.
        expect(a.error, reason).not.toMatch(/127\.0\.0\.1|::1|localhost|invalid|resolves|ECONN|ENOTFOUND|EAI_|SSL|\d{4,}/);
      }
      // The detail is kept for operators (the table; the job's log).
      const detail = await ctx.db.query<{ error: string }>('SELECT a.error FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE d.endpoint_id = $1', [refusedEp.endpoint.id]);
      expect(detail.rows[0].error).toMatch(/localhost resolves to/);
    } finally {
      await r.close();
    }
  });

  it("deliveries are fair across merchants: one merchant's backlog of 1,000 does not hold another's test event back (issue 47)", async () => {
    const backlog = await addEndpoint(ctx, DEMO.subB, rx.url, ['transaction.succeeded']);
    const now = ctx.clock.now();
    const { rows: ev } = await ctx.db.query<{ id: number }>(
      "INSERT INTO webhook_event (mer_id, type, data, created_at) SELECT $1, 'webhook.test', '{}'::jsonb, $2 FROM generate_series(1, 1000) RETURNING id",
      [DEMO.subB, new Date(now.getTime() - 3_600_000)],
    );
    await ctx.db.query(
      `INSERT INTO webhook_delivery (event_id, endpoint_id, mer_id, next_attempt_at, give_up_at, created_at)
       SELECT e, $2, $3, $4::timestamptz + (e - $5) * interval '1 millisecond', $6, $4 FROM unnest($1::bigint[]) AS e`,
      [ev.map((e) => e.id), backlog.endpoint.id, DEMO.subB, new Date(now.getTime() - 600_000), ev[0].id, new Date(now.getTime() + 86_400_000)],
    );
    // The other merchant's test event comes after the whole backlog.
    const subA = (await ctx.db.query<{ id: number }>('SELECT id FROM webhook_endpoint WHERE mer_id = $1 AND enabled ORDER BY id LIMIT 1', [DEMO.subA])).rows[0].id;
    const test = await post('/api/webhooks/endpoint/test', { id: subA });
    expect(test.body.code, test.body.msg).toBe(0);
    const group = (await ctx.db.query<{ id: number }>('SELECT id FROM webhook_endpoint WHERE mer_id = $1 AND enabled ORDER BY id LIMIT 1', [DEMO.group])).rows[0].id;
    const test2 = await post('/api/webhooks/endpoint/test', { id: group });
    // One pass of the job (20 deliveries): both other merchants' events are in it.
    const pass = await deliverDue(ctx.deps, 20);
    expect(pass.tried).toBe(20);
    for (const t of [test, test2]) {
      const d = await get('/api/webhooks/delivery/detail', { id: String(t.body.data.id) });
      expect(d.body.data.state, t.body.data.type).toBe('succeeded');
    }
    const sent = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1 AND state = 'succeeded'", [backlog.endpoint.id]);
    expect(sent.rows[0].n).toBe(18);
    // Within one merchant the oldest go first (the backlog's were due in the order of their ids).
    const first = await ctx.db.query<{ ok: boolean }>("SELECT bool_and(state = 'succeeded') AS ok FROM (SELECT state FROM webhook_delivery WHERE endpoint_id = $1 ORDER BY id LIMIT 18) x", [
      backlog.endpoint.id,
    ]);
    expect(first.rows[0].ok).toBe(true);
    if (kind === 'postgres') {
      // Passes of several processes at once never try one delivery twice.
      await Promise.all([1, 2, 3].map(() => deliverDue(ctx.deps, 20)));
      const twice = await ctx.db.query('SELECT delivery_id FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 GROUP BY delivery_id HAVING count(*) > 1', [
        backlog.endpoint.id,
      ]);
      expect(twice.rows).toEqual([]);
    }
    await post('/api/webhooks/endpoint/disable', { id: backlog.endpoint.id });
  });

  it("a rotated secret's overlap can be ended at once: only the new secret signs; audited; nothing to end answers 400 (issue 47)", async () => {
    const created = await post('/api/webhooks/endpoint/create', { merId: DEMO.subA, url: rx.url, events: ['refund.succeeded'], description: 'end-overlap' });
    const id = created.body.data.endpoint.id;
    const none = await ctx.call({ method: 'POST', url: '/api/webhooks/endpoint/endPreviousSecret', headers: { ...auth(demo), 'accept-language': 'ja' }, payload: { id } });
    expect(none.status).toBe(400);
    expect(none.body.msg).toMatch(/以前のシークレット/);
    const rot = await post('/api/webhooks/endpoint/rotate', { id });
    const current = rot.body.data.secret;
    expect(rot.body.data.endpoint.previousSecretUntil).not.toBeNull();
    const before = await ctx.db.query('SELECT prev_secret_enc, secret_enc FROM webhook_endpoint WHERE id = $1', [id]);
    // Without developer:manage: 403; another merchant's endpoint: 404; bad id: 400 — nothing changed.
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await post('/api/webhooks/endpoint/endPreviousSecret', { id }, sub)).status).toBe(403);
    const other = (await ctx.db.query<{ id: number }>('SELECT id FROM webhook_endpoint WHERE mer_id = $1', [DEMO.other])).rows[0].id;
    expect((await post('/api/webhooks/endpoint/endPreviousSecret', { id: other })).status).toBe(404);
    expect((await post('/api/webhooks/endpoint/endPreviousSecret', { id: 'x' })).status).toBe(400);
    expect((await ctx.db.query('SELECT prev_secret_enc, secret_enc FROM webhook_endpoint WHERE id = $1', [id])).rows).toEqual(before.rows);
    const ended = await post('/api/webhooks/endpoint/endPreviousSecret', { id });
    expect(ended.body.code, ended.body.msg).toBe(0);
    expect(ended.body.data).toMatchObject({ id, previousSecretUntil: null });
    expect((await ctx.db.query('SELECT prev_secret_enc, prev_secret_key_id, prev_secret_until FROM webhook_endpoint WHERE id = $1', [id])).rows[0]).toEqual({
      prev_secret_enc: null,
      prev_secret_key_id: null,
      prev_secret_until: null,
    });
    const test = await post('/api/webhooks/endpoint/test', { id });
    await drain();
    const got = rx.got.find((g) => g.event.id === test.body.data.eventId)!;
    const sig = String(got.headers['portal-signature']);
    const v1 = sig
      .split(',')
      .filter((p) => p.startsWith('v1='))
      .map((p) => p.slice(3));
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', current], { input: `${sig.split(',')[0].slice(2)}.${got.body}` })
      .toString()
      .trim()
      .split(/\s+/)
      .pop();
    expect(v1).toEqual([out]);
    expect((await post('/api/webhooks/endpoint/endPreviousSecret', { id })).status).toBe(400);
    const audit = await ctx.db.query<{ username: string; detail: any }>("SELECT username, detail FROM audit_log WHERE action = 'webhook.endpoint.endPreviousSecret' AND target = $1", [String(id)]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ username: 'demo', detail: { before: { previousValidUntil: rot.body.data.endpoint.previousSecretUntil }, after: { previousValidUntil: null } } });
    await post('/api/webhooks/endpoint/disable', { id });
  });

  it('routes: create, list, update, rotate (old secret signs 24 h more), test event; bad input; no permission; another merchant', async () => {
    const created = await post('/api/webhooks/endpoint/create', { merId: DEMO.subA, url: rx.url, events: 'refund.succeeded,refund.failed', description: 'ERP' });
    expect(created.body.code, created.body.msg).toBe(0);
    const id = created.body.data.endpoint.id;
    const first = created.body.data.secret;
    expect(first).toMatch(/^whsec_/);
    const stored = await ctx.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhook_endpoint WHERE id = $1', [id]);
    expect(stored.rows[0].secret_enc).not.toContain(first.slice(6));
    const list = await get('/api/webhooks/endpoint/list', {});
    expect(list.body.data.find((e: any) => e.id === id)).toMatchObject({ url: rx.url, events: ['refund.succeeded', 'refund.failed'], enabled: true, createdBy: 'demo' });
    expect(JSON.stringify(list.body.data)).not.toContain(first);
    const upd = await post('/api/webhooks/endpoint/update', { id, url: rx.url, events: ['refund.succeeded'], description: 'ERP 2' });
    expect(upd.body.data).toMatchObject({ events: ['refund.succeeded'], description: 'ERP 2' });
    const rot = await post('/api/webhooks/endpoint/rotate', { id });
    const second = rot.body.data.secret;
    expect(second).not.toBe(first);
    expect(rot.body.data.endpoint.previousSecretUntil).not.toBeNull();
    const test = await post('/api/webhooks/endpoint/test', { id });
    expect(test.body.data).toMatchObject({ type: 'webhook.test', state: 'pending' });
    await drain();
    const got = rx.got.find((g) => g.event.id === test.body.data.eventId)!;
    const v1 = String(got.headers['portal-signature'])
      .split(',')
      .filter((p) => p.startsWith('v1='))
      .map((p) => p.slice(3));
    const t = String(got.headers['portal-signature']).split(',')[0].slice(2);
    const hmac = (s: string) =>
      execFileSync('openssl', ['dgst', '-sha256', '-hmac', s], { input: `${t}.${got.body}` })
        .toString()
        .trim()
        .split(/\s+/)
        .pop();
    expect(v1).toEqual([hmac(second), hmac(first)]);
    // After 24 hours only the new secret signs.
    ctx.clock.advance(24 * 3_600_000 + 1000);
    demo = await loginWithStepUp(ctx);
    const test2 = await post('/api/webhooks/endpoint/test', { id });
    await drain();
    const got2 = rx.got.find((g) => g.event.id === test2.body.data.eventId)!;
    expect(
      String(got2.headers['portal-signature'])
        .split(',')
        .filter((p) => p.startsWith('v1=')),
    ).toHaveLength(1);
    // Audited, with before/after.
    const audit = await ctx.db.query<{ action: string; detail: any }>("SELECT action, detail FROM audit_log WHERE target = $1 AND action LIKE 'webhook.%' ORDER BY at", [String(id)]);
    expect(audit.rows.map((a) => a.action)).toEqual(['webhook.endpoint.create', 'webhook.endpoint.update', 'webhook.endpoint.rotate', 'webhook.endpoint.test', 'webhook.endpoint.test']);
    expect(audit.rows[1].detail).toMatchObject({ before: { description: 'ERP' }, after: { description: 'ERP 2' } });
    expect(JSON.stringify(audit.rows)).not.toContain(first);
    // Bad input: nothing written, message in the caller's language.
    const count = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoint')).rows[0].n;
    const n = await count();
    for (const body of [
      { merId: DEMO.subA, url: 'ftp://x.example/', events: ['refund.succeeded'] },
      { merId: DEMO.subA, url: rx.url, events: ['refund.maybe'] },
      { merId: DEMO.subA, url: rx.url, events: [] },
      { merId: DEMO.subA, url: `${rx.url}\u0007`, events: ['refund.succeeded'] },
      { merId: DEMO.other, url: rx.url, events: ['refund.succeeded'] },
    ]) {
      const res = await ctx.call({ method: 'POST', url: '/api/webhooks/endpoint/create', headers: { ...auth(demo), 'accept-language': 'zh' }, payload: body });
      expect(res.body.code, JSON.stringify(body)).toBe(Code.BAD_REQUEST);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await post('/api/webhooks/endpoint/resendFailed', { id, since: '2026-02-30T00:00:00Z' })).status).toBe(400);
    expect(await count()).toBe(n);
    // Another merchant's endpoint: as if absent, on every route that takes an id.
    const other = (await ctx.db.query<{ id: number }>('SELECT id FROM webhook_endpoint WHERE mer_id = $1', [DEMO.other])).rows[0].id;
    const otherDelivery = (await ctx.db.query<{ id: number }>('SELECT id FROM webhook_delivery WHERE mer_id = $1 LIMIT 1', [DEMO.other])).rows[0].id;
    for (const [m, url, body] of [
      ['GET', '/api/webhooks/endpoint/detail', { id: other }],
      ['POST', '/api/webhooks/endpoint/update', { id: other, url: rx.url, events: ['refund.succeeded'] }],
      ['POST', '/api/webhooks/endpoint/rotate', { id: other }],
      ['POST', '/api/webhooks/endpoint/disable', { id: other }],
      ['POST', '/api/webhooks/endpoint/test', { id: other }],
      ['POST', '/api/webhooks/endpoint/resendFailed', { id: other, since: '2026-01-01T00:00:00Z' }],
      ['GET', '/api/webhooks/delivery/list', { id: other }],
      ['GET', '/api/webhooks/delivery/detail', { id: otherDelivery }],
      ['POST', '/api/webhooks/delivery/resend', { id: otherDelivery }],
    ] as const) {
      const res = m === 'GET' ? await get(url, Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]))) : await post(url, body);
      expect(res.status, url).toBe(404);
    }
    expect((await ctx.db.query('SELECT enabled FROM webhook_endpoint WHERE id = $1', [other])).rows[0]).toEqual({ enabled: true });
    // Without developer:manage: 403 (demo-sub holds read permissions only).
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await get('/api/webhooks/endpoint/list', {}, sub)).status).toBe(403);
    expect((await post('/api/webhooks/endpoint/create', { merId: DEMO.subA, url: rx.url, events: ['refund.succeeded'] }, sub)).status).toBe(403);
  });

  it('at most 16 endpoints per merchant, also when created at once', async () => {
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoint WHERE mer_id = $1', [DEMO.group]);
    const free = 16 - rows[0].n;
    const res = await Promise.all(Array.from({ length: free + 4 }, () => post('/api/webhooks/endpoint/create', { merId: DEMO.group, url: rx.url, events: ['paylink.paid'] })));
    expect(res.filter((r) => r.body.code === 0)).toHaveLength(free);
    expect(res.filter((r) => r.body.code === Code.BAD_REQUEST)).toHaveLength(4);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoint WHERE mer_id = $1', [DEMO.group])).rows[0].n).toBe(16);
  });
});

describe('webhook configuration and documentation', () => {
  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS: on by default outside production, never in production', async () => {
    const { loadConfig } = await import('../../config');
    const prod = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.example.com',
      SMTP_URL: 'smtp://mail.example.com',
      ACQUIRER: 'sandbox',
      ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes',
      DATA_DIR: '/tmp/portal-wh-config',
    };
    expect(() => loadConfig({ ...prod, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    expect(loadConfig(prod).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/portal-wh-config' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/portal-wh-config', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }).webhookAllowPrivate).toBe(false);
  });

  it("docs/webhooks.md's Python verification accepts our signature (and refuses a changed body)", async (c) => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const python = ['python3', 'python'].find((p) => {
      try {
        execFileSync(p, ['--version']);
        return true;
      } catch {
        return false;
      }
    });
    if (!python) return c.skip('no Python on this machine');
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/webhooks.md'), 'utf8');
    const code = /### Python\s+```python\n([\s\S]*?)```/.exec(doc)![1];
    const { signatureHeader } = await import('./webhook.sign');
    const body = JSON.stringify({ id: 'evt_0', type: 'refund.succeeded', data: { amount: '1.00', note: '退款 ✓' } });
    const header = signatureHeader(['whsec_new', 'whsec_old'], Math.floor(Date.now() / 1000), body);
    const run = (secret: string, b: string) =>
      execFileSync(python, ['-c', `${code}\nimport sys\nprint(verify(sys.stdin.buffer.read(), sys.argv[1], sys.argv[2]))`, header, secret], { input: Buffer.from(b, 'utf8') })
        .toString()
        .trim();
    expect(run('whsec_new', body)).toBe('True');
    expect(run('whsec_old', body)).toBe('True');
    expect(run('whsec_other', body)).toBe('False');
    expect(run('whsec_new', body.replace('1.00', '9.00'))).toBe('False');
  });
});
