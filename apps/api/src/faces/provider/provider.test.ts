import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { feedRow, makeConnection, makeFeedMonths, signedCall, signedHeaders, type TestKey } from '../../modules/gateway/gateway.fixtures';
import { addKey, revokeKey } from '../../modules/gateway/gateway.service';

const TX = '/provider/v1/transactions';

describe.each(DB_KINDS)('provider API (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let otherKey: TestKey;
  const txnCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
  const txnOf = async (gw: string) => (await ctx.db.query<Record<string, any>>('SELECT t.* FROM txn t WHERE gw_trans_id = $1', [gw])).rows[0];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await makeFeedMonths(ctx);
    key = await makeConnection(ctx, 'acme', [DEMO.group, DEMO.subA]);
    otherKey = await makeConnection(ctx, 'other-gw', [DEMO.other]);
  });
  afterAll(() => ctx?.close());

  describe('signing', () => {
    const batch = () => ({ transactions: [feedRow()] });
    const expect401 = (r: { status: number; body: any }) => {
      expect(r.status, JSON.stringify(r.body)).toBe(401);
      expect(r.body).toMatchObject({ code: -1, data: null });
      expect(typeof r.body.msg).toBe('string');
    };

    it('unsigned → 401 envelope, nothing written', async () => {
      const before = await txnCount();
      expect401(await ctx.call({ method: 'POST', url: TX, payload: batch() }));
      // Headers without a signature, and a malformed signature.
      const h = signedHeaders(key, 'POST', TX, '{}', ctx.clock.now().getTime());
      expect401(await ctx.call({ method: 'POST', url: TX, payload: JSON.stringify(batch()), headers: { ...h, 'x-gateway-signature': '' } }));
      expect401(await ctx.call({ method: 'POST', url: TX, payload: JSON.stringify(batch()), headers: { ...h, 'x-gateway-signature': 'zz' } }));
      expect(await txnCount()).toBe(before);
    });

    it('a timestamp more than 5 minutes away, either way → 401; within → 200', async () => {
      const now = ctx.clock.now().getTime();
      expect401(await signedCall(ctx, key, 'POST', TX, batch(), { atMs: now - 5 * 60_000 - 2000 }));
      expect401(await signedCall(ctx, key, 'POST', TX, batch(), { atMs: now + 5 * 60_000 + 2000 }));
      expect((await signedCall(ctx, key, 'POST', TX, batch(), { atMs: now - 4 * 60_000 })).status).toBe(200);
    });

    it('a replayed signature → 401 (even with the body unchanged)', async () => {
      const body = JSON.stringify(batch());
      const headers = signedHeaders(key, 'POST', TX, body, ctx.clock.now().getTime());
      expect((await ctx.call({ method: 'POST', url: TX, payload: body, headers })).status).toBe(200);
      expect401(await ctx.call({ method: 'POST', url: TX, payload: body, headers }));
    });

    it('a tampered body, a wrong secret, an unknown key → 401', async () => {
      const body = JSON.stringify(batch());
      const headers = signedHeaders(key, 'POST', TX, body, ctx.clock.now().getTime());
      expect401(await ctx.call({ method: 'POST', url: TX, payload: body.replace('123.45', '999.45'), headers }));
      expect401(await signedCall(ctx, { keyId: key.keyId, secret: otherKey.secret }, 'POST', TX, batch()));
      expect401(await signedCall(ctx, { keyId: 'gk_unknown000', secret: key.secret }, 'POST', TX, batch()));
      // Signed for another path.
      const h2 = signedHeaders(key, 'POST', `${TX}/x/status`, body, ctx.clock.now().getTime());
      expect401(await ctx.call({ method: 'POST', url: TX, payload: body, headers: h2 }));
    });

    it('rotation: two keys valid at once; a revoked key → 401, the other still works', async () => {
      const second = await addKey(ctx.db, ctx.config, 'acme', 'test');
      expect((await signedCall(ctx, key, 'POST', TX, batch())).status).toBe(200);
      expect((await signedCall(ctx, second, 'POST', TX, batch())).status).toBe(200);
      await revokeKey(ctx.db, second.keyId, ctx.clock.now(), 'test');
      expect401(await signedCall(ctx, second, 'POST', TX, batch()));
      expect((await signedCall(ctx, key, 'POST', TX, batch())).status).toBe(200);
    });

    it('secrets are stored encrypted, never in clear', async () => {
      const { rows } = await ctx.db.query<{ secret_enc: string }>('SELECT secret_enc FROM gateway_key WHERE key_id = $1', [key.keyId]);
      expect(rows[0].secret_enc).not.toContain(key.secret);
      expect(Buffer.from(rows[0].secret_enc, 'base64').toString('latin1')).not.toContain(key.secret);
      const { rows: audit } = await ctx.db.query<{ detail: unknown }>(`SELECT detail FROM audit_log WHERE action LIKE 'gateway.%'`);
      expect(JSON.stringify(audit)).not.toContain(key.secret);
    });
  });

  describe('batches', () => {
    it("accepts rows through the one ingestion path; a bad row and another merchant's row are rejected alone", async () => {
      const good = [feedRow(), feedRow({ gwAmount: '10.00', paymentBrand: null, cardNumber: null })];
      const bad = feedRow({ gwCurrency: 'XXX' });
      const foreign = feedRow({ clientid: DEMO.other, gwCurrency: 'SGD' });
      const malformed = { gwGTransId: 'GW-malformed', hello: 1 };
      const before = await txnCount();
      const r = await signedCall(ctx, key, 'POST', TX, { transactions: [good[0], bad, foreign, malformed, good[1]] }, { headers: { 'accept-language': 'zh' } });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ accepted: 2, duplicate: 0, rejected: 3 });
      const res = r.body.data.results;
      expect(res.map((x: any) => x.status)).toEqual(['accepted', 'rejected', 'rejected', 'rejected', 'accepted']);
      expect(res[1]).toMatchObject({ code: 400, field: 'gwCurrency' });
      expect(res[1].msg).toMatch(/币种/);
      expect(res[2]).toMatchObject({ code: 403, field: 'clientid' });
      expect(res[3]).toMatchObject({ code: 400, gwGTransId: 'GW-malformed' });
      expect(await txnCount()).toBe(before + 2);
      const t = await txnOf(good[0].gwGTransId as string);
      expect(t).toMatchObject({ mer_id: DEMO.group, amount: 12345, source: 'gateway', card_first6: '411111', card_last4: '1111' });
      const { rows } = await ctx.db.query('SELECT connection_id FROM gateway_txn WHERE gw_trans_id = $1', [good[0].gwTransId ?? good[0].gwGTransId]);
      expect(rows[0]).toMatchObject({ connection_id: 'acme' });
      // A rejected row holds no claim: sent again corrected, it is accepted.
      const fixed = await signedCall(ctx, key, 'POST', TX, { transactions: [{ ...bad, gwCurrency: 'HKD' }] });
      expect(fixed.body.data.results[0].status).toBe('accepted');
    });

    it('the same batch again answers duplicate and adds nothing; other content for an id → 409 for that row', async () => {
      const rows = [feedRow(), feedRow({ gwResponse: '01' })];
      await signedCall(ctx, key, 'POST', TX, { transactions: rows });
      const before = await txnCount();
      const again = await signedCall(ctx, key, 'POST', TX, { transactions: rows });
      expect(again.body.data).toMatchObject({ accepted: 0, duplicate: 2, rejected: 0 });
      const changed = await signedCall(ctx, key, 'POST', TX, { transactions: [{ ...rows[0], gwAmount: '1.00' }, { ...rows[1], gwResponse: '00' }, rows[0], rows[0]] });
      expect(changed.body.data.results.map((x: any) => [x.status, x.code, x.field])).toEqual([
        ['rejected', 409, 'gwAmount'],
        ['rejected', 409, 'gwResponse'],
        // The same id twice in one batch, identical: duplicate both (the first of them is the ledger's repeat).
        ['duplicate', 0, undefined],
        ['duplicate', 0, undefined],
      ]);
      expect(await txnCount()).toBe(before);
      expect((await txnOf(rows[0].gwGTransId as string)).amount).toBe(12345);
      // Another connection's ids are its own (issue 47): the same id is another transaction, answered
      // as any fresh id (nothing tells it the id exists elsewhere); the first connection's row is untouched.
      const foreign = await signedCall(ctx, otherKey, 'POST', TX, { transactions: [{ ...rows[0], clientid: DEMO.other, gwCurrency: 'SGD', orderNum: `${rows[0].orderNum}-o` }] });
      expect(foreign.body.data.results[0], JSON.stringify(foreign.body)).toMatchObject({ status: 'accepted', code: 0 });
      expect(await txnOf(rows[0].gwGTransId as string)).toMatchObject({ mer_id: DEMO.group, amount: 12345 });
    });

    it('strict row fields: impossible times, too many decimals, unknown fields are rejected with the field named', async () => {
      const bad = [
        feedRow({ currentTime: '2026-02-30 10:00:00' }),
        feedRow({ currentTime: '2026-03-01T10:00:00' }),
        feedRow({ gwAmount: '1.005' }),
        feedRow({ gwAmount: '-1.00' }),
        feedRow({ surprise: 1 }),
        feedRow({ gwGTransId: 'has space' }),
        feedRow({ gwTranType: 'REFD' }),
      ];
      const r = await signedCall(ctx, key, 'POST', TX, { transactions: bad });
      expect(r.body.data.results.map((x: any) => [x.status, x.field])).toEqual([
        ['rejected', 'currentTime'],
        ['rejected', 'currentTime'],
        ['rejected', 'gwAmount'],
        ['rejected', 'amountSign'],
        ['rejected', 'row'],
        ['rejected', 'gwTransId'],
        ['rejected', 'originOrderNo'],
      ]);
    });

    // Issue 46: the counter saw only the rows refused by the ingestion itself (3 counted, 7 rejected).
    it('/metrics counts every rejected row, whatever refused it, and every accepted one', async () => {
      const figure = async (result: string) => {
        const m = await ctx.call({ method: 'GET', url: '/metrics' });
        const text = (m.body as unknown as { raw: string }).raw;
        const line = new RegExp(`^portal_ingested_rows_total\\{source="gateway",result="${result}"\\} (\\d+)`, 'm').exec(text);
        return line ? Number(line[1]) : 0;
      };
      const taken = feedRow();
      await signedCall(ctx, key, 'POST', TX, { transactions: [taken] });
      const [rejected0, ok0] = [await figure('rejected'), await figure('ok')];
      const r = await signedCall(ctx, key, 'POST', TX, {
        transactions: [
          feedRow(),
          { gwGTransId: 'GW-malformed-m', hello: 1 }, // shape
          feedRow({ clientid: DEMO.other }), // another connection's merchant (403)
          { ...taken, gwAmount: '1.00' }, // other content for an id (409)
          feedRow({ gwCurrency: 'XXX' }), // unknown currency
          feedRow({ respMsg: 'a\u0000b' }), // a NUL
          feedRow({ currentTime: '2026-02-30 10:00:00' }), // impossible time
          feedRow({ gwTranType: 'REFD' }), // refund without purchase (refused by the ingestion)
          feedRow(),
          feedRow(),
        ],
      });
      expect(r.body.data).toMatchObject({ accepted: 3, rejected: 7 });
      expect((await figure('rejected')) - rejected0).toBe(7);
      expect((await figure('ok')) - ok0).toBe(3);
    });

    it('refuses an empty batch and one over 1,000 rows with 400, nothing written', async () => {
      const before = await txnCount();
      for (const transactions of [[], Array.from({ length: 1001 }, () => feedRow())]) {
        const r = await signedCall(ctx, key, 'POST', TX, { transactions });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: 400, data: null });
      }
      expect(await txnCount()).toBe(before);
    });

    it('two identical batches in parallel: every row written once, each answered accepted by one and duplicate by the other', async (t) => {
      if (!isConcurrent(kind)) t.skip();
      const rows = Array.from({ length: 200 }, () => feedRow());
      const before = await txnCount();
      const [a, b] = await Promise.all([signedCall(ctx, key, 'POST', TX, { transactions: rows }), signedCall(ctx, key, 'POST', TX, { transactions: rows })]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(await txnCount()).toBe(before + 200);
      for (let i = 0; i < rows.length; i++) {
        expect([a.body.data.results[i].status, b.body.data.results[i].status].sort()).toEqual(['accepted', 'duplicate']);
      }
    });

    it('two batches racing for the same order numbers under other gateway ids: each order number written once, the loser refused per row (409), no 500', async (t) => {
      if (!isConcurrent(kind)) t.skip();
      const a = Array.from({ length: 50 }, () => feedRow());
      const b = a.map((r) => ({ ...r, gwGTransId: `${r.gwGTransId}-B` }));
      const before = await txnCount();
      const [ra, rb] = await Promise.all([signedCall(ctx, key, 'POST', TX, { transactions: a }), signedCall(ctx, key, 'POST', TX, { transactions: b })]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect(ra.body.data.accepted + rb.body.data.accepted).toBe(50);
      expect(await txnCount()).toBe(before + 50);
      for (let i = 0; i < 50; i++) {
        const pair = [ra.body.data.results[i], rb.body.data.results[i]];
        expect(pair.map((x: any) => x.status).sort()).toEqual(['accepted', 'rejected']);
        expect(pair.find((x: any) => x.status === 'rejected').code).toBe(409);
      }
    });

    it('a late arrival for a settled day goes to the late queue', async () => {
      const day = new Date(ctx.clock.now().getTime() - 10 * 86400_000);
      await ctx.db.query(`INSERT INTO settlement_run (run_date, txn_count, row_count) VALUES ((now() - interval '2 days')::date, 0, 0) ON CONFLICT DO NOTHING`);
      const row = feedRow({ currentTime: day.toISOString().replace(/\.\d+Z$/, 'Z') });
      const r = await signedCall(ctx, key, 'POST', TX, { transactions: [row] });
      expect(r.body.data.results[0].status).toBe('accepted');
      const t = await txnOf(row.gwGTransId as string);
      const { rows } = await ctx.db.query('SELECT 1 FROM settle_late WHERE txn_id = $1', [t.id]);
      expect(rows).toHaveLength(1);
    });
  });

  describe('status', () => {
    const statusUrl = (gw: string) => `${TX}/${encodeURIComponent(gw)}/status`;

    it('moves a processing transaction to its final result, once; another final result → 409', async () => {
      const row = feedRow({ gwResponse: '04' });
      await signedCall(ctx, key, 'POST', TX, { transactions: [row] });
      const gw = row.gwGTransId as string;
      const r = await signedCall(ctx, key, 'POST', statusUrl(gw), { gwResponse: '00', respMsg: 'Approved' });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ gwGTransId: gw, gwResponse: '00', changed: true });
      expect((await txnOf(gw)).gw_response).toBe('00');
      const again = await signedCall(ctx, key, 'POST', statusUrl(gw), { gwResponse: '00' });
      expect(again.body.data.changed).toBe(false);
      const other = await signedCall(ctx, key, 'POST', statusUrl(gw), { gwResponse: '01' });
      expect(other.status).toBe(409);
      expect(other.body.code).toBe(409);
      expect((await txnOf(gw)).gw_response).toBe('00');
      // The daily feed repeating the first (processing) report: duplicate, nothing changes.
      const repeat = await signedCall(ctx, key, 'POST', TX, { transactions: [row] });
      expect(repeat.body.data.results[0].status).toBe('duplicate');
    });

    it("processing is not a final result (400); unknown id and another connection's merchant → 404", async () => {
      const row = feedRow({ gwResponse: null });
      await signedCall(ctx, key, 'POST', TX, { transactions: [row] });
      const gw = row.gwGTransId as string;
      expect((await signedCall(ctx, key, 'POST', statusUrl(gw), { gwResponse: '04' })).status).toBe(400);
      expect((await signedCall(ctx, key, 'POST', statusUrl('GW-nope'), { gwResponse: '00' })).status).toBe(404);
      const foreign = await signedCall(ctx, otherKey, 'POST', statusUrl(gw), { gwResponse: '00' });
      expect(foreign.status).toBe(404);
      expect((await txnOf(gw)).gw_response).toBeNull();
      expect((await ctx.call({ method: 'POST', url: statusUrl(gw), payload: { gwResponse: '00' } })).status).toBe(401);
    });

    it('a processing refund reserves its amount; failing, it gives it back; a batch row can also finish it', async () => {
      const purchase = feedRow({ gwAmount: '100.00' });
      const refund = feedRow({ gwTranType: 'REFD', gwResponse: '04', gwAmount: '60.00', originorderno: purchase.orderNum });
      const r = await signedCall(ctx, key, 'POST', TX, { transactions: [purchase, refund] });
      expect(r.body.data.accepted).toBe(2);
      const ret = async () => Number((await txnOf(purchase.gwGTransId as string)).return_amount);
      expect(await ret()).toBe(6000);
      // A second refund over what is left is refused alone.
      const over = feedRow({ gwTranType: 'REFD', gwAmount: '50.00', originorderno: purchase.orderNum });
      const o = await signedCall(ctx, key, 'POST', TX, { transactions: [over] });
      expect(o.body.data.results[0]).toMatchObject({ status: 'rejected', code: 400 });
      expect(await ret()).toBe(6000);
      const fail = await signedCall(ctx, key, 'POST', statusUrl(refund.gwGTransId as string), { gwResponse: '01', respMsg: 'Declined' });
      expect(fail.body.data.changed).toBe(true);
      expect(await ret()).toBe(0);
      // Another processing refund finished by a batch row that reports it successful.
      const r2 = feedRow({ gwTranType: 'REFD', gwResponse: '04', gwAmount: '30.00', originorderno: purchase.orderNum });
      await signedCall(ctx, key, 'POST', TX, { transactions: [r2] });
      const fin = await signedCall(ctx, key, 'POST', TX, { transactions: [{ ...r2, gwResponse: '00' }] });
      expect(fin.body.data.results[0]).toMatchObject({ status: 'accepted', statusChanged: true });
      expect(await ret()).toBe(3000);
      expect((await txnOf(r2.gwGTransId as string)).gw_response).toBe('00');
    });
  });

  it('has its own OpenAPI document; the merchant document does not list it', async () => {
    const prov = await ctx.call({ method: 'GET', url: '/api/provider/docs/json' });
    expect(prov.status).toBe(200);
    expect(Object.keys((prov.body as any).paths)).toEqual(expect.arrayContaining(['/provider/v1/transactions', '/provider/v1/transactions/{gwTransId}/status']));
    const merchant = await ctx.call({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys((merchant.body as any).paths).filter((p) => p.startsWith('/provider'))).toEqual([]);
  });
});
