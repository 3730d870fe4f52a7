import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../helpers';
import { addTxn, loginWithStepUp } from '../../src/modules/txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../../src/modules/apikey/apikey.fixtures';
import { addEndpoint } from '../../src/modules/webhook/webhook.fixtures';
import { drainExports } from '../../src/modules/export/export.service';
import { clientBucket, V1_AUTH_FAILURES_PER_MINUTE } from '../../src/modules/v1/v1.face';
import { addOperator, opsLogin } from '../../src/modules/ops/ops.fixtures';
import { makeConnection, signedCall, signedHeaders } from '../../src/modules/gateway/gateway.fixtures';

/**
 * Issue 47, the outside review's findings on the merchant API (/v1): a refund above the four-eyes
 * limit, merId, the export audit, failed key authentication, Cache-Control, the documents behind
 * API_DOCS=auth, a merchant locked by risk.
 */
describe.each(DB_KINDS)('issue 47: /v1 refunds above the four-eyes limit (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  let key2: TestApiKey;
  const post = (url: string, token: string, body: Record<string, string | number>) => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token }, payload: f.payload });
  };
  const refund = (k: TestApiKey, idem: string, body: Record<string, unknown>) => v1(ctx, k.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': idem }, payload: body });
  const approvals = async (gwTransId: string) =>
    (await ctx.db.query<{ id: number; status: string }>(`SELECT id, status FROM approval_request WHERE kind = 'refund' AND summary->>'gwTransId' = $1 ORDER BY id`, [gwTransId])).rows;
  const refunds = async (id: number) => (await ctx.db.query(`SELECT id FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD'`, [id])).rows.length;
  const events = async (approvalId: number) =>
    (
      await ctx.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM webhook_event WHERE type = 'refund_approval.decided' AND (data->>'approvalId')::int = $1 ORDER BY id`, [approvalId])
    ).rows.map((r) => r.data);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    // The keys' creator: a second administrator of the group (the approver is demo, who did not create it).
    await ctx.db.query(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions)
       SELECT 'key.maker', password_hash, 'key.maker@demo-group.example', mer_id, 'MAIN', true, permissions FROM app_user WHERE username = 'demo'`,
    );
    const maker = (await ctx.login('key.maker')).token;
    key = await createApiKey(ctx, maker, { permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund] });
    key2 = await createApiKey(ctx, maker, { permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund] });
    const policy = await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:50.00', permissionRaise: 'false', expiryHours: 24 });
    expect(policy.body.code, policy.body.msg).toBe(0);
    await addEndpoint(ctx, DEMO.subA, 'http://127.0.0.1:9/hook', ['refund_approval.decided']);
  });
  afterAll(() => ctx?.close());

  it('202 with the approval; a retry with a new Idempotency-Key, another key and the portal join it; approved once → one refund, and the event', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    const first = await refund(key, 'four-eyes-0001', { transaction_id: p.id, amount: '80.00', metadata: { ticket: 'T-42' } });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ status: 'pending', transaction_id: p.id, amount: '80.00', currency: 'CNY', refund_id: null, decided_at: null });
    const id = first.body.id;
    expect(typeof id).toBe('number');
    // The retry the review made: a new Idempotency-Key → the same request, not a second one.
    const retry = await refund(key, 'four-eyes-0002', { transaction_id: p.id, amount: '80.00' });
    expect(retry.status).toBe(202);
    expect(retry.body.id).toBe(id);
    expect((await refund(key2, 'four-eyes-0003', { transaction_id: p.id, amount: '80.00' })).body.id).toBe(id);
    // The portal's Refund button shares the rule.
    const portal = await post('/api/txn/refund', demo, { id: p.gwTransId, amount: '80.00' });
    expect(portal.body.data).toMatchObject({ code: RefundCode.APPROVAL_REQUIRED, approvalId: id });
    // Another amount is another request.
    const other = await refund(key, 'four-eyes-0004', { transaction_id: p.id, amount: '60.00' });
    expect(other.status).toBe(202);
    expect(other.body.id).not.toBe(id);
    expect((await approvals(p.gwTransId)).map((a) => a.status)).toEqual(['PENDING', 'PENDING']);
    expect(await refunds(p.id)).toBe(0);
    // Read by id; another merchant's key does not see it.
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refund-approvals/${id}` })).body).toMatchObject({ id, status: 'pending' });
    const otherKey = await createApiKey(ctx, (await ctx.login(DEMO.users.other)).token, { merIds: [DEMO.other], permissions: [Perm.txnDetail] });
    expect((await v1(ctx, otherKey.secret, { method: 'GET', url: `/v1/refund-approvals/${id}` })).status).toBe(404);

    demo = await loginWithStepUp(ctx);
    const ok = await post('/api/approval/approve', demo, { id });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(await refunds(p.id)).toBe(1);
    const done = await v1(ctx, key.secret, { method: 'GET', url: `/v1/refund-approvals/${id}` });
    expect(done.body).toMatchObject({ id, status: 'approved', failure_message: null });
    expect(typeof done.body.refund_id).toBe('number');
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${done.body.refund_id}` })).body).toMatchObject({
      type: 'REFD',
      amount: '80.00',
      origin_transaction_id: p.id,
      metadata: { ticket: 'T-42' },
    });
    // The first request replayed: the same request, now decided.
    const replay = await refund(key, 'four-eyes-0001', { transaction_id: p.id, amount: '80.00', metadata: { ticket: 'T-42' } });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ id, status: 'approved', refund_id: done.body.refund_id });
    expect(await events(id)).toEqual([
      expect.objectContaining({ approvalId: id, status: 'approved', transactionId: p.id, gatewayId: p.gwTransId, amount: '80.00', currency: 'CNY', refundId: done.body.refund_id, refundCode: 0 }),
    ]);
    // Rejected: its event, no refund.
    const no = await post('/api/approval/reject', demo, { id: other.body.id });
    expect(no.body.code, no.body.msg).toBe(0);
    expect(await events(other.body.id)).toEqual([expect.objectContaining({ status: 'rejected', refundId: null })]);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refund-approvals/${other.body.id}` })).body.status).toBe('rejected');
    expect(await refunds(p.id)).toBe(1);
  });

  it('an expired request is not joined: a new one is made; the expired one is read as expired, with its event', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    const a = await refund(key, 'four-eyes-exp-1', { transaction_id: p.id, amount: '70.00' });
    expect(a.status).toBe(202);
    ctx.clock.advance(25 * 3_600_000);
    const b = await refund(key, 'four-eyes-exp-2', { transaction_id: p.id, amount: '70.00' });
    expect(b.status).toBe(202);
    expect(b.body.id).not.toBe(a.body.id);
    expect((await approvals(p.gwTransId)).map((x) => x.status)).toEqual(['EXPIRED', 'PENDING']);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refund-approvals/${a.body.id}` })).body.status).toBe('expired');
    expect(await events(a.body.id)).toEqual([expect.objectContaining({ status: 'expired' })]);
  });

  it('parallel requests with different Idempotency-Keys and keys make one request', async (c) => {
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => refund(i % 2 ? key : key2, `four-eyes-par-${i}`, { transaction_id: p.id, amount: '90.00' })));
    for (const r of rs) expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(new Set(rs.map((r) => r.body.id)).size).toBe(1);
    expect(await approvals(p.gwTransId)).toHaveLength(1);
    if (!isConcurrent(kind)) c.annotate('truly parallel on PostgreSQL only');
  });
});

describe.each(DB_KINDS)('issue 47: merId on /v1 lists and exports, unknown parameters, the export audit (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestApiKey;
  const tag = `MERID-${kind}`;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const demo = await loginWithStepUp(ctx);
    key = await createApiKey(ctx, demo, { permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund, Perm.reportFile, Perm.txnExport] });
    const a = await addTxn(ctx, { merId: DEMO.subA, merReserve: tag, orderNo: `MA-${kind}`, txnTime: new Date('2026-08-10T04:00:00Z') });
    const b = await addTxn(ctx, { merId: DEMO.subB, currency: 'USD', merReserve: tag, orderNo: `MB-${kind}`, txnTime: new Date('2026-08-10T05:00:00Z') });
    await addTxn(ctx, { merId: DEMO.other, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', merReserve: tag, orderNo: `MO-${kind}`, txnTime: new Date('2026-08-10T06:00:00Z') });
    for (const [t, n] of [
      [a, 1],
      [b, 2],
    ] as const) {
      const r = await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': `merid-refund-${n}` }, payload: { transaction_id: t.id, amount: '1.00' } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });
  afterAll(() => ctx?.close());

  const list = (url: string, query: Record<string, string>) => v1(ctx, key.secret, { method: 'GET', url, query });

  it("merId narrows /v1/transactions and /v1/refunds to one of the key's merchants; another merchant's id matches nothing", async () => {
    const all = await list('/v1/transactions', { merReserve: tag, gwTranType: 'PURC', limit: '100' });
    expect(all.body.data.map((t: any) => t.merchant_id).sort()).toEqual([DEMO.subA, DEMO.subB]);
    const onlyA = await list('/v1/transactions', { merReserve: tag, gwTranType: 'PURC', merId: DEMO.subA, limit: '100' });
    expect(onlyA.status, JSON.stringify(onlyA.body)).toBe(200);
    expect(onlyA.body.data.map((t: any) => t.order_no)).toEqual([`MA-${kind}`]);
    const refundsB = await list('/v1/refunds', { merId: DEMO.subB, limit: '100' });
    expect(refundsB.body.data.length).toBeGreaterThan(0);
    expect(refundsB.body.data.every((t: any) => t.merchant_id === DEMO.subB && t.type === 'REFD')).toBe(true);
    for (const url of ['/v1/transactions', '/v1/refunds']) {
      const foreign = await list(url, { merId: DEMO.other, limit: '100' });
      expect(foreign.status).toBe(200);
      expect(foreign.body).toEqual({ data: [], has_more: false, next_cursor: null });
      expect((await list(url, { merId: 'abc' })).body.error).toMatchObject({ type: 'invalid_request_error', param: 'merId' });
    }
  });

  it('an unknown parameter (or a portal screen-only one) answers 400 naming it', async () => {
    for (const url of ['/v1/transactions', '/v1/refunds']) {
      for (const q of [{ merchant: DEMO.subA }, { userName: 'demo' }, { timeZone: '8' }] as Record<string, string>[]) {
        const r = await list(url, q);
        expect(r.status, `${url} ${JSON.stringify(q)}`).toBe(400);
        expect(r.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: Object.keys(q)[0] });
        expect(r.body.error.message).toContain(Object.keys(q)[0]);
      }
    }
  });

  it("POST /v1/exports: params.merId narrows the file; another merchant's id gives no rows; the file is audited under the key's name", async () => {
    const ask = (params: Record<string, string>) =>
      v1(ctx, key.secret, {
        method: 'POST',
        url: '/v1/exports',
        payload: { kind: 'txn', format: 'csv', params: { beginDate: '2026-08-01 00:00:00', endDate: '2026-08-31 23:59:59', merReserve: tag, ...params } },
      });
    const a = await ask({ merId: DEMO.subA, gwTranType: 'PURC' });
    const o = await ask({ merId: DEMO.other });
    expect(a.status, JSON.stringify(a.body)).toBe(202);
    expect(o.status).toBe(202);
    expect((await ask({ merId: 'x' })).status).toBe(400);
    await drainExports(ctx.deps);
    const file = async (id: number) => (await ctx.app.inject({ method: 'GET', url: `/v1/exports/${id}/file`, headers: { authorization: `Bearer ${key.secret}` } })).body;
    const fa = await file(a.body.id);
    expect(fa).toContain(`MA-${kind}`);
    expect(fa).not.toContain(`MB-${kind}`);
    const fo = await file(o.body.id);
    expect(fo).not.toContain(`MO-${kind}`);
    expect(fo).not.toContain(`MA-${kind}`);
    const audit = await ctx.db.query<{ username: string; user_id: number; detail: { keyId?: number; fileId: number } }>(
      "SELECT username, user_id, detail FROM audit_log WHERE action = 'export.file' AND (detail->>'fileId')::int = $1",
      [a.body.id],
    );
    expect(audit.rows).toEqual([expect.objectContaining({ username: `apikey:${key.prefix}`, detail: expect.objectContaining({ keyId: key.id, fileId: a.body.id }) })]);
    // The portal's own exports stay under the user's name.
    const demo = (await ctx.login()).token;
    const portal = await ctx.call({ method: 'GET', url: '/api/txn/exportBack', headers: { 'x-token': demo }, query: { beginDate: '2026-08-01 00:00:00', endDate: '2026-08-31 23:59:59' } });
    await drainExports(ctx.deps);
    const pa = await ctx.db.query<{ username: string; detail: Record<string, unknown> }>("SELECT username, detail FROM audit_log WHERE action = 'export.file' AND (detail->>'fileId')::int = $1", [
      portal.body.data.id,
    ]);
    expect(pa.rows[0].username).toBe(DEMO.users.demo);
    expect(pa.rows[0].detail.keyId).toBeUndefined();
  });
});

describe.each(DB_KINDS)('issue 47: failed key authentication is throttled per address; JSON answers are not cached (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let key: TestApiKey;
  const BAD = `mpk_AAAAAAAAAAAA_${'C'.repeat(43)}`;
  const get = (secret: string | null, remoteAddress: string) => v1(ctx, secret, { method: 'GET', url: '/v1/transactions', query: { limit: '1' }, remoteAddress } as never);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: [Perm.txnList] });
  });
  afterAll(() => ctx?.close());

  it(`parallel bad keys from one address: exactly ${V1_AUTH_FAILURES_PER_MINUTE} answered 401, the rest 429 with Retry-After; then even a valid key waits; other addresses are not touched`, async (c) => {
    const addr = '127.0.9.9';
    const rs = await Promise.all(Array.from({ length: V1_AUTH_FAILURES_PER_MINUTE + 10 }, () => get(BAD, addr)));
    expect(rs.filter((r) => r.status === 401)).toHaveLength(V1_AUTH_FAILURES_PER_MINUTE);
    const limited = rs.filter((r) => r.status === 429);
    expect(limited).toHaveLength(10);
    for (const r of limited) {
      expect(r.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The address is refused before its key is looked up: a valid key too, until the minute ends.
    expect((await get(key.secret, addr)).status).toBe(429);
    expect((await get(key.secret, '127.0.9.10')).status).toBe(200);
    expect((await get(BAD, '127.0.9.10')).status).toBe(401);
    await ctx.db.query(`UPDATE rate_limit SET reset_at = now() - interval '1 second' WHERE key LIKE '%auth-failures|' || $1`, [addr]);
    expect((await get(key.secret, addr)).status).toBe(200);
    expect((await get(BAD, addr)).status).toBe(401);
    if (!isConcurrent(kind)) c.annotate('truly parallel on PostgreSQL only');
  });

  it('an IPv6 client counts per /64; a key used outside its allow-list counts too', async () => {
    expect(clientBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('::ffff:203.0.113.4')).toBe('203.0.113.4');
    expect(clientBucket('203.0.113.4')).toBe('203.0.113.4');
    for (let i = 0; i < V1_AUTH_FAILURES_PER_MINUTE; i++) expect((await get(BAD, `2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(401);
    expect((await get(BAD, '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await get(BAD, '2001:db8:1:3::1')).status).toBe(401);
    const walled = await createApiKey(ctx, demo, { permissions: [Perm.txnList], ipAllow: ['203.0.113.0/24'] });
    for (let i = 0; i < V1_AUTH_FAILURES_PER_MINUTE; i++) expect((await get(walled.secret, '198.51.100.20')).status).toBe(403);
    expect((await get(walled.secret, '198.51.100.20')).status).toBe(429);
  });

  it('Cache-Control: no-store on authenticated JSON: the key-creation answer (with its secret), /v1 answers and errors, the portal API, sign-in', async () => {
    const f = form({ name: 'cache test', merIds: DEMO.subA, permissions: Perm.txnList });
    const created = await ctx.call({ method: 'POST', url: '/api/developer/keys/create', headers: { ...f.headers, 'x-token': demo }, payload: f.payload });
    expect(created.body.data.secret).toMatch(/^mpk_/);
    expect(created.headers['cache-control']).toBe('no-store');
    expect((await ctx.call({ method: 'GET', url: '/api/developer/keys', headers: { 'x-token': demo } })).headers['cache-control']).toBe('no-store');
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': demo } })).headers['cache-control']).toBe('no-store');
    expect((await ctx.call({ method: 'GET', url: '/api/user/info' })).headers['cache-control']).toBe('no-store');
    const ok = await get(created.body.data.secret, '127.0.8.1');
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect((await get(null, '127.0.8.1')).headers['cache-control']).toBe('no-store');
    expect((await v1(ctx, created.body.data.secret, { method: 'GET', url: '/v1/nothing' })).headers['cache-control']).toBe('no-store');
    ctx.clock.advance(61_000);
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.demo } });
    const login = await ctx.call({ method: 'POST', url: '/api/user/login', payload: { username: DEMO.users.demo, password: DEMO.password, verifyCode: await ctx.lastCode() } });
    expect(login.body.data.token).toBeTruthy();
    expect(login.headers['cache-control']).toBe('no-store');
  });
});

describe.each(DB_KINDS)('issue 47: a merchant locked by risk takes no new link, order or refund through /v1 (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestApiKey;
  const lock = (merId: string, locked: boolean) => ctx.db.query('UPDATE merchant SET locked = $2 WHERE mer_id = $1', [merId, locked]);
  const count = async (sql: string) => (await ctx.db.query<{ n: number }>(sql)).rows[0].n;
  const expectLocked = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body.error).toMatchObject({ type: 'permission_error', code: 'merchant_locked' });
    expect(r.body.error.message).toBeTruthy();
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const demo = await loginWithStepUp(ctx);
    key = await createApiKey(ctx, demo, {
      permissions: [Perm.payByLinkCreate, Perm.payByLinkDetail, Perm.payByLinkUpdate, Perm.payByLinkClose, Perm.payInStoreCreate, Perm.payInStoreList, Perm.txnRefund, Perm.txnDetail, Perm.txnList],
    });
  });
  afterAll(() => ctx?.close());

  it('pay links: create and update refused (403 merchant_locked, nothing written), close still allowed; in-store orders and refunds refused; unlocked, all work again', async () => {
    const link = { reconId: 'INV-LOCK', orderCurrency: 'CNY', totalAmount: '120.50', goodsName: 'Blue widget', goodsPrice: '120.50', goodsQuantity: '1', logFee: '0', merchant_id: DEMO.subA };
    const open = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', payload: link });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const p = await addTxn(ctx, { merId: DEMO.subA, amount: 10000 });
    // The group is locked: its sub-merchant takes nothing either.
    await lock(DEMO.group, true);
    const links = await count('SELECT count(*)::int AS n FROM pay_by_link_order');
    const refunds = await count("SELECT count(*)::int AS n FROM txn WHERE tran_type = 'REFD'");
    expectLocked(await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', payload: link }));
    expectLocked(await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${open.body.id}`, payload: { goodsPrice: '60.25', goodsQuantity: '2', logFee: '0', totalAmount: '120.50' } }));
    expectLocked(
      await v1(ctx, key.secret, { method: 'POST', url: '/v1/in-store-orders', payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '10.00', goodsName: 'Tea' } }),
    );
    expectLocked(await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': 'locked-refund-1' }, payload: { transaction_id: p.id, amount: '1.00' } }));
    expect(await count('SELECT count(*)::int AS n FROM pay_by_link_order')).toBe(links);
    expect(await count("SELECT count(*)::int AS n FROM txn WHERE tran_type = 'REFD'")).toBe(refunds);
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/payment-links/${open.body.id}` })).body.totalAmount).toBe('120.50');
    // The portal's own form refuses alike (the same service).
    const demo = (await ctx.login()).token;
    const f = form({ ...link, orderCurrency: 'CNY' });
    const portal = await ctx.call({ method: 'POST', url: '/api/payByLink/add', headers: { ...f.headers, 'x-token': demo, 'accept-language': 'zh' }, payload: f.payload });
    expect(portal.status).toBe(403);
    expect(portal.body.msg).toContain('锁定');
    // Closing a link lowers the risk: allowed.
    expect((await v1(ctx, key.secret, { method: 'POST', url: `/v1/payment-links/${open.body.id}/close` })).status).toBe(200);
    await lock(DEMO.group, false);
    expect((await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', payload: link })).status).toBe(201);
    expect((await v1(ctx, key.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': 'locked-refund-1' }, payload: { transaction_id: p.id, amount: '1.00' } })).status).toBe(201);
  });
});

describe.each(DB_KINDS)('issue 47: API_DOCS covers every OpenAPI document (%s)', (kind) => {
  let auth: TestCtx;
  let off: TestCtx;
  beforeAll(async () => {
    auth = await createTestApp({ kind, config: { apiDocs: 'auth' } });
    off = await createTestApp({ kind, seed: false, config: { apiDocs: 'off' } });
  });
  afterAll(async () => {
    await auth?.close();
    await off?.close();
  });
  const isDoc = (r: { status: number; body: unknown }) => r.status === 200 && String((r.body as { openapi?: string }).openapi).startsWith('3.');

  it('API_DOCS=auth: /v1/docs to a valid API key or a signed-in portal user only', async () => {
    for (const url of ['/v1/docs/json', '/v1/docs', '/v1/docs/static/index.html']) {
      const anon = await auth.call({ method: 'GET', url });
      expect(anon.status, url).toBe(401);
      expect(JSON.stringify(anon.body)).not.toContain('openapi');
      expect((anon.body as any).error).toMatchObject({ type: 'authentication_error', code: 'api_key_missing' });
      expect((await auth.call({ method: 'GET', url, headers: { authorization: `Bearer mpk_AAAAAAAAAAAA_${'D'.repeat(43)}` } })).status, url).toBe(401);
      expect((await auth.call({ method: 'GET', url, headers: { 'x-token': 'not-a-token' } })).status, url).toBe(401);
    }
    const demo = (await auth.login()).token;
    const k = await createApiKey(auth, demo, { permissions: [Perm.txnList] });
    expect(isDoc(await auth.call({ method: 'GET', url: '/v1/docs/json', headers: { authorization: `Bearer ${k.secret}` } }))).toBe(true);
    expect(isDoc(await auth.call({ method: 'GET', url: '/v1/docs/json', headers: { 'x-token': demo } }))).toBe(true);
    const ui = await auth.app.inject({ method: 'GET', url: '/v1/docs', headers: { 'x-token': demo } });
    expect(ui.statusCode).toBeLessThan(400);
  });

  it('API_DOCS=auth: /api/provider/docs to a signed-in back-office operator or a signed gateway request only', async () => {
    for (const url of ['/api/provider/docs/json', '/api/provider/docs', '/api/provider/docs/static/index.html']) {
      const anon = await auth.call({ method: 'GET', url });
      expect(anon.status, url).toBe(401);
      expect(JSON.stringify(anon.body)).not.toContain('openapi');
    }
    // A merchant's session is not an operator's.
    const demo = (await auth.login()).token;
    expect((await auth.call({ method: 'GET', url: '/api/provider/docs/json', headers: { 'x-token': demo } })).status).toBe(401);
    const op = await addOperator(auth, 'docs.reader', 'support');
    const opToken = await opsLogin(auth, 'docs.reader', op.secret);
    expect(isDoc(await auth.call({ method: 'GET', url: '/api/provider/docs/json', headers: { 'x-token': opToken } }))).toBe(true);
    const gw = await makeConnection(auth, 'docs-gw', [DEMO.subA]);
    expect(isDoc(await signedCall(auth, gw, 'GET', '/api/provider/docs/json', undefined))).toBe(true);
    const forged = signedHeaders({ ...gw, secret: 'wrong' }, 'GET', '/api/provider/docs/json', '', auth.clock.now().getTime());
    expect((await auth.call({ method: 'GET', url: '/api/provider/docs/json', headers: forged })).status).toBe(401);
  });

  it('API_DOCS=off: no document is served, /v1 and the provider API included', async () => {
    for (const url of ['/api/docs/json', '/v1/docs/json', '/v1/docs', '/api/provider/docs/json', '/api/provider/docs', '/api/ops/docs/json']) {
      const r = await off.call({ method: 'GET', url });
      expect(r.status, url).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('openapi');
    }
  });
});
