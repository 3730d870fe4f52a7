import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../helpers';
import { feedRow, makeConnection, signedCall, signedHeaders, type TestKey } from '../../src/modules/gateway/gateway.fixtures';
import { fillPath, providerRoutes, routeKey, type ApiRoute } from './route-table';

/**
 * The provider face (/provider/v1, issue 25) in the security suite, driven by the route table: a
 * route added tomorrow is covered without a test of its own.
 *   - unsigned, stale (either way), replayed, wrongly signed, unknown key → 401 with the envelope,
 *     nothing written;
 *   - a connection reporting for a merchant that is not its own is refused (row 403 / 404);
 *   - signed hostile bodies and paths never give a 500 and always the envelope.
 */
const RUNS_PER_ROUTE = 25;

describe.each(DB_KINDS)('provider face: signatures, scope, hostile input (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let routes: ApiRoute[];
  const writes = async () =>
    (await ctx.db.query<{ n: number }>(`SELECT (SELECT count(*) FROM txn) + (SELECT count(*) FROM gateway_control_total) + (SELECT count(*) FROM gateway_txn) + (SELECT count(*) FROM fx_rate_entry) AS n`)).rows[0].n;
  const bodyFor = (r: ApiRoute): unknown =>
    r.url.endsWith('/status') ? { gwResponse: '00' } : r.url.endsWith('/control-totals') ? { date: '2026-03-01', totals: [] }
      : r.url.endsWith('/fx-rates') ? (r.method === 'GET' ? undefined : { rates: [{ date: '2026-03-01', from: 'USD', to: 'HKD', rate: '7.8' }] }) : { transactions: [feedRow()] };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    key = await makeConnection(ctx, 'sec', [DEMO.subA]);
    routes = providerRoutes(ctx.routes);
  });
  afterAll(() => ctx?.close());

  it('the table holds the provider routes', () => {
    expect(routes.map(routeKey).sort()).toEqual([
      'GET /provider/v1/fx-rates', 'POST /provider/v1/control-totals', 'POST /provider/v1/fx-rates', 'POST /provider/v1/transactions', 'POST /provider/v1/transactions/:gwTransId/status',
    ]);
  });

  it('every route: unsigned, stale, replayed, tampered, unknown key → 401 envelope, nothing written', async () => {
    const before = await writes();
    const failures: string[] = [];
    for (const r of routes) {
      const url = fillPath(r.url, () => 'GW-x');
      const b0 = bodyFor(r);
      const body = b0 === undefined ? '' : JSON.stringify(b0);
      const now = ctx.clock.now().getTime();
      const fresh = signedHeaders(key, r.method, url, body, now);
      const cases: [string, Record<string, string>][] = [
        ['unsigned', { 'content-type': 'application/json' }],
        ['stale', signedHeaders(key, r.method, url, body, now - 6 * 60_000)],
        ['future', signedHeaders(key, r.method, url, body, now + 6 * 60_000)],
        ['tampered', { ...fresh, 'x-gateway-signature': fresh['x-gateway-signature'].replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }],
        ['unknown key', { ...fresh, 'x-gateway-key-id': 'gk_nobody_here' }],
      ];
      for (const [name, headers] of cases) {
        const res = await ctx.call({ method: r.method, url, payload: body, headers });
        if (res.status !== 401 || res.body?.code !== -1 || typeof res.body?.msg !== 'string' || res.body?.data !== null) failures.push(`${routeKey(r)} ${name} → ${res.status} ${JSON.stringify(res.body)}`);
      }
      // Replayed: the first use passes authentication (whatever the answer), the second is refused.
      const replay = signedHeaders(key, r.method, url, body, now - 1000);
      await ctx.call({ method: r.method, url, payload: body, headers: replay });
      const second = await ctx.call({ method: r.method, url, payload: body, headers: replay });
      if (second.status !== 401) failures.push(`${routeKey(r)} replayed → ${second.status}`);
    }
    expect(failures).toEqual([]);
    // (The replay's first, authenticated use may have written; the refused calls wrote nothing else.)
    expect(await writes()).toBeLessThanOrEqual(before + 2);
  });

  it("another connection's merchant is refused: batch row 403, status 404", async () => {
    const row = feedRow({ clientid: DEMO.group });
    const res = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [row] });
    expect(res.body.data.results[0]).toMatchObject({ status: 'rejected', code: 403 });
    const own = feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null, gwResponse: '04' });
    const other = await makeConnection(ctx, 'sec-other', [DEMO.group]);
    const mine = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [own] });
    expect(mine.body.data.results[0].status, JSON.stringify(mine.body)).toBe('accepted');
    const st = await signedCall(ctx, other, 'POST', `/provider/v1/transactions/${own.gwGTransId}/status`, { gwResponse: '00' });
    expect(st.status).toBe(404);
  });

  it('signed hostile input: never a 500, always the envelope', async () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('', '-1', '0', '1e309', 'NaN', '9007199254740993', "' OR 1=1 --", '\u0000', '😀'.repeat(50), 'a'.repeat(5000), '2026-02-30', '2026-03-01 25:00:00'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    );
    const rowKeys = Object.keys(feedRow());
    const failures: string[] = [];
    for (const r of routes) {
      const keys = Object.keys(((r.schema?.body as z.ZodObject | undefined)?.shape ?? {}) as Record<string, unknown>);
      const body = r.url.endsWith('/transactions')
        ? fc.oneof(
            fc.array(fc.dictionary(fc.constantFrom(...rowKeys, 'unexpected'), hostile, { maxKeys: 8 }), { minLength: 1, maxLength: 4 }).map((rows) => ({
              transactions: rows.map((x) => ({ ...feedRow(), ...x })),
            })),
            fc.dictionary(fc.constantFrom(...keys, 'unexpected'), hostile, { maxKeys: 3 }),
          )
        : r.url.endsWith('/fx-rates') && r.method === 'POST'
          ? fc.array(fc.dictionary(fc.constantFrom('date', 'from', 'to', 'rate', 'correction', 'unexpected'), hostile, { maxKeys: 6 }), { minLength: 1, maxLength: 4 }).map((rows) => ({
              rates: rows.map((x) => ({ date: '2026-03-01', from: 'USD', to: 'HKD', rate: '7.8', ...x })),
            }))
        : fc.dictionary(fc.constantFrom(...keys, 'unexpected'), hostile, { maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 70 }), body, async (param, b) => {
          const url = fillPath(r.url, () => encodeURIComponent(param || 'x'));
          const res = await signedCall(ctx, key, r.method as 'POST', url, b);
          const env = res.body as { code?: unknown; msg?: unknown; data?: unknown };
          const ok = res.status < 500 && typeof env?.code === 'number' && typeof env?.msg === 'string' && 'data' in env;
          if (!ok) failures.push(`${routeKey(r)} ${url.slice(0, 60)} ${JSON.stringify(b).slice(0, 160)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          return ok;
        }),
        { numRuns: RUNS_PER_ROUTE, seed: 2525, endOnFailure: true },
      ).catch(() => undefined);
    }
    expect(failures).toEqual([]);
  });
});
