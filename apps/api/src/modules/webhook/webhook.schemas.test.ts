import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { Perm, RefundCode, WEBHOOK_EVENTS } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { EVENT_FORMS, webhookEventsOf, type WebhookEventDef } from '../contract';
import { MODULES } from '../index';
import { addTxn, auth, loginWithStepUp } from '../txn/txn.fixtures';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { createPis } from '../store/payinstore.fixtures';
import { expireDue } from '../paybylink/paybylink.repo';
import { ingestTransaction } from '../payments/ingest.service';
import { settleDate } from '../payments/settlement/settle.run';
import { receiveDispute } from '../disputes/disputes.receive';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { addEndpoint } from './webhook.fixtures';
import { eventObject, type StoredEvent } from './webhook.render';

/**
 * Issue 45 §3, decision 079: every webhook event type a module emits is declared in its manifest
 * with the schema of its payload in both event forms (2026-12-01 and 2026-12-03), and every event
 * the real triggers record (on both engines) parses with its schema — nothing more, nothing less
 * (a field the schema does not name fails: the parsed value must equal the body). From 2026-12-03
 * a transaction.* event's data is the very object GET /v1/transactions/{id} answers.
 */
const DEFS = webhookEventsOf(MODULES);
const byType = new Map<string, WebhookEventDef>(DEFS.map((d) => [d.type, d]));

/** The event types the migrations' webhook functions name as literals ('dispute.created'…). */
function typesInMigrations(): Set<string> {
  const dir = path.join(__dirname, '../../../migrations');
  const out = new Set<string>();
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.sql'))) {
    const sql = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const fn of sql.matchAll(/FUNCTION\s+webhook_\w+\([^)]*\)[\s\S]*?\$\$([\s\S]*?)\$\$/g)) for (const lit of fn[1].matchAll(/'([a-z_]+\.[a-z_]+)'/g)) out.add(lit[1]);
  }
  // webhook_txn_type composes these from 'transaction.' / 'refund.' and 'succeeded' / 'failed'.
  for (const t of ['transaction.', 'refund.']) for (const s of ['succeeded', 'failed']) out.add(t + s);
  return out;
}

describe('webhook event declarations', () => {
  it('each event type is declared once, with a schema in both forms; the declared types are the contract list the endpoint screen offers', () => {
    const types = DEFS.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const d of DEFS) for (const f of EVENT_FORMS) expect(typeof d.payload[f]?.safeParse, `${d.type} ${f}`).toBe('function');
  });

  it('every event type the migrations emit is declared (a new trigger type without a manifest entry fails)', () => {
    const emitted = [...typesInMigrations()];
    expect(emitted.length).toBeGreaterThanOrEqual(14);
    expect(emitted.filter((t) => !byType.has(t))).toEqual([]);
  });
});

describe.each(DB_KINDS)('every event through the real triggers parses with its schema in both forms (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  const post = (url: string, payload: Record<string, unknown>, token = demo) => {
    const f = form(payload as Record<string, string>);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, ...auth(token) }, payload: f.payload });
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    key = await createApiKey(ctx, demo, { permissions: [Perm.txnList, Perm.txnDetail] });
    for (const merId of [DEMO.group, DEMO.subA, DEMO.other]) await addEndpoint(ctx, merId, 'http://127.0.0.1:9/hook', ['*']);
  });
  afterAll(() => ctx?.close());
  const stored = async () => (await ctx.db.query<StoredEvent>('SELECT event_id, type, mer_id, data, created_at FROM webhook_event ORDER BY id')).rows;

  it('produces every declared type; each parses in 2026-12-01 and 2026-12-03; no type is emitted that no manifest declares', async () => {
    // Purchases and refunds, final at once.
    const ok = await addTxn(ctx, { orderNo: `SC-${kind}-OK`, merReserve: 'ref-1' });
    await addTxn(ctx, { orderNo: `SC-${kind}-NO`, gwResponse: '05', respMsg: 'Declined' });
    const p = await addTxn(ctx, { orderNo: `SC-${kind}-RF`, amount: 10000 });
    expect((await post('/api/txn/refund', { id: p.gwTransId, amount: '12.00' })).body.data.code).toBe(0);
    expect((await post('/api/txn/refund', { id: p.gwTransId, amount: '1.51' })).body.data.gwResponse).toBe('01');
    // One public transaction shape (before the settlement run below settles them: the event holds the row as it was): the event's transaction is GET /v1/transactions/{id}'s object, a refund's GET /v1/refunds/{id}'s.
    const now = await stored();
    const of = (type: string, orderNo: string) => {
      const e = now.find((r) => r.type === type && r.data.orderNo === orderNo);
      expect(e, `${type} ${orderNo}`).toBeTruthy();
      return eventObject(e!, '2026-12-03') as { data: { id: number } };
    };
    const t = of('transaction.succeeded', `SC-${kind}-OK`);
    expect(t.data.id).toBe(ok.id);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${ok.id}` })).body).toEqual(t.data);
    const failed = of('transaction.failed', `SC-${kind}-NO`);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${failed.data.id}` })).body).toEqual(failed.data);
    for (const type of ['refund.succeeded', 'refund.failed']) {
      const e = now.find((r) => r.type === type && r.data.originalOrderNo === `SC-${kind}-RF`)!;
      const r = eventObject(e, '2026-12-03') as { data: { id: number; purchase: number } };
      expect(r.data.purchase).toBe(p.id);
      expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${r.data.id}` })).body).toEqual(r.data);
    }
    // Pay by link paid, closed, expired; in store paid.
    const paid = await createOrder(ctx, demo, { totalAmount: '20.00', goodsPrice: '20.00' });
    expect((await buyerPay(ctx, paid.linkToken)).body.code).toBe(0);
    const closed = await createOrder(ctx, demo, { totalAmount: '21.00', goodsPrice: '21.00' });
    expect((await ctx.call({ method: 'GET', url: `/api/payByLink/closeOrder/${closed.id}`, headers: auth(demo) })).body.data).toBe('00');
    const expiring = await createOrder(ctx, demo, { totalAmount: '22.00', goodsPrice: '22.00' });
    await expireDue(ctx.db, new Date(Date.now() + 400 * 86_400_000), { id: expiring.id });
    const pis = await createPis(ctx, demo, DEMO.stores.causewayBay);
    expect((await buyerPay(ctx, pis.linkToken)).body.code).toBe(0);
    // The settlement run: a transfer and a reserve released at once.
    await ctx.db.query(
      `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
       VALUES ($1, 'CARD', 0, 0, 1, 1000, 0, 0, 0, 'D')
       ON CONFLICT (mer_id, bus_line) DO UPDATE SET mdr_bp = 0, fixed_fee = 0, cycle_days = 1, reserve_bp = 1000, reserve_hold_days = 0, tran_threshold = 0, tran_fee = 0, transfer_period = 'D'`,
      [DEMO.other],
    );
    const sale = { merId: DEMO.other, orderNo: `SC-${kind}-SET`, tranType: 'PURC', amount: 10000, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', gwResponse: '00' };
    await ingestTransaction(ctx.db, { ...sale, txnTime: new Date('2026-11-20T04:00:00Z') }, { platformTz: ctx.config.platformTz });
    await settleDate(ctx.db, '2026-11-21');
    // A refund above the four-eyes limit, rejected by a second administrator.
    await ctx.db.query(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions)
       SELECT 'checker', password_hash, 'checker@demo-group.example', mer_id, 'MAIN', true, permissions FROM app_user WHERE username = 'demo'`,
    );
    expect((await post('/api/approval/policy', { merId: DEMO.group, refundLimits: 'CNY:50.00', permissionRaise: 'false', expiryHours: 24 })).body.code).toBe(0);
    const big = await addTxn(ctx, { orderNo: `SC-${kind}-4E`, amount: 10000 });
    const asked = (await post('/api/txn/refund', { id: big.gwTransId, amount: '80.00' })).body.data;
    expect(asked.code).toBe(RefundCode.APPROVAL_REQUIRED);
    const checker = await loginWithStepUp(ctx, 'checker');
    const rejected = await post('/api/approval/reject', { id: asked.approvalId }, checker);
    expect(rejected.body.code, rejected.body.msg).toBe(0);
    // A dispute: arrived, under review, lost.
    const disputed = await addTxn(ctx, { orderNo: `SC-${kind}-DSP`, amount: 10000 });
    const notice = {
      gwDisputeId: `DSP-SC-${kind}`,
      gwTransId: disputed.gwTransId,
      kind: 'chargeback' as const,
      reasonCode: '13.1',
      amount: 6000,
      currency: 'CNY',
      deadline: new Date(ctx.clock.now().getTime() + 5 * 86_400_000),
    };
    for (const state of ['needs_response', 'under_review', 'lost'] as const)
      await ctx.db.tx((q) => receiveDispute(q, { ...notice, state }, { by: 'sandbox', platformTz: ctx.config.platformTz, now: ctx.clock.now() }));

    const rows = await stored();
    const seen = new Set(rows.map((e) => e.type));
    expect(
      [...seen].filter((t) => !byType.has(t)),
      'emitted without a declaration',
    ).toEqual([]);
    expect(
      DEFS.map((d) => d.type).filter((t) => !seen.has(t)),
      'declared but not produced here',
    ).toEqual([]);
    // The /v1 document publishes them (OpenAPI 3.1 webhooks): one entry per type, the delivery's headers, the body in both forms.
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENTS]);
    const ajv = new Ajv({ strict: false, allErrors: true });
    const published = new Map(
      DEFS.map((d) => {
        const op = doc.webhooks[d.type].post;
        expect(op.parameters.map((h: { name: string }) => h.name)).toEqual(expect.arrayContaining(['Portal-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'Portal-Event-Id']));
        return [d.type, ajv.compile({ allOf: [op.requestBody.content['application/json'].schema], components: doc.components })];
      }),
    );
    for (const e of rows) {
      for (const f of EVENT_FORMS) {
        const body = JSON.parse(JSON.stringify(eventObject(e, f)));
        const v = published.get(e.type)!;
        expect(v(body), `${e.type} ${f} against /v1/docs: ${ajv.errorsText(v.errors)}`).toBe(true);
        const parsed = byType.get(e.type)!.payload[f].safeParse(body);
        expect(parsed.success, `${e.type} ${f}: ${parsed.error?.message} in ${JSON.stringify(body)}`).toBe(true);
        expect(parsed.data, `${e.type} ${f}: a field its schema does not name`).toEqual(body);
      }
      // The 2026-06-01 version (and none) get the first form, as every version before 2026-12-03.
      expect(eventObject(e, '2026-06-01')).toEqual(eventObject(e, '2026-12-01'));
    }
  });
});
