import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../test/helpers';
import { feedRow, makeConnection, signedCall, type TestKey } from '../modules/gateway/gateway.fixtures';
import { reconcileDay } from '../modules/gateway/recon.service';
import { loginWithStepUp } from '../modules/txn/txn.fixtures';

/**
 * Issue 46: /metrics has what an operator pages on — webhook deliveries failing and endpoints
 * disabled, reconciliation differences per gateway connection, outbound gateway operations left
 * processing — read from the database at scrape time (plugins/metrics.operations.ts).
 */
describe.each(DB_KINDS)('operations gauges on /metrics (issue 46, %s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let token: string;
  const scrape = async () => {
    const r = await ctx.call({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(r.status).toBe(200);
    return (r.body as unknown as { raw: string }).raw;
  };
  /** The value of one series (NaN when absent). */
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : NaN;
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    key = await makeConnection(ctx, 'metricsgw', [DEMO.group]);
    token = await loginWithStepUp(ctx);
  });
  afterAll(async () => ctx?.close());

  it('nothing wrong: every gauge is there at 0', async () => {
    const m = await scrape();
    expect(value(m, 'portal_webhook_deliveries_retrying')).toBe(0);
    expect(value(m, 'portal_webhook_deliveries_failed_1h')).toBe(0);
    expect(value(m, 'portal_webhook_endpoints_disabled{reason="failing"}')).toBe(0);
    expect(value(m, 'portal_webhook_endpoints_disabled{reason="user"}')).toBe(0);
    for (const k of ['refund', 'void', 'charge']) {
      expect(value(m, `portal_acquirer_operations_pending{kind="${k}"}`)).toBe(0);
      expect(value(m, `portal_acquirer_operation_oldest_pending_seconds{kind="${k}"}`)).toBe(0);
    }
    // A connection never reconciled: its kinds at 0.
    expect(value(m, 'portal_recon_differences{connection="metricsgw",kind="missing"}')).toBe(0);
  });

  it('webhooks: deliveries retrying, given up within the hour, endpoints disabled by reason', async () => {
    const ep = async (enabled: boolean, reason: string | null) =>
      (
        await ctx.db.query<{ id: number }>(
          `INSERT INTO webhook_endpoint (mer_id, url, events, enabled, disabled_reason, disabled_at, secret_key_id, secret_enc)
         VALUES ($1, 'https://hooks.example.com/x', '{refund.succeeded}', $2, $3, CASE WHEN $2 THEN NULL ELSE now() END, 'whk_test', 'enc') RETURNING id`,
          [DEMO.group, enabled, reason],
        )
      ).rows[0].id;
    const on = await ep(true, null);
    await ep(false, 'failing');
    await ep(false, 'failing');
    await ep(false, 'user');
    const ev = (await ctx.db.query<{ id: number }>(`INSERT INTO webhook_event (mer_id, type, data) VALUES ($1, 'refund.succeeded', '{}') RETURNING id`, [DEMO.group])).rows[0].id;
    const deliveries: [string, number, string | null][] = [
      ['pending', 3, "now() - interval '1 minute'"], // retrying
      ['pending', 1, "now() - interval '5 minutes'"], // retrying
      ['pending', 0, null], // not tried yet
      ['failed', 40, "now() - interval '10 minutes'"], // given up within the hour
      ['failed', 40, "now() - interval '2 hours'"], // given up earlier
      ['succeeded', 2, "now() - interval '1 minute'"],
    ];
    for (const [i, [state, attempts, last]] of deliveries.entries()) {
      // One event per delivery of the endpoint (event, endpoint) is unique.
      const e = i === 0 ? ev : (await ctx.db.query<{ id: number }>(`INSERT INTO webhook_event (mer_id, type, data) VALUES ($1, 'refund.succeeded', '{}') RETURNING id`, [DEMO.group])).rows[0].id;
      await ctx.db.query(
        `INSERT INTO webhook_delivery (event_id, endpoint_id, mer_id, state, attempts, next_attempt_at, give_up_at, last_status, last_attempt_at)
         VALUES ($1, $2, $3, $4, $5, now(), now() + interval '1 day', 500, ${last ?? 'NULL'})`,
        [e, on, DEMO.group, state, attempts],
      );
    }
    const m = await scrape();
    expect(value(m, 'portal_webhook_deliveries_retrying')).toBe(2);
    expect(value(m, 'portal_webhook_deliveries_failed_1h')).toBe(1);
    expect(value(m, 'portal_webhook_endpoints_disabled{reason="failing"}')).toBe(2);
    expect(value(m, 'portal_webhook_endpoints_disabled{reason="user"}')).toBe(1);
  });

  it("reconciliation: the differences of each connection's last reconciled day, by kind (unreported included)", async () => {
    const now = ctx.clock
      .now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    const p = feedRow({ currentTime: now, gwAmount: '100.00' });
    const refused = feedRow({ currentTime: now, gwCurrency: 'EUR', paymentSchema: 'UP_B2B' });
    const batch = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [p, refused] });
    expect(batch.body.data).toMatchObject({ accepted: 1, rejected: 1 });
    // A refund the sandbox approved at once: the gateway never hears of it.
    const body = form({ id: p.gwGTransId as string, amount: '20.00', requestKey: 'metrics-refund-1' });
    const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { 'x-token': token, ...body.headers }, payload: body.payload });
    expect(r.body.data).toMatchObject({ gwResponse: '00' });
    const day = (await ctx.db.query<{ d: string }>('SELECT txn_date::text AS d FROM txn WHERE id = $1', [r.body.data.refundId])).rows[0].d;
    const [res] = await reconcileDay(ctx.db, day, { platformTz: ctx.config.platformTz, connectionId: 'metricsgw' });
    expect(res).toMatchObject({ missing: 1, unreported: 1 });
    const m = await scrape();
    expect(value(m, 'portal_recon_differences{connection="metricsgw",kind="missing"}')).toBe(1);
    expect(value(m, 'portal_recon_differences{connection="metricsgw",kind="unreported"}')).toBe(1);
    expect(value(m, 'portal_recon_differences{connection="metricsgw",kind="amount"}')).toBe(0);
    expect(value(m, 'portal_recon_differences{connection="metricsgw",kind="extra"}')).toBe(0);
    // An older day reconciled afterwards does not replace the last day's figures.
    await reconcileDay(ctx.db, '2026-01-05', { platformTz: ctx.config.platformTz, connectionId: 'metricsgw' });
    expect(value(await scrape(), 'portal_recon_differences{connection="metricsgw",kind="unreported"}')).toBe(1);
  });

  it('outbound operations left processing: how many per kind, and the oldest one’s age', async () => {
    const p = feedRow({
      currentTime: ctx.clock
        .now()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
      gwAmount: '100.00',
    });
    await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [p] });
    // The sandbox leaves …04 processing: the operation stays pending for the job to ask again.
    const body = form({ id: p.gwGTransId as string, amount: '10.04', requestKey: 'metrics-refund-2' });
    const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { 'x-token': token, ...body.headers }, payload: body.payload });
    expect(r.body.data).toMatchObject({ gwResponse: '04' });
    await ctx.db.query(`UPDATE acquirer_operation SET created_at = now() - interval '20 minutes' WHERE txn_id = $1`, [r.body.data.refundId]);
    const m = await scrape();
    expect(value(m, 'portal_acquirer_operations_pending{kind="refund"}')).toBe(1);
    expect(value(m, 'portal_acquirer_operations_pending{kind="charge"}')).toBe(0);
    expect(value(m, 'portal_acquirer_operation_oldest_pending_seconds{kind="refund"}')).toBeGreaterThanOrEqual(1200);
    expect(value(m, 'portal_acquirer_operation_oldest_pending_seconds{kind="charge"}')).toBe(0);
  });
});
