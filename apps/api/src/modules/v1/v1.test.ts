import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { VALID_ORDER } from '../paybylink/paybylink.fixtures';
import { drainExports } from '../export/export.service';

const ALL = [Perm.txnList, Perm.txnDetail, Perm.txnRefund];

describe.each(DB_KINDS)('merchant API /v1 (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  const count = async (sql: string, p: unknown[] = []) => (await ctx.db.query<{ n: number }>(sql, p)).rows[0].n;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: ALL, lang: 'ja' });
  });
  afterAll(() => ctx?.close());

  const expectError = (r: { status: number; body: any; headers: any }, status: number, type: string, code: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body.error).toMatchObject({ type, code });
    expect(typeof r.body.error.message).toBe('string');
    expect(r.body.error.request_id).toBe(r.headers['x-request-id']);
    expect(Object.keys(r.body.error).sort()).toEqual(['code', 'message', 'param', 'request_id', 'type']);
  };

  describe('authentication', () => {
    it('no key, a malformed or unknown key → 401 authentication_error', async () => {
      expectError(await v1(ctx, null, { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_missing');
      expectError(await v1(ctx, 'nope', { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_invalid');
      expectError(await v1(ctx, `mpk_AAAAAAAAAAAA_${'A'.repeat(43)}`, { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_invalid');
      // Basic instead of Bearer.
      const r = await ctx.app.inject({ method: 'GET', url: '/v1/transactions', headers: { authorization: `Basic ${key.secret}` } });
      expect(r.statusCode).toBe(401);
    });

    it('a revoked key is refused from the next request on', async () => {
      const k = await createApiKey(ctx, demo, { permissions: ALL });
      expect((await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' })).status).toBe(200);
      const f = new URLSearchParams({ id: String(k.id) }).toString();
      await ctx.call({ method: 'POST', url: '/api/developer/keys/revoke', headers: { 'x-token': demo, 'content-type': 'application/x-www-form-urlencoded' }, payload: f });
      expectError(await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_revoked');
    });

    it('an expired key is refused', async () => {
      const k = await createApiKey(ctx, demo, { permissions: ALL, expiresOn: '2099-01-01' });
      await ctx.db.query("UPDATE api_key SET expires_at = now() - interval '1 second' WHERE id = $1", [k.id]);
      expectError(await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_expired');
    });

    it('a key whose creator is disabled is refused', async () => {
      await ctx.db.query(
        "INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions) SELECT 'dev-gone', password_hash, 'dev-gone@demo-group.example', $1, 'MAIN', true, permissions FROM app_user WHERE username = 'demo'",
        [DEMO.group],
      );
      const t = (await ctx.login('dev-gone')).token;
      const k = await createApiKey(ctx, t, { permissions: ALL });
      expect((await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' })).status).toBe(200);
      await ctx.db.query("UPDATE app_user SET status = 'DISABLED' WHERE username = 'dev-gone'");
      expectError(await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' }), 401, 'authentication_error', 'api_key_invalid');
    });

    it('the IP allow-list: an address outside it → 403 (audited); inside it works; first use from each address audited once', async () => {
      const k = await createApiKey(ctx, demo, { permissions: ALL, ipAllow: ['203.0.113.0/24', '2001:db8::/32'] });
      const call = (ip: string) => ctx.app.inject({ method: 'GET', url: '/v1/transactions', headers: { authorization: `Bearer ${k.secret}` }, remoteAddress: ip });
      const refused = await call('198.51.100.7');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({ type: 'permission_error', code: 'ip_not_allowed' });
      expect(refused.json().error.message).toContain('198.51.100.7');
      expect(await count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'apikey.use.ip_refused' AND target = $1", [k.prefix])).toBe(1);
      expect((await call('203.0.113.9')).statusCode).toBe(200);
      expect((await call('203.0.113.9')).statusCode).toBe(200);
      expect((await call('2001:db8::1')).statusCode).toBe(200);
      const seen = await ctx.db.query<{ ip: string; username: string }>("SELECT ip, username FROM audit_log WHERE action = 'apikey.use.new_ip' AND target = $1 ORDER BY id", [k.prefix]);
      expect(seen.rows.map((x) => x.ip)).toEqual(['203.0.113.9', '2001:db8::1']);
      expect(seen.rows[0].username).toBe(`apikey:${k.prefix}`);
      const row = (await ctx.db.query<{ last_used_at: Date | null; last_ip: string }>('SELECT last_used_at, last_ip FROM api_key WHERE id = $1', [k.id])).rows[0];
      expect(row.last_used_at).not.toBeNull();
      expect(row.last_ip).toBe('2001:db8::1');
    });
  });

  describe('permissions and scope', () => {
    it("a key without the permission → 403 permission_error, in the key's language", async () => {
      const k = await createApiKey(ctx, demo, { permissions: [Perm.txnList], lang: 'ko' });
      const r = await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions/1' });
      expectError(r, 403, 'permission_error', 'permission_missing');
      expect(r.body.error.message).toContain('권한');
    });

    it('a permission its creator lost stops working for the key', async () => {
      await ctx.db.query(
        "INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions) SELECT 'dev-cut', password_hash, 'dev-cut@demo-group.example', $1, 'MAIN', true, permissions FROM app_user WHERE username = 'demo'",
        [DEMO.group],
      );
      const k = await createApiKey(ctx, (await ctx.login('dev-cut')).token, { permissions: ALL });
      await ctx.db.query("UPDATE app_user SET permissions = array_remove(permissions, 'txn:list') WHERE username = 'dev-cut'");
      expect((await v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions' })).status).toBe(403);
    });

    it("only the key's merchants: another merchant's or a sub-merchant outside the key answers 404", async () => {
      const a = await addTxn(ctx, { merId: DEMO.subA });
      const b = await addTxn(ctx, { merId: DEMO.subB, currency: 'USD' });
      const o = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      const onlyA = await createApiKey(ctx, demo, { permissions: ALL, merIds: [DEMO.subA] });
      expect((await v1(ctx, onlyA.secret, { method: 'GET', url: `/v1/transactions/${a.id}` })).body.gateway_id).toBe(a.gwTransId);
      expectError(await v1(ctx, onlyA.secret, { method: 'GET', url: `/v1/transactions/${b.id}` }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, key.secret, { method: 'GET', url: `/v1/transactions/${o.id}` }), 404, 'not_found_error', 'resource_missing');
      const listed = (await v1(ctx, onlyA.secret, { method: 'GET', url: '/v1/transactions', query: { limit: '100' } })).body.data;
      expect(listed.every((t: any) => t.merchant_id === DEMO.subA)).toBe(true);
      // A refund of another merchant's purchase: 404, nothing written.
      const before = await count("SELECT count(*)::int AS n FROM txn WHERE tran_type = 'REFD'");
      const r = await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': 'foreign-0001' }, payload: { transaction_id: o.id, amount: '1.00' } });
      expectError(r, 404, 'not_found_error', 'resource_missing');
      expect(await count("SELECT count(*)::int AS n FROM txn WHERE tran_type = 'REFD'")).toBe(before);
    });
  });

  describe('transactions', () => {
    it('lists with the portal filters and pages by cursor; a bad filter or cursor → 400 with param', async () => {
      const orderNo = `V1-FILTER-${kind}`;
      const t = await addTxn(ctx, { merId: DEMO.subA, orderNo });
      const r = await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { orderNum: orderNo } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(r.body.data).toEqual([
        expect.objectContaining({ id: t.id, order_no: orderNo, type: 'PURC', status: 'succeeded', amount: '100.00', currency: 'CNY', created_at: '2026-11-10T04:00:00.000Z' }),
      ]);
      const bad = await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { beginDate: '2026-02-30 00:00:00' } });
      expectError(bad, 400, 'invalid_request_error', 'parameter_invalid');
      expect(bad.body.error.param).toBe('beginDate');
      expect(bad.body.error.message).toContain('不正なリクエスト');
      expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { limit: '101' } })).body.error.param).toBe('limit');
      expectError(await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { cursor: 'dDk5OTk5OTk' } }), 400, 'invalid_request_error', 'cursor_invalid');
      // A cursor naming another merchant's row is not followed.
      const o = await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
      const foreign = Buffer.from(`t${o.id}`).toString('base64url');
      expectError(await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { cursor: foreign } }), 400, 'invalid_request_error', 'cursor_invalid');
    });

    it('cursor paging is stable under concurrent inserts: every row once, none skipped', async (c) => {
      const day = new Date('2026-10-01T00:00:00Z').getTime();
      const orig: number[] = [];
      for (let i = 0; i < 25; i++) orig.push((await addTxn(ctx, { merId: DEMO.subA, txnTime: new Date(day + i * 60_000), merReserve: `PAGE-${kind}` })).id);
      const q = { merReserve: `PAGE-${kind}`, beginDate: '2026-09-15 00:00:00', endDate: '2026-10-15 00:00:00', limit: '7' };
      const seen: number[] = [];
      let cursor: string | null = null;
      let inserted = 0;
      do {
        const [r]: [Awaited<ReturnType<typeof v1>>, unknown] = await Promise.all([
          v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: cursor ? { ...q, cursor } : q }),
          // Meanwhile: newer rows, and rows at the very time of rows already given out.
          addTxn(ctx, { merId: DEMO.subA, txnTime: new Date(day + 3_600_000 + inserted * 1000), merReserve: `PAGE-${kind}` }).then(() =>
            addTxn(ctx, { merId: DEMO.subA, txnTime: new Date(day + 24 * 60_000), merReserve: `PAGE-${kind}` }),
          ),
        ]);
        inserted++;
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        seen.push(...r.body.data.map((t: any) => t.id));
        cursor = r.body.next_cursor;
      } while (cursor && inserted < 50);
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of orig) expect(seen).toContain(id);
      if (!isConcurrent(kind)) c.annotate('PGlite runs one statement at a time: the inserts interleave with the pages, not truly in parallel');
    });
  });

  describe('refunds', () => {
    const refund = (k: string, idem: string | null, body: unknown) =>
      v1(ctx, k, { method: 'POST', url: '/v1/refunds', headers: idem ? { 'idempotency-key': idem } : {}, payload: body as Record<string, unknown> });

    it('refunds through the refund service: 201, the same key + body answers the first refund, another body 409', async () => {
      const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
      const r = await refund(key.secret, 'refund-key-0001', { transaction_id: p.id, amount: '30.00' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toMatchObject({ type: 'REFD', status: 'succeeded', amount: '30.00', origin_transaction_id: p.id });
      const again = await refund(key.secret, 'refund-key-0001', { amount: '30.00', transaction_id: p.id });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(r.body.id);
      expectError(await refund(key.secret, 'refund-key-0001', { transaction_id: p.id, amount: '31.00' }), 409, 'idempotency_error', 'idempotency_key_reused');
      expect(await count('SELECT return_amount::int AS n FROM txn WHERE id = $1', [p.id])).toBe(3000);
      // Listed and shown as a refund; the purchase is not a refund.
      expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${r.body.id}` })).body.id).toBe(r.body.id);
      expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${p.id}` })).status).toBe(404);
      const list = (await v1(ctx, key.secret, { method: 'GET', url: '/v1/refunds', query: { limit: '100' } })).body.data;
      expect(list.map((x: any) => x.id)).toContain(r.body.id);
      expect(list.every((x: any) => x.type === 'REFD')).toBe(true);
      // Audited as the key.
      const a = await ctx.db.query<{ username: string }>("SELECT username FROM audit_log WHERE action = 'txn.refund' AND target = $1", [p.gwTransId]);
      expect(a.rows.map((x) => x.username)).toEqual([`apikey:${key.prefix}`]);
    });

    it('refusals: no Idempotency-Key 400, bad amount 400 (param amount), over the amount 422, a refund of a refund 422', async () => {
      const p = await addTxn(ctx, { merId: DEMO.subA, amount: 1000 });
      expectError(await refund(key.secret, null, { transaction_id: p.id, amount: '1.00' }), 400, 'invalid_request_error', 'idempotency_key_missing');
      const bad = await refund(key.secret, 'refund-bad-0001', { transaction_id: p.id, amount: 'abc' });
      expectError(bad, 400, 'invalid_request_error', 'amount_invalid');
      expect(bad.body.error.param).toBe('amount');
      const over = await refund(key.secret, 'refund-over-0001', { transaction_id: p.id, amount: '10.01' });
      expectError(over, 422, 'refund_error', 'amount_too_large');
      expect(over.body.error.message).toContain('返金額');
      expectError(await refund(key.secret, 'refund-extra-0001', { transaction_id: p.id, amount: '1.00', extra: 1 }), 400, 'invalid_request_error', 'parameter_invalid');
      const ok = await refund(key.secret, 'refund-ok-0001', { transaction_id: p.id, amount: '1.00' });
      expectError(await refund(key.secret, 'refund-refd-0001', { transaction_id: ok.body.id, amount: '1.00' }), 422, 'refund_error', 'not_refundable');
    });

    it('parallel identical requests make one refund; parallel different keys never refund past the purchase', async (c) => {
      const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
      const same = await Promise.all(Array.from({ length: 8 }, () => refund(key.secret, 'parallel-0001', { transaction_id: p.id, amount: '40.00' })));
      for (const r of same) expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(new Set(same.map((r) => r.body.id)).size).toBe(1);
      expect(await count("SELECT count(*)::int AS n FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD'", [p.id])).toBe(1);
      const many = await Promise.all(Array.from({ length: 6 }, (_, i) => refund(key.secret, `parallel-x-${i}`, { transaction_id: p.id, amount: '40.00' })));
      expect(many.filter((r) => r.status === 201)).toHaveLength(1);
      expect(many.filter((r) => r.status === 422).every((r) => r.body.error.code === 'amount_too_large')).toBe(true);
      expect(await count('SELECT return_amount::int AS n FROM txn WHERE id = $1', [p.id])).toBe(8000);
      if (!isConcurrent(kind)) c.annotate('truly parallel on PostgreSQL only');
    });
  });

  describe('payment links', () => {
    const PBL = [Perm.payByLinkCreate, Perm.payByLinkDetail, Perm.payByLinkUpdate, Perm.payByLinkClose];
    it('create (201, the link), get, update, close; a closed order cannot be closed or updated again (409)', async () => {
      const k = await createApiKey(ctx, demo, { permissions: PBL });
      const made = await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, merchant_id: DEMO.subA, orderCurrency: 'CNY' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ merId: DEMO.subA, totalAmount: '120.50', orderCurrency: 'CNY' });
      expect(made.body.link).toContain('/pay/');
      const id = made.body.id;
      expect((await v1(ctx, k.secret, { method: 'GET', url: `/v1/payment-links/${id}` })).body.id).toBe(id);
      const upd = await v1(ctx, k.secret, { method: 'POST', url: `/v1/payment-links/${id}`, payload: { goodsPrice: '60.25', goodsQuantity: '2', logFee: '0', totalAmount: '120.50' } });
      expect(upd.status, JSON.stringify(upd.body)).toBe(200);
      expect(upd.body).toMatchObject({ goodsPrice: '60.25', goodsQuantity: 2 });
      expectError(await v1(ctx, k.secret, { method: 'POST', url: `/v1/payment-links/${id}`, payload: { goodsName: 'x' } }), 400, 'invalid_request_error', 'parameter_invalid');
      const closed = await v1(ctx, k.secret, { method: 'POST', url: `/v1/payment-links/${id}/close` });
      expect(closed.status).toBe(200);
      expect(closed.body.closeReason).toBe('merchant');
      expectError(await v1(ctx, k.secret, { method: 'POST', url: `/v1/payment-links/${id}/close` }), 409, 'invalid_request_error', 'order_status_changed');
      expectError(
        await v1(ctx, k.secret, { method: 'POST', url: `/v1/payment-links/${id}`, payload: { goodsPrice: '120.50', goodsQuantity: '1', logFee: '0', totalAmount: '120.50' } }),
        409,
        'invalid_request_error',
        'order_status_changed',
      );
      const a = await ctx.db.query<{ username: string }>("SELECT username FROM audit_log WHERE action = 'paybylink.create' AND target = $1", [made.body.orderno]);
      expect(a.rows.map((x) => x.username)).toEqual([`apikey:${k.prefix}`]);
    });

    it('bad input → 400 with the field as param, nothing written; a merchant outside the key → 404', async () => {
      const k = await createApiKey(ctx, demo, { permissions: PBL, merIds: [DEMO.subA] });
      const before = await count('SELECT count(*)::int AS n FROM pay_by_link_order');
      const bad = await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, orderCurrency: 'CNY', totalAmount: '999.00' } });
      expectError(bad, 400, 'invalid_request_error', 'invalid_request');
      expect(bad.body.error.param).toBe('totalAmount');
      expectError(
        await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, orderCurrency: 'CNY', nope: '1' } }),
        400,
        'invalid_request_error',
        'parameter_invalid',
      );
      expectError(await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, merchant_id: DEMO.subB } }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, merchant_id: DEMO.other } }), 404, 'not_found_error', 'resource_missing');
      expect(await count('SELECT count(*)::int AS n FROM pay_by_link_order')).toBe(before);
      // The key's only merchant is the default.
      const made = await v1(ctx, k.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, orderCurrency: 'CNY' } });
      expect(made.body.merId).toBe(DEMO.subA);
    });
  });

  describe('in-store orders', () => {
    it("create (201, the QR link) and get; another merchant's store → 404; bad input → 400", async () => {
      const k = await createApiKey(ctx, demo, { permissions: [Perm.payInStoreCreate, Perm.payInStoreList] });
      const made = await v1(ctx, k.secret, { method: 'POST', url: '/v1/in-store-orders', payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '10.00', goodsName: 'Tea' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.link).toContain('/pay/');
      expect((await v1(ctx, k.secret, { method: 'GET', url: `/v1/in-store-orders/${made.body.id}` })).body.orderno).toBe(made.body.orderno);
      expectError(
        await v1(ctx, k.secret, { method: 'POST', url: '/v1/in-store-orders', payload: { storeId: DEMO.stores.orchard, orderCurrency: 'SGD', totalAmount: '10.00' } }),
        404,
        'not_found_error',
        'resource_missing',
      );
      const bad = await v1(ctx, k.secret, { method: 'POST', url: '/v1/in-store-orders', payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '-1', goodsName: 'Tea' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('totalAmount');
      // A pay-by-link order is not an in-store order.
      const pk = await createApiKey(ctx, demo, { permissions: [Perm.payByLinkCreate] });
      const pbl = await v1(ctx, pk.secret, { method: 'POST', url: '/v1/payment-links', payload: { ...VALID_ORDER, merchant_id: DEMO.subA, orderCurrency: 'CNY' } });
      expect((await v1(ctx, k.secret, { method: 'GET', url: `/v1/in-store-orders/${pbl.body.id}` })).status).toBe(404);
    });
  });

  describe('exports', () => {
    it("ask, poll, download (the key's merchants only); not ready → 409; another key's → 404; a kind the key may not export → 403", async () => {
      const k = await createApiKey(ctx, demo, { permissions: [Perm.reportFile, Perm.txnExport], merIds: [DEMO.subA] });
      const mine = await addTxn(ctx, { merId: DEMO.subA, orderNo: `EXP-A-${kind}`, txnTime: new Date('2026-08-10T04:00:00Z') });
      await addTxn(ctx, { merId: DEMO.subB, currency: 'USD', orderNo: `EXP-B-${kind}`, txnTime: new Date('2026-08-10T04:00:00Z') });
      const asked = await v1(ctx, k.secret, {
        method: 'POST',
        url: '/v1/exports',
        payload: { kind: 'txn', format: 'csv', params: { beginDate: '2026-08-01 00:00:00', endDate: '2026-08-31 23:59:59' } },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(202);
      expect(asked.body.status).toBe('queued');
      const id = asked.body.id;
      expectError(await v1(ctx, k.secret, { method: 'GET', url: `/v1/exports/${id}/file` }), 409, 'invalid_request_error', 'export_not_ready');
      await drainExports(ctx.deps);
      expect((await v1(ctx, k.secret, { method: 'GET', url: `/v1/exports/${id}` })).body.status).toBe('ready');
      const file = await ctx.app.inject({ method: 'GET', url: `/v1/exports/${id}/file`, headers: { authorization: `Bearer ${k.secret}` } });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain('text/csv');
      expect(file.body).toContain(`EXP-A-${kind}`);
      expect(file.body).not.toContain(`EXP-B-${kind}`);
      void mine;
      // Another key of the same creator does not see it.
      const other = await createApiKey(ctx, demo, { permissions: [Perm.reportFile, Perm.txnExport] });
      expectError(await v1(ctx, other.secret, { method: 'GET', url: `/v1/exports/${id}` }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, other.secret, { method: 'GET', url: `/v1/exports/${id}/file` }), 404, 'not_found_error', 'resource_missing');
      // The creator's own portal exports are not the key's.
      const portal = await ctx.call({ method: 'GET', url: '/api/txn/exportBack', headers: { 'x-token': demo }, query: { beginDate: '2026-08-01 00:00:00', endDate: '2026-08-31 23:59:59' } });
      expectError(await v1(ctx, k.secret, { method: 'GET', url: `/v1/exports/${portal.body.data.id}` }), 404, 'not_found_error', 'resource_missing');
      // Unknown kind, bad filter, a kind without its permission.
      expectError(await v1(ctx, k.secret, { method: 'POST', url: '/v1/exports', payload: { kind: 'nothing' } }), 400, 'invalid_request_error', 'parameter_invalid');
      const badParam = await v1(ctx, k.secret, { method: 'POST', url: '/v1/exports', payload: { kind: 'txn', params: { beginDate: '2026-02-30 00:00:00' } } });
      expect(badParam.status).toBe(400);
      expectError(await v1(ctx, k.secret, { method: 'POST', url: '/v1/exports', payload: { kind: 'report.bill', params: {} } }), 403, 'permission_error', 'forbidden');
    });
  });

  describe('settlements', () => {
    it("lists the key's settlement batches with their transfer figures, one by id; another merchant's → 404", async () => {
      const ins = (merId: string, cur: string) =>
        ctx.db.query(
          `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
             history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
           VALUES ('2026-07-01', $1, 'ONLINE', $2, 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-07-02', '2026-07-01')`,
          [merId, cur],
        );
      await ins(DEMO.subA, 'CNY');
      await ins(DEMO.other, 'SGD');
      const k = await createApiKey(ctx, demo, { permissions: [Perm.settleDetail] });
      const list = await v1(ctx, k.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-07-01', endDate: '2026-07-31' } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: `2026-07-01.${DEMO.subA}.ONLINE.CNY`, realTransAmount: '96.00', remitDate: '2026-07-02', fee: '3.00' })]);
      expect((await v1(ctx, k.secret, { method: 'GET', url: `/v1/settlements/2026-07-01.${DEMO.subA}.ONLINE.CNY` })).body.txnCount).toBe(3);
      expectError(await v1(ctx, k.secret, { method: 'GET', url: `/v1/settlements/2026-07-01.${DEMO.other}.ONLINE.SGD` }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, k.secret, { method: 'GET', url: '/v1/settlements/nonsense' }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, k.secret, { method: 'GET', url: '/v1/settlements', query: { beginDate: '2026-02-30', endDate: '2026-07-31' } }), 400, 'invalid_request_error', 'parameter_invalid');
    });

    it("lists the key's transfers (the Transfer report) and one by id; another merchant's, even asked by merId → nothing / 404; bad input → 400; without report:transfer → 403", async () => {
      for (const [merId, cur] of [
        [DEMO.subA, 'CNY'],
        [DEMO.other, 'SGD'],
      ])
        await ctx.db.query(
          `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
             history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
           VALUES ('2026-06-01', $1, 'ONLINE', $2, 3, 9700, 300, 0, 0, 9700, 0, 0, 9700, 9700, 100, 9600, 0, 'D', '2026-06-02', '2026-06-01')`,
          [merId, cur],
        );
      const k = await createApiKey(ctx, demo, { permissions: [Perm.reportTransfer] });
      const list = await v1(ctx, k.secret, { method: 'GET', url: '/v1/transfers', query: { beginDate: '2026-06-01', endDate: '2026-06-30' } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: `2026-06-01.${DEMO.subA}.ONLINE.CNY`, clientid: DEMO.subA, realTransAmount: '96.00', tranFee: '1.00', remitDate: '2026-06-02' })]);
      expect(list.body.total).toBe(1);
      const asked = await v1(ctx, k.secret, { method: 'GET', url: '/v1/transfers', query: { beginDate: '2026-06-01', endDate: '2026-06-30', merId: DEMO.other } });
      expect(asked.body).toEqual({ data: [], total: 0 });
      const one = await v1(ctx, k.secret, { method: 'GET', url: `/v1/transfers/2026-06-01.${DEMO.subA}.ONLINE.CNY` });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ merTxnSet: 'CNY', realTransAmount: '96.00' });
      expectError(await v1(ctx, k.secret, { method: 'GET', url: `/v1/transfers/2026-06-01.${DEMO.other}.ONLINE.SGD` }), 404, 'not_found_error', 'resource_missing');
      expectError(await v1(ctx, k.secret, { method: 'GET', url: `/v1/transfers/2026-06-01.${DEMO.subA}.ONLINE.USD` }), 404, 'not_found_error', 'resource_missing');
      const reversed = await v1(ctx, k.secret, { method: 'GET', url: '/v1/transfers', query: { beginDate: '2026-06-30', endDate: '2026-06-01' } });
      expect(reversed.status).toBe(400);
      expect(reversed.body.error).toMatchObject({ type: 'invalid_request_error' });
      expect(reversed.body.error.message).toBeTruthy();
      const noPerm = await createApiKey(ctx, demo, { permissions: [Perm.settleDetail] });
      expectError(await v1(ctx, noPerm.secret, { method: 'GET', url: '/v1/transfers', query: { beginDate: '2026-06-01', endDate: '2026-06-30' } }), 403, 'permission_error', 'permission_missing');
    });
  });

  describe('rate limit, errors, document', () => {
    it('per-key limit with RateLimit-* headers, then 429 (counted in the database: every process shares it)', async () => {
      const k = await createApiKey(ctx, demo, { permissions: ALL });
      await ctx.db.query('UPDATE api_key SET rate_limit = 3 WHERE id = $1', [k.id]);
      const rs = await Promise.all(Array.from({ length: 5 }, () => v1(ctx, k.secret, { method: 'GET', url: '/v1/transactions', query: { limit: '1' } })));
      expect(rs.filter((r) => r.status === 200)).toHaveLength(3);
      const limited = rs.filter((r) => r.status === 429);
      expect(limited).toHaveLength(2);
      expectError(limited[0], 429, 'rate_limit_error', 'rate_limited');
      expect(limited[0].headers['retry-after']).toBeDefined();
      const okOne = rs.find((r) => r.status === 200)!;
      expect(okOne.headers['ratelimit-limit']).toBe('3');
      expect(Number(okOne.headers['ratelimit-remaining'])).toBeLessThan(3);
      expect(Number(okOne.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(await count("SELECT hits AS n FROM rate_limit WHERE key LIKE '%|key:' || $1", [String(k.id)])).toBe(5);
      // Another key is not limited by this one.
      expect((await v1(ctx, key.secret, { method: 'GET', url: '/v1/transactions', query: { limit: '1' } })).status).toBe(200);
    });

    it('an unknown /v1 path answers the error model (not the web app)', async () => {
      expectError(await v1(ctx, key.secret, { method: 'GET', url: '/v1/nothing' }), 404, 'not_found_error', 'route_not_found');
    });

    it('serves its own OpenAPI document: operationIds, error responses, servers; not in /api/docs', async () => {
      const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
      expect(doc.servers[0].url).toBe(ctx.config.publicUrl);
      const ops = Object.entries(doc.paths).flatMap(([p, m]: [string, any]) => Object.entries(m).map(([method, op]: [string, any]) => ({ p, method, op })));
      // Other modules add theirs (issue 50: the face's mechanisms are shared); these are the face's own.
      expect(ops.map((o) => o.op.operationId).sort()).toEqual(
        expect.arrayContaining([
          'closePaymentLink',
          'createExport',
          'createInStoreOrder',
          'createPaymentLink',
          'createRefund',
          'createWebhookEndpoint',
          'deleteWebhookEndpoint',
          'downloadExport',
          'getEvent',
          'getExport',
          'getInStoreOrder',
          'getPaymentLink',
          'getRefund',
          'getRefundApproval',
          'getSettlement',
          'getTransaction',
          'getTransfer',
          'getWebhookEndpoint',
          'listEvents',
          'listRefunds',
          'listSettlements',
          'listTransactions',
          'listTransfers',
          'listWebhookEndpoints',
          'updatePaymentLink',
          'updateWebhookEndpoint',
        ]),
      );
      for (const o of ops) {
        expect(o.p.startsWith('/v1/')).toBe(true);
        expect(Object.keys(o.op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429']));
      }
      const portal = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
      expect(Object.keys(portal.paths).some((p) => p.startsWith('/v1'))).toBe(false);
    });
  });
});
