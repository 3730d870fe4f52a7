import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../helpers';
import { feedRow, makeConnection, signedCall, signedHeaders, type TestKey } from '../../src/modules/gateway/gateway.fixtures';
import { FeedRowSchema } from '../../src/modules/gateway/feed.service';
import { listMonths } from '../../src/db/partitions';
import { PARTITIONS_JOB, setUpPartitionJobs } from '../../src/jobs/partitions.job';
import { addTxn } from '../../src/modules/txn/txn.fixtures';
import { reconcileDay } from '../../src/modules/gateway/recon.service';
import { platformDate } from '../../src/modules/payments/time';
import { fillPath, providerRoutes, routeKey, type ApiRoute } from './route-table';

/**
 * The provider face (/provider/v1, issue 25) in the security suite, driven by the route table: a
 * route added tomorrow is covered without a test of its own.
 *   - unsigned, stale (either way), replayed, wrongly signed, unknown key → 401 with the envelope,
 *     nothing written;
 *   - a connection reporting for a merchant that is not its own is refused (row 403 / 404);
 *   - signed hostile bodies and paths never give a 500 and always the envelope.
 */
const RUNS_PER_ROUTE = 40;

describe.each(DB_KINDS)('provider face: signatures, scope, hostile input (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let routes: ApiRoute[];
  const writes = async () =>
    (
      await ctx.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM txn) + (SELECT count(*) FROM gateway_control_total) + (SELECT count(*) FROM gateway_txn) + (SELECT count(*) FROM fx_rate_entry) AS n`,
      )
    ).rows[0].n;
  const bodyFor = (r: ApiRoute): unknown =>
    r.url.endsWith('/status')
      ? { gwResponse: '00' }
      : r.url.endsWith('/control-totals')
        ? { date: '2026-03-01', totals: [] }
        : r.url.endsWith('/disputes')
          ? { disputes: [{}] } // issue 48
          : r.url.endsWith('/fx-rates')
            ? r.method === 'GET'
              ? undefined
              : { rates: [{ date: '2026-03-01', from: 'USD', to: 'HKD', rate: '7.8' }] }
            : { transactions: [feedRow()] };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    key = await makeConnection(ctx, 'sec', [DEMO.subA]);
    routes = providerRoutes(ctx.routes);
  });
  afterAll(() => ctx?.close());

  it('the table holds the provider routes', () => {
    expect(routes.map(routeKey).sort()).toEqual(
      [
        'GET /provider/v1/fx-rates',
        'POST /provider/v1/control-totals',
        'POST /provider/v1/fx-rates',
        'POST /provider/v1/transactions',
        'POST /provider/v1/transactions/:gwTransId/status',
        // Issue 48.
        'POST /provider/v1/disputes',
      ].sort(),
    );
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
        if (res.status !== 401 || res.body?.code !== -1 || typeof res.body?.msg !== 'string' || res.body?.data !== null)
          failures.push(`${routeKey(r)} ${name} → ${res.status} ${JSON.stringify(res.body)}`);
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

  // Issue 47: a NUL byte in a row's text field gave 500 and rolled back the whole batch.
  it('a NUL, a C1 control or a lone surrogate in any text field rejects that row alone, with the field named; the valid rows are kept', async () => {
    const TX = '/provider/v1/transactions';
    const textFields = [
      'gwGTransId',
      'orderNum',
      'originorderno',
      'respMsg',
      'paymentBrand',
      'subBrandCode',
      'channelOrderNo',
      'merReserve',
      'storeId',
      'storeName',
      'cardNumber',
      'gwResponse',
      'gwTranType',
      'paymentSchema',
      'currentTime',
      'gwAmount',
      'gwCurrency',
      'clientid',
    ];
    const bad = ['a\u0000b', 'x\u0085y', 'z\uD800'];
    const rows: Record<string, unknown>[] = [];
    const expected: string[] = [];
    for (const f of textFields) {
      for (const v of bad) {
        rows.push(feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null, [f]: v }));
        expected.push(f);
      }
    }
    const good = [
      feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null, respMsg: 'Approved 承認' }),
      feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null }),
    ];
    const before = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
    const res = await signedCall(ctx, key, 'POST', TX, { transactions: [good[0], ...rows, good[1]] }, { headers: { 'accept-language': 'ja' } });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    const results = res.body.data.results as { status: string; code: number; field?: string; msg: string }[];
    expect(results[0].status).toBe('accepted');
    expect(results[results.length - 1].status).toBe('accepted');
    const middle = results.slice(1, -1);
    expect(middle.map((r) => r.status)).toEqual(rows.map(() => 'rejected'));
    expect(middle.map((r) => r.code)).toEqual(rows.map(() => 400));
    // The field is named (the feed's name) and the reason is in the caller's language.
    middle.forEach((r, i) => {
      expect(r.field, JSON.stringify(r)).toBe(expected[i]);
      expect(r.msg).toMatch(/制御文字/);
    });
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n).toBe(before + 2);
  });

  it('a NUL in the status path or its body → 400 envelope, never 500', async () => {
    const cases: [string, unknown][] = [
      ['/provider/v1/transactions/GW%00x/status', { gwResponse: '00' }],
      ['/provider/v1/transactions/%00/status', { gwResponse: '00' }],
      ['/provider/v1/transactions/GW-%C3%A9/status', { gwResponse: '00' }],
      ['/provider/v1/transactions/GW-x/status', { gwResponse: '0\u00000' }],
      ['/provider/v1/transactions/GW-x/status', { gwResponse: '00', respMsg: 'ok\u0000' }],
    ];
    for (const [url, body] of cases) {
      const res = await signedCall(ctx, key, 'POST', url, body);
      expect(res.status, `${url} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ code: 400, data: null });
    }
  });

  // Issue 47: a 409 told connection A that an id existed, and A's rejected row kept a claim on it.
  it("ids are per connection: another connection's id (or a row of a merchant not its own) answers as a fresh id, reveals nothing, squats nothing; a rejected row keeps no claim", async () => {
    const TX = '/provider/v1/transactions';
    const a = key; // reports for DEMO.subA
    const b = await makeConnection(ctx, 'sec-probe', [DEMO.group]);
    const forB = (o: Record<string, unknown> = {}) => feedRow({ clientid: DEMO.group, ...o });
    const forA = (o: Record<string, unknown> = {}) => feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null, ...o });
    const claims = async (conn: string, id: string) => (await ctx.db.query('SELECT 1 FROM gateway_txn WHERE connection_id = $1 AND gw_trans_id = $2', [conn, id])).rows.length;
    // 1. A's id sent by B: B's own transaction, answered like any fresh id; A's row unchanged.
    const rowA = forA();
    expect((await signedCall(ctx, a, 'POST', TX, { transactions: [rowA] })).body.data.results[0].status).toBe('accepted');
    const probe = await signedCall(ctx, b, 'POST', TX, { transactions: [forB({ gwGTransId: rowA.gwGTransId }), forB()] });
    const [p0, p1] = probe.body.data.results;
    expect({ ...p0, index: 0, gwGTransId: '' }).toEqual({ ...p1, index: 0, gwGTransId: '' });
    expect(p0).toMatchObject({ status: 'accepted', code: 0 });
    const { rows: mine } = await ctx.db.query<{ mer_id: string; amount: number }>('SELECT mer_id, amount FROM txn WHERE gw_trans_id = $1', [rowA.gwGTransId]);
    expect(mine).toEqual([{ mer_id: DEMO.subA, amount: 12345 }]);
    // The reconciliation maps each connection's id to its own row: no difference for either.
    const day = platformDate(ctx.clock.now().getTime(), ctx.config.platformTz);
    for (const c of ['sec', 'sec-probe']) await reconcileDay(ctx.db, day, { platformTz: ctx.config.platformTz, connectionId: c });
    const { rows: diffs } = await ctx.db.query('SELECT connection_id, kind FROM recon_difference WHERE gw_trans_id = $1', [rowA.gwGTransId]);
    expect(diffs).toEqual([]);
    // A late status by B for that id finds B's row, never A's; A's still works on its own.
    expect((await signedCall(ctx, b, 'POST', `${TX}/${rowA.gwGTransId}/status`, { gwResponse: '00' })).body.data).toMatchObject({ gwGTransId: rowA.gwGTransId, changed: false });
    // 2. A row the portal holds for a merchant not B's (a sandbox row of subA, never reported):
    //    B sending its id learns nothing and takes nothing — A then reports it as a duplicate.
    const sandbox = await addTxn(ctx, { merId: DEMO.subA, txnTime: ctx.clock.now() });
    const { rows: sb } = await ctx.db.query<Record<string, any>>('SELECT * FROM txn WHERE id = $1', [sandbox.id]);
    const s0 = sb[0];
    const squat = await signedCall(ctx, b, 'POST', TX, { transactions: [forB({ gwGTransId: s0.gw_trans_id })] });
    expect(squat.body.data.results[0]).toMatchObject({ status: 'accepted', code: 0 });
    const same = {
      gwGTransId: s0.gw_trans_id,
      clientid: DEMO.subA,
      orderNum: s0.order_no,
      gwTranType: 'PURC',
      gwResponse: '00',
      gwAmount: '100.00',
      gwCurrency: 'CNY',
      paymentSchema: 'WX',
      paymentBrand: 'wechat_pay',
      respMsg: 'Approved',
      currentTime: new Date(s0.txn_time).toISOString(),
      ...(s0.card_first6 ? { cardNumber: `${s0.card_first6}******${s0.card_last4}` } : {}),
      ...(s0.channel_order_no ? { channelOrderNo: s0.channel_order_no } : {}),
    };
    const own = await signedCall(ctx, a, 'POST', TX, { transactions: [same] });
    expect(own.body.data.results[0], JSON.stringify(own.body)).toMatchObject({ status: 'duplicate', code: 0 });
    // 3. A rejected row keeps no claim: other content for that id (409), a refused row (400).
    const sandbox2 = await addTxn(ctx, { merId: DEMO.subA, txnTime: ctx.clock.now() });
    const s2 = (await ctx.db.query<Record<string, any>>('SELECT * FROM txn WHERE id = $1', [sandbox2.id])).rows[0];
    const conflict = await signedCall(ctx, a, 'POST', TX, {
      transactions: [{ ...same, gwGTransId: s2.gw_trans_id, orderNum: s2.order_no, gwAmount: '1.00', currentTime: new Date(s2.txn_time).toISOString() }],
    });
    expect(conflict.body.data.results[0]).toMatchObject({ status: 'rejected', code: 409 });
    expect(await claims('sec', s2.gw_trans_id)).toBe(0);
    const refused = forB({ gwCurrency: 'XXX' });
    expect((await signedCall(ctx, b, 'POST', TX, { transactions: [refused] })).body.data.results[0].status).toBe('rejected');
    expect(await claims('sec-probe', refused.gwGTransId as string)).toBe(0);
    // … and the id is free for whoever reports it next (here A, corrected to its merchant).
    expect((await signedCall(ctx, a, 'POST', TX, { transactions: [forA({ gwGTransId: refused.gwGTransId })] })).body.data.results[0].status).toBe('accepted');
  });

  // Issue 47: any currentTime 1900–2999 was accepted and each new month made a partition of txn.
  it('currentTime outside the window (400 days back, 2 ahead) is rejected per row; the feed never creates a month; a month the job has not made yet refuses the row with the reason', async () => {
    const TX = '/provider/v1/transactions';
    const own = (at: Date | string) =>
      feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null, currentTime: typeof at === 'string' ? at : at.toISOString().replace(/\.\d+Z$/, 'Z') });
    const now = ctx.clock.now().getTime();
    const day = 86_400_000;
    const months = async () => (await listMonths(ctx.db, 'txn')).map((m) => m.name);
    const before = await months();
    const outside = [own(new Date(now - 401 * day)), own(new Date(now + 3 * day)), own('1900-01-01 00:00:00'), own('2999-12-31 23:59:59'), own('2150-06-01T00:00:00Z')];
    const inside = own(new Date(now - 300 * day));
    const res = await signedCall(ctx, key, 'POST', TX, { transactions: [own(new Date(now)), ...outside, inside, own(new Date(now + day))] });
    expect(res.status).toBe(200);
    const r = res.body.data.results as { status: string; code: number; field?: string; msg: string }[];
    expect(r.map((x) => x.status)).toEqual(['accepted', ...outside.map(() => 'rejected'), 'rejected', 'accepted']);
    for (const x of r.slice(1, 1 + outside.length)) expect(x).toMatchObject({ code: 400, field: 'currentTime', msg: expect.stringMatching(/window.*400 days back to 2 days ahead/) });
    // 300 days back is inside the window, but its month was not made (no partition job ran here).
    expect(r[1 + outside.length]).toMatchObject({ code: 400, field: 'currentTime', msg: expect.stringMatching(/no month \d{4}-\d{2}.*partition job/) });
    expect(await months()).toEqual(before);
    // Nothing of the refused rows kept: sent again once the partition job has run, the row is taken.
    const handlers = await setUpPartitionJobs(ctx.deps);
    await handlers[PARTITIONS_JOB]({ db: ctx.db, clock: ctx.clock, job: { id: 0, kind: PARTITIONS_JOB, payload: {}, attempts: 1 } } as never);
    expect((await months()).length).toBeGreaterThan(before.length);
    const again = await signedCall(ctx, key, 'POST', TX, { transactions: [inside] });
    expect(again.body.data.results[0].status, JSON.stringify(again.body)).toBe('accepted');
  });

  it('signed hostile input: never a 500, always the envelope', async () => {
    // Good-looking text with a NUL, a C0 or C1 control or a lone surrogate inside.
    const controlLaced = fc
      .tuple(fc.constantFrom('GW-', 'F-', '100000000000001', 'Approved', '2026-03-01 10:00:00', ''), fc.constantFrom('\u0000', '\u0085', '\uD800', '\uDFFF', '\u001B'), fc.constantFrom('', 'x', '1'))
      .map(([a, b, c]) => a + b + c);
    const hostile = fc.oneof(
      fc.string({ maxLength: 80 }),
      // Every code point, lone surrogates and NUL included, alone and inside otherwise good text.
      fc.string({ unit: 'binary', maxLength: 40 }),
      { weight: 4, arbitrary: controlLaced },
      fc.constantFrom('', '-1', '0', '1e309', 'NaN', '9007199254740993', "' OR 1=1 --", '\u0000', '😀'.repeat(50), 'a'.repeat(5000), '2026-02-30', '2026-03-01 25:00:00'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    );
    // Every field of the row schema (the optional ones too: respMsg, merReserve, storeName, …).
    const rowKeys = Object.keys(FeedRowSchema.shape);
    const ownRow = () => feedRow({ clientid: DEMO.subA, gwCurrency: 'CNY', paymentSchema: 'UP', paymentBrand: null });
    const failures: string[] = [];
    for (const r of routes) {
      const keys = Object.keys(((r.schema?.body as z.ZodObject | undefined)?.shape ?? {}) as Record<string, unknown>);
      const body = r.url.endsWith('/transactions')
        ? fc.oneof(
            // Rows the connection may send (its merchant, channel, currency), one or two fields hostile:
            // each such row reaches the database unless the parsing refuses it.
            fc.array(fc.dictionary(fc.constantFrom(...rowKeys), hostile, { minKeys: 1, maxKeys: 1 }), { minLength: 1, maxLength: 8 }).map((rows) => ({
              transactions: rows.map((x) => ({ ...ownRow(), ...x })),
            })),
            fc.array(fc.tuple(fc.constantFrom(...rowKeys), controlLaced), { minLength: 1, maxLength: 8 }).map((rows) => ({
              transactions: rows.map(([k, v]) => ({ ...ownRow(), [k]: v })),
            })),
            fc.array(fc.dictionary(fc.constantFrom(...rowKeys, 'unexpected'), hostile, { maxKeys: 8 }), { minLength: 1, maxLength: 4 }).map((rows) => ({
              transactions: rows.map((x) => ({ ...feedRow(), ...x })),
            })),
            fc.dictionary(fc.constantFrom(...keys, 'unexpected'), hostile, { maxKeys: 3 }),
          )
        : r.url.endsWith('/fx-rates') && r.method === 'POST'
          ? fc.array(fc.dictionary(fc.constantFrom('date', 'from', 'to', 'rate', 'correction', 'unexpected'), hostile, { maxKeys: 6 }), { minLength: 1, maxLength: 4 }).map((rows) => ({
              rates: rows.map((x) => ({ date: '2026-03-01', from: 'USD', to: 'HKD', rate: '7.8', ...x })),
            }))
          : keys.length
            ? fc.oneof(
                fc.dictionary(fc.constantFrom(...keys, 'unexpected'), hostile, { maxKeys: 4 }),
                // A valid body with one field hostile (the path parameter is hostile too).
                fc.dictionary(fc.constantFrom(...keys), hostile, { maxKeys: 1 }).map((d) => ({ ...(bodyFor(r) as object), ...d })),
              )
            : fc.dictionary(fc.constantFrom('unexpected'), hostile, { maxKeys: 1 });
      await fc
        .assert(
          fc.asyncProperty(
            fc.oneof(fc.string({ maxLength: 70 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('\u0000', 'GW-\u0000', '%00', '..', 'GW-x\u0085')),
            body,
            async (param, b) => {
              // Every byte percent-encoded (a NUL, a control, non-ASCII reach the route as sent).
              const url = fillPath(r.url, () => (param ? [...Buffer.from(param, 'utf8')].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('') : 'x'));
              const res = await signedCall(ctx, key, r.method as 'POST', url, b);
              const env = res.body as { code?: unknown; msg?: unknown; data?: unknown };
              const ok = res.status < 500 && typeof env?.code === 'number' && typeof env?.msg === 'string' && 'data' in env;
              if (!ok) failures.push(`${routeKey(r)} ${url.slice(0, 60)} ${JSON.stringify(b).slice(0, 160)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
              return ok;
            },
          ),
          { numRuns: r.url.endsWith('/transactions') ? 2 * RUNS_PER_ROUTE : RUNS_PER_ROUTE, seed: 2525, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
  });
});
