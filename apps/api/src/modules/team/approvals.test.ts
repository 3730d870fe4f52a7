import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';
import { readOutbox } from '../../plugins/mail';
import { addTxn, loginWithStepUp } from '../txn/txn.fixtures';

/**
 * Four eyes (issue 28, decision 041) on both databases: the merchant's policy (administrators only,
 * strict input), a refund above the limit waiting for a second user and carried out once by the
 * approval through the refund service, the approvers' e-mail, the requester unable to approve,
 * rejection, expiry, another merchant, a permission raise of a user and of a named role, and
 * parallel approvals on PostgreSQL → one execution.
 */
describe.each(DB_KINDS)('team: four eyes (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let requester: string;
  let apprA: string;
  let apprB: string;
  let admin2: string;
  let sub: string;
  let other: string;
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number | boolean>, lang = 'en') => {
    const f = form(body as Record<string, string | number>);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const status = async (id: number) => (await ctx.db.query<{ status: string; result: Record<string, unknown> | null }>('SELECT status, result FROM approval_request WHERE id = $1', [id])).rows[0];
  const returned = async (id: number) => (await ctx.db.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [id])).rows[0].return_amount;
  /** Fresh password re-checks (5 minutes; each sign-in moves the test clock 61 s). */
  const refresh = async () => {
    demo = await loginWithStepUp(ctx);
    apprB = await loginWithStepUp(ctx, 'appr.b');
    apprA = await loginWithStepUp(ctx, 'appr.a');
    requester = await loginWithStepUp(ctx, 'req.r');
  };
  const lastApproval = async () => (await ctx.db.query<{ id: number }>('SELECT max(id) AS id FROM approval_request')).rows[0].id;
  const refunds = async (id: number) => (await ctx.db.query(`SELECT id FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD'`, [id])).rows.length;
  const addUser = async (userName: string, role: string, merIds: string = DEMO.subA) => {
    const r = await post('/api/user/add', demo, { userName, email: `${userName}@x.example`, merIds, role });
    expect(r.body.code, r.body.msg).toBe(0);
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [r.body.data.id, await hashPassword(DEMO.password)]);
    return r.body.data.id as number;
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    await addUser('req.r', 'REFUNDS');
    await addUser('appr.a', 'REFUNDS');
    await addUser('appr.b', 'REFUNDS');
    await addUser('admin.two', 'ADMIN', `${DEMO.group},${DEMO.subA},${DEMO.subB}`);
    requester = await loginWithStepUp(ctx, 'req.r');
    apprA = await loginWithStepUp(ctx, 'appr.a');
    apprB = await loginWithStepUp(ctx, 'appr.b');
    admin2 = await loginWithStepUp(ctx, 'admin.two');
    // A long-standing second administrator (issue 47: one demo created lately could not approve demo's requests).
    await ctx.db.query(`DELETE FROM user_grant_origin WHERE user_id = (SELECT id FROM app_user WHERE username = 'admin.two')`);
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('administrators set the policy; a sub-merchant follows its group; bad input and others refused, nothing written', async () => {
    const saved = await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:100.00,USD:50', permissionRaise: 'false', expiryHours: 24 });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect(saved.body.data).toEqual({
      merId: DEMO.group,
      refundLimits: { CNY: '100.00', USD: '50.00' },
      permissionRaise: false,
      bankChange: false,
      expiryHours: 24,
      approverCooldownDays: 30,
      groupFloor: null,
    });
    expect((await get(`/api/approval/policy?merId=${DEMO.subA}`, demo)).body.data).toMatchObject({ merId: DEMO.subA, refundLimits: { CNY: '100.00' } });
    const before = (await ctx.db.query('SELECT * FROM four_eyes_policy')).rows;
    for (const body of [
      { merId: DEMO.group, refundLimits: 'CNY:1.001', permissionRaise: 'false', expiryHours: 24 },
      { merId: DEMO.group, refundLimits: 'cny:1', permissionRaise: 'false', expiryHours: 24 },
      { merId: DEMO.group, refundLimits: 'CNY:1,CNY:2', permissionRaise: 'false', expiryHours: 24 },
      { merId: DEMO.group, refundLimits: '', permissionRaise: 'maybe', expiryHours: 24 },
      { merId: DEMO.group, refundLimits: '', permissionRaise: 'true', expiryHours: 0 },
      { merId: DEMO.group, refundLimits: 'CNY:1\u0000', permissionRaise: 'true', expiryHours: 1 },
    ]) {
      const r = await post('/api/approval/policy', demo, body, 'zh');
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:1.001', permissionRaise: 'false', expiryHours: 24 }, 'zh')).body.msg).toContain('退款限额');
    expect((await post('/api/approval/policy', sub, { merId: DEMO.group, refundLimits: '', permissionRaise: 'true', expiryHours: 1 })).status).toBe(403);
    expect((await post('/api/approval/policy', requester, { merId: DEMO.group, refundLimits: '', permissionRaise: 'true', expiryHours: 1 })).status).toBe(403);
    expect((await post('/api/approval/policy', other, { merId: DEMO.group, refundLimits: '', permissionRaise: 'true', expiryHours: 1 })).status).toBe(404);
    expect((await get(`/api/approval/policy?merId=${DEMO.group}`, other)).status).toBe(404);
    expect((await ctx.db.query('SELECT * FROM four_eyes_policy')).rows).toEqual(before);
    const audit = await ctx.db.query<{ detail: { after: { refundLimits: Record<string, string> } } }>(`SELECT detail FROM audit_log WHERE action = 'approval.policy'`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].detail.after.refundLimits).toEqual({ CNY: '100.00', USD: '50.00' });
  });

  it('a refund above the limit waits; the requester cannot approve it; the approval runs it once through the refund service', async () => {
    await refresh();
    const p = await addTxn(ctx, { orderNo: 'FE-1', amount: 50000 });
    const small = await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '100.00' });
    expect(small.body.code, small.body.msg).toBe(0);
    expect(small.body.data.code, 'at the limit: no approval').toBe(RefundCode.OK);
    const asked = await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '100.01', requestKey: 'fe-key-0001' }, 'ja');
    expect(asked.body.data).toMatchObject({ code: RefundCode.APPROVAL_REQUIRED });
    expect(asked.body.data.msg).toContain('承認待ち');
    const id = asked.body.data.approvalId as number;
    expect(await returned(p.id)).toBe(10000);
    // the same request key again: the same answer, no second request
    expect((await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '100.01', requestKey: 'fe-key-0001' })).body.data.approvalId).toBe(id);
    expect((await ctx.db.query(`SELECT id FROM approval_request`)).rows).toHaveLength(1);
    // the approvers are e-mailed (the requester is not)
    const mails = (await readOutbox(ctx.outbox)).filter((m) => m.subject.includes(`#${id}`));
    expect(mails.map((m) => m.to).sort()).toEqual(expect.arrayContaining(['appr.a@x.example', 'appr.b@x.example']));
    expect(mails.map((m) => m.to)).not.toContain('req.r@x.example');
    expect(mails[0].text).toContain('FE-1');
    // both lists show it; only the other user may decide
    const mine = (await get('/api/approval/list?page=0&size=10', requester)).body.data.content;
    expect(mine).toEqual([expect.objectContaining({ id, kind: 'refund', status: 'PENDING', canDecide: false, requestedBy: 'req.r' })]);
    expect((await get('/api/approval/list?page=0&size=10', apprA)).body.data.content[0]).toMatchObject({ id, canDecide: true, summary: { amount: '100.01', currency: 'CNY' } });
    const own = await post('/api/approval/approve', requester, { id });
    expect(own.body.code).toBe(Code.APPROVAL_OWN);
    // an approver without a fresh password re-check is asked for it first; nothing decided
    const stale = (await ctx.login('appr.b')).token;
    expect((await post('/api/approval/approve', stale, { id })).status).toBe(403);
    expect((await status(id)).status).toBe('PENDING');
    const ok = await post('/api/approval/approve', apprA, { id });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', decidedBy: 'appr.a', result: { code: RefundCode.OK, returnAmount: '200.01' } });
    expect(await returned(p.id)).toBe(20001);
    expect(await refunds(p.id)).toBe(2);
    expect((await post('/api/approval/approve', apprB, { id })).body.code).toBe(Code.APPROVAL_DECIDED);
    expect(await refunds(p.id)).toBe(2);
    const trail = await ctx.db.query<{ action: string; username: string }>(
      `SELECT action, username FROM audit_log WHERE action IN ('approval.request', 'approval.approve', 'txn.refund') AND (target = $1 OR target = $2) ORDER BY id`,
      [p.gwTransId, `approval #${id}`],
    );
    expect(trail.rows.map((r) => `${r.action} ${r.username}`)).toEqual(['txn.refund req.r', 'approval.request req.r', 'approval.approve appr.a', 'txn.refund appr.a']);
  });

  it('a rejected request is never carried out; an expired one cannot be approved; another merchant sees none', async () => {
    await refresh();
    const p = await addTxn(ctx, { orderNo: 'FE-2', amount: 50000 });
    const a = (await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '150.00' })).body.data.approvalId as number;
    const b = (await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '160.00' })).body.data.approvalId as number;
    expect((await get('/api/approval/list?page=0&size=10', other)).body.data.content).toEqual([]);
    expect((await post('/api/approval/approve', other, { id: a })).status).toBe(404);
    expect((await post('/api/approval/approve', sub, { id: a })).status).toBe(403);
    expect((await post('/api/approval/approve', apprA, { id: 'x' })).status).toBe(400);
    const rej = await post('/api/approval/reject', apprA, { id: a, note: 'not agreed with the buyer' });
    expect(rej.body.data).toMatchObject({ status: 'REJECTED', result: null });
    expect((await post('/api/approval/approve', apprB, { id: a })).body.code).toBe(Code.APPROVAL_DECIDED);
    ctx.clock.advance(25 * 3_600_000);
    apprA = await loginWithStepUp(ctx, 'appr.a');
    const late = await post('/api/approval/approve', apprA, { id: b }, 'ko');
    expect(late.body.code).toBe(Code.APPROVAL_EXPIRED);
    expect(late.body.msg).toContain('만료');
    expect((await status(b)).status).toBe('EXPIRED');
    expect(await returned(p.id)).toBe(0);
    expect((await get('/api/approval/list?page=0&size=10&status=EXPIRED', apprA)).body.data.content.map((r: { id: number }) => r.id)).toEqual([b]);
  });

  it('with permission raises on: a user given more waits for a second administrator; less is done at once; a named role likewise', async () => {
    demo = (await ctx.login()).token;
    admin2 = (await ctx.login('admin.two')).token;
    const on = await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:100.00,USD:50', permissionRaise: 'true', expiryHours: 24 });
    expect(on.body.code, on.body.msg).toBe(0);
    const u = await addUser('raise.me', 'READONLY');
    const before = (await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [u])).rows[0].permissions;
    const asked = await post('/api/user/update', demo, { userId: u, role: 'REFUNDS', merIds: DEMO.subA });
    expect(asked.body.code).toBe(Code.APPROVAL_REQUIRED);
    const id = await lastApproval();
    expect(asked.body.msg).toContain(`#${id}`);
    expect((await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [u])).rows[0].permissions).toEqual(before);
    // a refunder cannot decide it (not its permission); the requester cannot either
    expect((await post('/api/approval/approve', apprA, { id })).status).toBe(403);
    expect((await post('/api/approval/approve', demo, { id })).body.code).toBe(Code.APPROVAL_OWN);
    const ok = await post('/api/approval/approve', admin2, { id });
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', result: { code: 0, userId: u } });
    expect((await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [u])).rows[0].permissions).toContain(Perm.txnRefund);
    // taking away needs nobody
    expect((await post('/api/user/update', demo, { userId: u, role: 'CUSTOM', permissions: Perm.txnList, merIds: DEMO.subA })).body.code).toBe(0);
    // a named role held by a user, given more: waits
    const role = (await post('/api/role/save', demo, { name: 'Lookup', permissions: Perm.txnList })).body.data.id as number;
    expect((await post('/api/user/update', demo, { userId: u, role: 'CUSTOM', roleId: role, merIds: DEMO.subA })).body.code).toBe(0);
    const more = await post('/api/role/save', demo, { roleId: role, name: 'Lookup', permissions: `${Perm.txnList},${Perm.txnDetail}` });
    expect(more.body.code).toBe(Code.APPROVAL_REQUIRED);
    expect((await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [u])).rows[0].permissions).toEqual([Perm.txnList]);
    const done = await post('/api/approval/approve', admin2, { id: await lastApproval() });
    expect(done.body.data.result).toMatchObject({ code: 0, roleId: role });
    expect((await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [u])).rows[0].permissions).toEqual([Perm.txnList, Perm.txnDetail]);
    // switching the rule off loosens the policy: a second administrator approves it (issue 47)
    expect((await post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: 'CNY:100.00,USD:50', permissionRaise: 'false', expiryHours: 24 })).body.code).toBe(Code.APPROVAL_REQUIRED);
    expect((await post('/api/approval/approve', admin2, { id: await lastApproval() })).body.data).toMatchObject({ status: 'APPROVED', result: { code: 0 } });
    expect((await get(`/api/approval/policy?merId=${DEMO.group}`, demo)).body.data.permissionRaise).toBe(false);
  });

  it.skipIf(!isConcurrent(kind))('three approvals of one refund at once: one carries it out, the others find it decided', async () => {
    await refresh();
    const p = await addTxn(ctx, { orderNo: 'FE-PAR', amount: 90000 });
    const id = (await post('/api/txn/refund', requester, { id: p.gwTransId, amount: '300.00' })).body.data.approvalId as number;
    const results = await Promise.all([demo, apprA, apprB].map((t) => post('/api/approval/approve', t, { id })));
    expect(
      results.map((r) => r.body.code).sort((x, y) => x - y),
      JSON.stringify(results.map((r) => r.body.msg)),
    ).toEqual([0, Code.APPROVAL_DECIDED, Code.APPROVAL_DECIDED]);
    expect(await refunds(p.id)).toBe(1);
    expect(await returned(p.id)).toBe(30000);
  });
});
