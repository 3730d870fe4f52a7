import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../helpers';
import { addTxn, loginWithStepUp } from '../../src/modules/txn/txn.fixtures';
import { createApiKey, v1, type TestApiKey } from '../../src/modules/apikey/apikey.fixtures';
import { addEndpoint } from '../../src/modules/webhook/webhook.fixtures';

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
  const refund = (k: TestApiKey, idem: string, body: Record<string, unknown>) =>
    v1(ctx, k.secret, { method: 'POST', url: '/v1/refunds', headers: { 'idempotency-key': idem }, payload: body });
  const approvals = async (gwTransId: string) =>
    (await ctx.db.query<{ id: number; status: string }>(`SELECT id, status FROM approval_request WHERE kind = 'refund' AND summary->>'gwTransId' = $1 ORDER BY id`, [gwTransId])).rows;
  const refunds = async (id: number) => (await ctx.db.query(`SELECT id FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD'`, [id])).rows.length;
  const events = async (approvalId: number) =>
    (await ctx.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM webhook_event WHERE type = 'refund_approval.decided' AND (data->>'approvalId')::int = $1 ORDER BY id`, [approvalId])).rows.map((r) => r.data);

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
    const first = await refund(key, 'four-eyes-0001', { transaction_id: p.id, amount: '80.00' });
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
    expect((await v1(ctx, key.secret, { method: 'GET', url: `/v1/refunds/${done.body.refund_id}` })).body).toMatchObject({ type: 'REFD', amount: '80.00', origin_transaction_id: p.id });
    // The first request replayed: the same request, now decided.
    const replay = await refund(key, 'four-eyes-0001', { transaction_id: p.id, amount: '80.00' });
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
