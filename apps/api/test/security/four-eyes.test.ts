import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, Code, Perm, READ_ONLY_PERMISSIONS, RefundCode } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../helpers';
import { readOutbox } from '../../src/plugins/mail';
import { addTxn } from '../../src/modules/txn/txn.fixtures';
import { totpFor } from '../../src/modules/user/totp';

/**
 * Issue 47, findings of an outside review of the team controls: every change that weakens a
 * control is itself under the control. On both engines; parallel decisions on PostgreSQL.
 * - one administrator cannot defeat four eyes by adding (or raising) a second account: the add is
 *   a permission raise, and an approver the requester created or raised lately cannot approve its requests;
 * - a group's policy is a floor; loosening a policy, the inactivity limit or a role's refund caps waits for approval;
 * - a not-enrolled administrator of a merchant requiring a second factor reaches only enrolment.
 */
describe.each(DB_KINDS)('four eyes cannot be walked around (issue 47, %s)', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number | boolean>, lang = 'en') => {
    const f = form(body as Record<string, string | number>);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const stepUp = async (token: string) => expect((await post('/api/user/checkPassword', token, { password: DEMO.password })).body.code).toBe(0);
  /** A long-standing user of `merId` (inserted as the seed does: nobody in the team created it lately). */
  const seedUser = async (username: string, merId: string, admin = true, permissions: string[] = ALL_PERMISSIONS) => {
    await ctx.db.query(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, permissions)
       SELECT $1, password_hash, $2, $3, $4, $5, 'ACTIVE', $6 FROM app_user WHERE username = 'demo'`,
      [username, `${username}@x.example`, merId, admin ? 'MAIN' : 'SUB', admin, permissions],
    );
    tokens[username] = (await ctx.login(username)).token;
  };
  /** An added user activated (its password set) and signed in. */
  const activate = async (username: string) => {
    await ctx.db.query(`UPDATE app_user SET password_hash = (SELECT password_hash FROM app_user WHERE username = 'demo'), status = 'ACTIVE' WHERE username = $1`, [username]);
    tokens[username] = (await ctx.login(username)).token;
  };
  const userRow = async (username: string) =>
    (await ctx.db.query<{ id: number; status: string; permissions: string[] }>('SELECT id, status, permissions FROM app_user WHERE username = $1', [username])).rows[0];
  const approval = async (id: number) =>
    (await ctx.db.query<{ status: string; decided_by: number | null; result: Record<string, unknown> | null }>('SELECT status, decided_by, result FROM approval_request WHERE id = $1', [id])).rows[0];
  const refundsOf = async (txnId: number) => (await ctx.db.query(`SELECT id FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD'`, [txnId])).rows.length;
  const setPolicy = (
    token: string,
    p: { refundLimits?: string; permissionRaise?: boolean; bankChange?: boolean; expiryHours?: number; approverCooldownDays?: number },
    merId: string = DEMO.group,
    lang = 'en',
  ) =>
    post(
      '/api/approval/policy',
      token,
      {
        merId,
        refundLimits: p.refundLimits ?? '',
        permissionRaise: String(p.permissionRaise ?? false),
        bankChange: String(p.bankChange ?? false),
        expiryHours: p.expiryHours ?? 48,
        ...(p.approverCooldownDays !== undefined ? { approverCooldownDays: p.approverCooldownDays } : {}),
      },
      lang,
    );
  /** Writes a group policy directly (the state a test starts from), the sub-merchants' rows removed. */
  const resetPolicy = async (p: { limits?: Record<string, number>; raise?: boolean; bank?: boolean; cooldown?: number } = {}) => {
    await ctx.db.query('DELETE FROM four_eyes_policy');
    await ctx.db.query(`INSERT INTO four_eyes_policy (mer_id, refund_limits, permission_raise, bank_change, expiry_hours, approver_cooldown_days, updated_at) VALUES ($1, $2, $3, $4, 48, $5, now())`, [
      DEMO.group,
      JSON.stringify(p.limits ?? {}),
      p.raise ?? false,
      p.bank ?? false,
      p.cooldown ?? 30,
    ]);
  };
  const askRefund = async (token: string, amount = '200.00') => {
    await stepUp(token);
    const t = await addTxn(ctx, { amount: 100000 });
    const r = await post('/api/txn/refund', token, { id: t.gwTransId, amount });
    expect(r.body.data?.code, r.body.msg ?? r.body.data?.msg).toBe(RefundCode.APPROVAL_REQUIRED);
    return { txn: t, id: r.body.data.approvalId as number };
  };

  const ALL = `${DEMO.group},${DEMO.subA},${DEMO.subB}`;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    tokens.demo = (await ctx.login()).token;
    await seedUser('adm.b', DEMO.group);
    await seedUser('adm.c', DEMO.group);
    await seedUser('sub.adm', DEMO.subA);
  }, 180_000);
  afterAll(async () => ctx?.close());

  describe('HIGH: a second account does not give a second pair of eyes', () => {
    it('with permission raises on, adding an ADMIN (or any grant beyond read-only) waits: no user, no activation mail until a second administrator approves', async () => {
      await resetPolicy({ raise: true, limits: { CNY: 10000 } });
      const mails = async () => (await readOutbox(ctx.outbox, 500)).filter((m) => m.to === 'sock@evil.example').length;
      const asked = await post('/api/user/add', tokens.demo, { userName: 'sock', email: 'sock@evil.example', merIds: ALL, role: 'ADMIN' }, 'zh');
      expect(asked.body.code, asked.body.msg).toBe(Code.APPROVAL_REQUIRED);
      expect(asked.body.msg).toContain('激活邮件');
      expect(await userRow('sock')).toBeUndefined();
      expect(await mails()).toBe(0);
      const id = Number(/#(\d+)/.exec(asked.body.msg)![1]);
      // a grant that could approve (refunds) waits too; the read-only baseline is added at once
      expect((await post('/api/user/add', tokens.demo, { userName: 'refunder.x', email: 'rx@x.example', merIds: DEMO.subA, role: 'REFUNDS' })).body.code).toBe(Code.APPROVAL_REQUIRED);
      expect(await userRow('refunder.x')).toBeUndefined();
      expect((await post('/api/user/add', tokens.demo, { userName: 'reader.x', email: 'reader@x.example', merIds: DEMO.subA, role: 'READONLY' })).body.code).toBe(0);
      // the requester cannot approve its own add; a second administrator can, and only then the mail goes
      expect((await post('/api/approval/approve', tokens.demo, { id })).body.code).toBe(Code.APPROVAL_OWN);
      const ok = await post('/api/approval/approve', tokens['adm.b'], { id });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', result: { code: 0, userName: 'sock' } });
      expect(await userRow('sock')).toMatchObject({ status: 'INACTIVE' });
      expect(await mails()).toBe(1);
      const created = await ctx.db.query<{ created_by: number }>(`SELECT created_by FROM app_user WHERE username = 'sock'`);
      expect(created.rows[0].created_by).toBe((await userRow('demo')).id);
    });

    it("the added administrator cannot approve its creator's (nor its approver's) refund; the approval screen says who created it; a third administrator can", async () => {
      await activate('sock');
      await stepUp(tokens.sock);
      const { txn, id } = await askRefund(tokens.demo);
      const own = await post('/api/approval/approve', tokens.sock, { id }, 'ja');
      expect(own.body.code).toBe(Code.APPROVAL_OWN);
      expect(own.body.msg).toContain('demo');
      expect((await approval(id)).status).toBe('PENDING');
      expect(await refundsOf(txn.id)).toBe(0);
      const row = ((await get('/api/approval/list?page=0&size=50', tokens.sock)).body.data.content as { id: number; canDecide: boolean; yourGrant: unknown }[]).find((r) => r.id === id);
      expect(row).toMatchObject({ canDecide: false, yourGrant: { by: 'demo', how: 'created' } });
      // adm.b approved the creation: its requests are closed to sock too
      await stepUp(tokens['adm.b']);
      const byB = await askRefund(tokens['adm.b']);
      expect((await post('/api/approval/approve', tokens.sock, { id: byB.id })).body.code).toBe(Code.APPROVAL_OWN);
      // rejecting (the safe direction) stays open to it
      expect((await post('/api/approval/reject', tokens.sock, { id: byB.id })).body.data).toMatchObject({ status: 'REJECTED' });
      await stepUp(tokens['adm.c']);
      const ok = await post('/api/approval/approve', tokens['adm.c'], { id });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', decidedBy: 'adm.c', deciderGrants: [] });
      expect(await refundsOf(txn.id)).toBe(1);
      // a request sock decides shows who created sock
      const byC = await askRefund(tokens['adm.c']);
      await stepUp(tokens.sock);
      const sockOk = await post('/api/approval/approve', tokens.sock, { id: byC.id });
      expect(sockOk.body.data.deciderGrants).toEqual([expect.objectContaining({ by: 'adm.b', how: 'approved' }), expect.objectContaining({ by: 'demo', how: 'created' })]);
    });

    it("with permission raises off, a user added or raised at once still cannot approve its creator's refund or bank change", async () => {
      await resetPolicy({ raise: false, limits: { CNY: 10000 }, bank: true });
      expect((await post('/api/user/add', tokens.demo, { userName: 'quick.admin', email: 'qa@x.example', merIds: ALL, role: 'ADMIN' })).body.code).toBe(0);
      expect((await post('/api/user/add', tokens.demo, { userName: 'low.one', email: 'low@x.example', merIds: DEMO.subA, role: 'READONLY' })).body.code).toBe(0);
      await activate('quick.admin');
      await activate('low.one');
      // raised at once (the rule is off): recorded all the same
      const low = await userRow('low.one');
      expect((await post('/api/user/update', tokens.demo, { userId: low.id, role: 'REFUNDS', merIds: DEMO.subA })).body.code).toBe(0);
      await stepUp(tokens['quick.admin']);
      tokens['low.one'] = (await ctx.login('low.one')).token;
      await stepUp(tokens['low.one']);
      const { id } = await askRefund(tokens.demo);
      expect((await post('/api/approval/approve', tokens['quick.admin'], { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await post('/api/approval/approve', tokens['low.one'], { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await approval(id)).status).toBe('PENDING');
      // a bank-account change asked by demo: not by the administrator it just added
      const bank = await ctx.db.query<{ id: number }>(
        `INSERT INTO approval_request (mer_id, kind, permission, payload, summary, requested_by, requested_at, expires_at)
         VALUES ($1, 'bank_change', $2, '{}', '{}', (SELECT id FROM app_user WHERE username = 'demo'), now(), now() + interval '1 day') RETURNING id`,
        [DEMO.subA, Perm.merchantBankChange],
      );
      expect((await post('/api/approval/approve', tokens['quick.admin'], { id: bank.rows[0].id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await approval(bank.rows[0].id)).status).toBe('PENDING');
      // after the cool-down (policy: 30 days) the rule no longer holds it back
      await resetPolicy({ raise: false, limits: { CNY: 10000 }, bank: true, cooldown: 1 });
      ctx.clock.advance(2 * 86_400_000);
      await ctx.db.query('UPDATE approval_request SET expires_at = $2 WHERE id = $1', [id, new Date(ctx.clock.now().getTime() + 3_600_000)]);
      tokens['quick.admin'] = (await ctx.login('quick.admin')).token;
      await stepUp(tokens['quick.admin']);
      expect((await post('/api/approval/approve', tokens['quick.admin'], { id })).body.data).toMatchObject({ status: 'APPROVED' });
      for (const u of ['demo', 'adm.b', 'adm.c', 'sock', 'sub.adm', 'low.one']) tokens[u] = (await ctx.login(u)).token;
    });

    it.skipIf(!isConcurrent(kind))('parallel: the added administrator and a third one approve at once — only the third counts, one refund', async () => {
      await resetPolicy({ limits: { CNY: 10000 } });
      await post('/api/user/add', tokens.demo, { userName: 'par.sock', email: 'ps@x.example', merIds: ALL, role: 'ADMIN' });
      await activate('par.sock');
      for (const u of ['demo', 'adm.c', 'par.sock']) await stepUp(tokens[u]);
      for (let i = 0; i < 3; i++) {
        const { txn, id } = await askRefund(tokens.demo);
        const [a, b, c] = await Promise.all([tokens['par.sock'], tokens['adm.c'], tokens['par.sock']].map((t) => post('/api/approval/approve', t, { id })));
        expect([a.body.code, c.body.code]).toEqual([expect.any(Number), expect.any(Number)]);
        expect([a, c].every((r) => r.body.code === Code.APPROVAL_OWN || r.body.code === Code.APPROVAL_DECIDED)).toBe(true);
        expect(b.body.data, b.body.msg).toMatchObject({ status: 'APPROVED', decidedBy: 'adm.c' });
        expect(await refundsOf(txn.id)).toBe(1);
      }
    });
  });

  describe('MEDIUM: the policy is a floor and loosening it is under four eyes', () => {
    it("a sub-merchant's own row cannot undercut its group's policy (effectivePolicy took the sub's row)", async () => {
      await resetPolicy({ limits: { CNY: 10000 }, raise: true });
      // a row the sub-merchant's administrator wrote before: no limit, no raise rule
      await ctx.db.query(`INSERT INTO four_eyes_policy (mer_id, refund_limits, permission_raise, expiry_hours, updated_at) VALUES ($1, '{}', false, 720, now())`, [DEMO.subA]);
      const p = (await get(`/api/approval/policy?merId=${DEMO.subA}`, tokens['sub.adm'])).body.data;
      expect(p).toMatchObject({ refundLimits: { CNY: '100.00' }, permissionRaise: true, expiryHours: 48, groupFloor: { refundLimits: { CNY: '100.00' } } });
      await stepUp(tokens['sub.adm']);
      const t = await addTxn(ctx, { amount: 100000 });
      expect((await post('/api/txn/refund', tokens['sub.adm'], { id: t.gwTransId, amount: '150.00' })).body.data.code).toBe(RefundCode.APPROVAL_REQUIRED);
      // asking for less than the group: refused in the user's language, nothing written
      const before = (await ctx.db.query('SELECT * FROM four_eyes_policy ORDER BY mer_id')).rows;
      const r = await setPolicy(tokens['sub.adm'], { refundLimits: '', permissionRaise: true }, DEMO.subA, 'ko');
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain('그룹');
      expect((await ctx.db.query('SELECT * FROM four_eyes_policy ORDER BY mer_id')).rows).toEqual(before);
      // tightening is applied at once
      const tight = await setPolicy(tokens['sub.adm'], { refundLimits: 'CNY:50', permissionRaise: true, expiryHours: 24 }, DEMO.subA);
      expect(tight.body.data, tight.body.msg).toMatchObject({ refundLimits: { CNY: '50.00' }, expiryHours: 24 });
      // the group is another merchant's policy for the sub's administrator: 404
      expect((await setPolicy(tokens['sub.adm'], { refundLimits: '' }, DEMO.group)).status).toBe(404);
    });

    it('loosening any rule waits for a second administrator; its requester cannot approve it; tightening is at once', async () => {
      await resetPolicy({ limits: { CNY: 10000 }, raise: true, bank: true });
      const variants: Parameters<typeof setPolicy>[1][] = [
        { refundLimits: '', permissionRaise: true, bankChange: true },
        { refundLimits: 'CNY:100.01', permissionRaise: true, bankChange: true },
        { refundLimits: 'CNY:100', permissionRaise: false, bankChange: true },
        { refundLimits: 'CNY:100', permissionRaise: true, bankChange: false },
        { refundLimits: 'CNY:100', permissionRaise: true, bankChange: true, expiryHours: 72 },
        { refundLimits: 'CNY:100', permissionRaise: true, bankChange: true, approverCooldownDays: 0 },
      ];
      const rows = async () => (await ctx.db.query('SELECT * FROM four_eyes_policy ORDER BY mer_id')).rows;
      const before = await rows();
      for (const v of variants) {
        const r = await setPolicy(tokens.demo, v);
        expect(r.body.code, JSON.stringify(v)).toBe(Code.APPROVAL_REQUIRED);
      }
      expect(await rows()).toEqual(before);
      const ids = (await ctx.db.query<{ id: number }>(`SELECT id FROM approval_request WHERE kind = 'policy_change' AND status = 'PENDING' ORDER BY id`)).rows.map((r) => r.id);
      expect(ids).toHaveLength(variants.length);
      expect((await post('/api/approval/approve', tokens.demo, { id: ids[0] })).body.code).toBe(Code.APPROVAL_OWN);
      // a user without user management cannot decide it
      await seedUser('grp.reader', DEMO.group, false, [Perm.txnList, Perm.txnRefund]);
      expect((await post('/api/approval/approve', tokens['grp.reader'], { id: ids[0] })).status).toBe(403);
      const ok = await post('/api/approval/approve', tokens['adm.b'], { id: ids[0] });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', result: { code: 0 } });
      expect((await get(`/api/approval/policy?merId=${DEMO.group}`, tokens.demo)).body.data.refundLimits).toEqual({});
      // tightening back needs nobody
      expect((await setPolicy(tokens.demo, { refundLimits: 'CNY:100', permissionRaise: true, bankChange: true, approverCooldownDays: 60 })).body.code).toBe(0);
      const audit = await ctx.db.query<{ detail: { approvalId?: number } }>(`SELECT detail FROM audit_log WHERE action = 'approval.policy' ORDER BY id DESC LIMIT 2`);
      expect(audit.rows[1].detail.approvalId).toBe(ids[0]);
      await ctx.db.query(`UPDATE approval_request SET status = 'REJECTED' WHERE kind = 'policy_change' AND status = 'PENDING'`);
    });

    it('the inactivity limit: a group floor, and more days wait for approval', async () => {
      expect((await post('/api/access/policy', tokens.demo, { merId: DEMO.group, inactiveDays: 30 })).body.code).toBe(0);
      expect((await post('/api/access/policy', tokens['sub.adm'], { merId: DEMO.subA, inactiveDays: 90 })).status).toBe(400);
      await ctx.db.query(`INSERT INTO access_policy (mer_id, inactive_days, updated_at) VALUES ($1, 90, now()) ON CONFLICT (mer_id) DO UPDATE SET inactive_days = 90`, [DEMO.subA]);
      expect((await get(`/api/access/policy?merId=${DEMO.subA}`, tokens['sub.adm'])).body.data).toMatchObject({ inactiveDays: 30, source: 'group' });
      const more = await post('/api/access/policy', tokens.demo, { merId: DEMO.group, inactiveDays: 60 });
      expect(more.body.code).toBe(Code.APPROVAL_REQUIRED);
      expect((await get(`/api/access/policy?merId=${DEMO.group}`, tokens.demo)).body.data.inactiveDays).toBe(30);
      const id = Number(/#(\d+)/.exec(more.body.msg)![1]);
      expect((await post('/api/approval/approve', tokens['adm.c'], { id })).body.data).toMatchObject({ status: 'APPROVED', result: { code: 0, inactiveDays: 60 } });
      expect((await post('/api/access/policy', tokens.demo, { merId: DEMO.group, inactiveDays: 20 })).body.code).toBe(0);
    });

    it("raising or removing a held role's refund caps waits (whatever the policy); so does moving a refunder to a role with looser caps", async () => {
      await resetPolicy({ raise: false });
      const role = await post('/api/role/save', tokens.demo, { name: 'Capped desk', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`, refundCaps: 'CNY:100.00:500.00' });
      const roleId = role.body.data.id as number;
      const free = (await post('/api/role/save', tokens.demo, { name: 'Free desk', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}` })).body.data.id as number;
      // not held yet: changed at once
      expect(
        (await post('/api/role/save', tokens.demo, { roleId, name: 'Capped desk', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`, refundCaps: 'CNY:100.00:400.00' })).body.code,
      ).toBe(0);
      const low = await userRow('low.one');
      expect((await post('/api/user/update', tokens.demo, { userId: low.id, role: 'CUSTOM', roleId, merIds: DEMO.subA })).body.code).toBe(0);
      const caps = async () => (await ctx.db.query<{ refund_caps: unknown }>('SELECT refund_caps FROM team_role WHERE id = $1', [roleId])).rows[0].refund_caps;
      const was = await caps();
      for (const refundCaps of ['CNY:1000.00:400.00', 'CNY::400.00', 'CNY:100.00:', '']) {
        const r = await post('/api/role/save', tokens.demo, { roleId, name: 'Capped desk', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`, refundCaps });
        expect(r.body.code, refundCaps).toBe(Code.APPROVAL_REQUIRED);
      }
      expect(await caps()).toEqual(was);
      // a lower cap is at once
      expect(
        (await post('/api/role/save', tokens.demo, { roleId, name: 'Capped desk', permissions: `${Perm.txnList},${Perm.txnDetail},${Perm.txnRefund}`, refundCaps: 'CNY:90.00:400.00' })).body.code,
      ).toBe(0);
      // moving the holder to an uncapped role or preset: waits
      expect((await post('/api/user/update', tokens.demo, { userId: low.id, role: 'CUSTOM', roleId: free, merIds: DEMO.subA })).body.code).toBe(Code.APPROVAL_REQUIRED);
      expect((await post('/api/user/update', tokens.demo, { userId: low.id, role: 'REFUNDS', merIds: DEMO.subA })).body.code).toBe(Code.APPROVAL_REQUIRED);
      expect((await ctx.db.query<{ team_role_id: number }>('SELECT team_role_id FROM app_user WHERE id = $1', [low.id])).rows[0].team_role_id).toBe(roleId);
      // to a role without refunds: caps do not matter, at once
      expect((await post('/api/user/update', tokens.demo, { userId: low.id, role: 'READONLY', merIds: DEMO.subA })).body.code).toBe(0);
      await ctx.db.query(`UPDATE approval_request SET status = 'REJECTED' WHERE status = 'PENDING'`);
    });

    it.skipIf(!isConcurrent(kind))('parallel: two administrators approve one loosening at once — applied once, one audit entry', async () => {
      await resetPolicy({ limits: { CNY: 10000 } });
      const r = await setPolicy(tokens.demo, { refundLimits: '' });
      const id = Number(/#(\d+)/.exec(r.body.msg)![1]);
      const n0 = (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'approval.policy'`)).rows[0].n;
      const res = await Promise.all([tokens['adm.b'], tokens['adm.c'], tokens['adm.b']].map((t) => post('/api/approval/approve', t, { id })));
      expect(res.map((x) => x.body.code).sort((a, b) => a - b)).toEqual([0, Code.APPROVAL_DECIDED, Code.APPROVAL_DECIDED]);
      expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'approval.policy'`)).rows[0].n).toBe(n0 + 1);
    });
  });

  describe('MEDIUM: mandatory TOTP on /api/user/*', () => {
    it('a not-enrolled administrator reaches only enrolment: no listing, adding, editing users, nor switching the requirement off', async () => {
      await resetPolicy();
      await seedUser('no.totp', DEMO.group);
      await ctx.db.query('UPDATE merchant SET require_totp = true WHERE mer_id = $1', [DEMO.group]);
      const t = (await ctx.login('no.totp')).token;
      expect((await get('/api/user/info', t)).body.data.mustEnrolTotp).toBe(true);
      const users = await ctx.db.query('SELECT id FROM app_user');
      for (const [method, url, body] of [
        ['GET', '/api/user/list?page=0&size=10', null],
        ['GET', '/api/user/checkUserExist?userName=abc', null],
        ['GET', '/api/user/generateUserName', null],
        ['POST', '/api/user/add', { userName: 'via.totp', email: 'vt@x.example', merIds: DEMO.group, role: 'ADMIN' }],
        ['POST', '/api/user/update', { userId: (await userRow('low.one')).id, role: 'ADMIN', merIds: DEMO.group }],
        ['POST', '/api/user/updateUserStatus', { userId: (await userRow('low.one')).id, status: 'DISABLED' }],
        ['POST', '/api/user/requireTotp', { require: 'false' }],
        ['POST', '/api/user/resetPassword', { userId: (await userRow('low.one')).id }],
      ] as const) {
        const r = method === 'GET' ? await get(url, t) : await post(url, t, body!);
        expect(r.body.code, url).toBe(Code.TOTP_REQUIRED);
      }
      expect((await ctx.db.query('SELECT id FROM app_user')).rows).toEqual(users.rows);
      expect((await ctx.db.query<{ require_totp: boolean }>('SELECT require_totp FROM merchant WHERE mer_id = $1', [DEMO.group])).rows[0].require_totp).toBe(true);
      // enrolment itself is open; once enrolled, the team calls are too
      expect((await get('/api/user/security', t)).body.code).toBe(0);
      const setup = await post('/api/user/totp/setup', t, {});
      expect(setup.body.code).toBe(0);
      expect((await post('/api/user/totp/enable', t, { code: totpFor(setup.body.data.secret, 'x').generate({ timestamp: ctx.clock.now().getTime() }) })).body.code).toBe(0);
      expect((await get('/api/user/list?page=0&size=10', t)).body.code).toBe(0);
      await ctx.db.query('UPDATE merchant SET require_totp = false WHERE mer_id = $1', [DEMO.group]);
    });
  });

  describe('MEDIUM: the remaining weakenings wait for a second administrator', () => {
    const day = (n: number) => new Date(ctx.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
    const endsOn = async (username: string) => (await ctx.db.query<{ d: string | null }>('SELECT access_ends_on::text AS d FROM app_user WHERE username = $1', [username])).rows[0].d;
    const approvalIdOf = (msg: string) => Number(/#(\d+)/.exec(msg)![1]);

    it('re-enabling a disabled administrator or refunder is a permission raise: waits with the rule on, not approvable by its requester nor a user it created; read-only at once', async () => {
      await resetPolicy({ raise: false });
      expect((await post('/api/user/add', tokens.demo, { userName: 'fresh.x', email: 'fx@x.example', merIds: ALL, role: 'ADMIN' })).body.code).toBe(0);
      await activate('fresh.x');
      await seedUser('re.adm', DEMO.group);
      await seedUser('re.refund', DEMO.subA, false, [Perm.txnList, Perm.txnDetail, Perm.txnRefund]);
      await seedUser('re.reader', DEMO.subA, false, READ_ONLY_PERMISSIONS);
      for (const u of ['re.adm', 're.refund', 're.reader']) {
        expect((await post('/api/user/updateUserStatus', tokens.demo, { userId: (await userRow(u)).id, status: 'DISABLED' })).body.code, u).toBe(0);
      }
      await resetPolicy({ raise: true, limits: { CNY: 10000 } });
      const adm = await post('/api/user/updateUserStatus', tokens.demo, { userId: (await userRow('re.adm')).id, status: 'ACTIVE' }, 'ja');
      expect(adm.body.code, adm.body.msg).toBe(Code.APPROVAL_REQUIRED);
      expect(adm.body.msg).toContain('再有効化');
      const refunder = await post('/api/user/updateUserStatus', tokens.demo, { userId: (await userRow('re.refund')).id, status: 'ACTIVE' });
      expect(refunder.body.code).toBe(Code.APPROVAL_REQUIRED);
      expect((await userRow('re.adm')).status).toBe('DISABLED');
      expect((await userRow('re.refund')).status).toBe('DISABLED');
      // the read-only baseline: at once
      expect((await post('/api/user/updateUserStatus', tokens.demo, { userId: (await userRow('re.reader')).id, status: 'ACTIVE' })).body.data).toMatchObject({ status: 'ACTIVE' });
      const id = approvalIdOf(adm.body.msg);
      expect((await post('/api/approval/approve', tokens.demo, { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await post('/api/approval/approve', tokens['fresh.x'], { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await userRow('re.adm')).status).toBe('DISABLED');
      const ok = await post('/api/approval/approve', tokens['adm.b'], { id });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', result: { code: 0, userName: 're.adm', status: 'ACTIVE' } });
      expect((await userRow('re.adm')).status).toBe('ACTIVE');
      // recorded as a raise by its requester (approved by adm.b): the cool-down rule holds for re.adm
      const origin = await ctx.db.query<{ by: string; how: string }>(
        `SELECT u.username AS by, g.how FROM user_grant_origin g JOIN app_user u ON u.id = g.granted_by WHERE g.user_id = $1 ORDER BY g.id`,
        [(await userRow('re.adm')).id],
      );
      expect(origin.rows).toEqual([
        { by: 'demo', how: 'raised' },
        { by: 'adm.b', how: 'approved' },
      ]);
      await stepUp(tokens.demo);
      tokens['re.adm'] = (await ctx.login('re.adm')).token;
      await stepUp(tokens['re.adm']);
      const { id: refundId } = await askRefund(tokens.demo);
      expect((await post('/api/approval/approve', tokens['re.adm'], { id: refundId })).body.code).toBe(Code.APPROVAL_OWN);
      await ctx.db.query(`UPDATE approval_request SET status = 'REJECTED' WHERE status = 'PENDING'`);
    });

    it("extending or removing the access end date of a user beyond read-only is a raise; shortening it, or a read-only user's, is at once", async () => {
      await resetPolicy({ raise: false });
      expect((await post('/api/user/add', tokens.demo, { userName: 'end.ref', email: 'er@x.example', merIds: DEMO.subA, role: 'REFUNDS', accessEndsOn: day(10) })).body.code).toBe(0);
      expect((await post('/api/user/add', tokens.demo, { userName: 'end.reader', email: 'erd@x.example', merIds: DEMO.subA, role: 'READONLY', accessEndsOn: day(10) })).body.code).toBe(0);
      await resetPolicy({ raise: true });
      const ref = (await userRow('end.ref')).id;
      const was = await endsOn('end.ref');
      const later = await post('/api/user/update', tokens.demo, { userId: ref, role: 'REFUNDS', merIds: DEMO.subA, accessEndsOn: day(40) }, 'zh');
      expect(later.body.code, later.body.msg).toBe(Code.APPROVAL_REQUIRED);
      const removed = await post('/api/user/update', tokens.demo, { userId: ref, role: 'REFUNDS', merIds: DEMO.subA });
      expect(removed.body.code, removed.body.msg).toBe(Code.APPROVAL_REQUIRED);
      expect(await endsOn('end.ref')).toBe(was);
      const id = approvalIdOf(later.body.msg);
      const listed = ((await get('/api/approval/list?page=0&size=50', tokens['adm.b'])).body.data.content as { id: number; summary: Record<string, unknown> }[]).find((r) => r.id === id);
      expect(listed?.summary).toMatchObject({ userName: 'end.ref', accessEndsOn: { before: was, after: day(40) } });
      // shorter: at once; a read-only user's longer access: at once
      expect((await post('/api/user/update', tokens.demo, { userId: ref, role: 'REFUNDS', merIds: DEMO.subA, accessEndsOn: day(5) })).body.code).toBe(0);
      expect(await endsOn('end.ref')).toBe(day(5));
      expect((await post('/api/user/update', tokens.demo, { userId: (await userRow('end.reader')).id, role: 'READONLY', merIds: DEMO.subA })).body.code).toBe(0);
      expect(await endsOn('end.reader')).toBeNull();
      expect((await post('/api/approval/approve', tokens.demo, { id })).body.code).toBe(Code.APPROVAL_OWN);
      const ok = await post('/api/approval/approve', tokens['adm.c'], { id });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', result: { code: 0, userName: 'end.ref' } });
      expect(await endsOn('end.ref')).toBe(day(40));
      await ctx.db.query(`UPDATE approval_request SET status = 'REJECTED' WHERE status = 'PENDING'`);
    });

    it('switching the mandatory second factor off waits for a second administrator (not its requester, nor one it created); on is at once', async () => {
      await resetPolicy({ raise: false });
      await seedUser('tf.a', DEMO.group);
      await seedUser('tf.b', DEMO.group);
      expect((await post('/api/user/add', tokens['tf.a'], { userName: 'tf.fresh', email: 'tff@x.example', merIds: ALL, role: 'ADMIN' })).body.code).toBe(0);
      await activate('tf.fresh');
      for (const u of ['tf.a', 'tf.b', 'tf.fresh']) {
        const setup = await post('/api/user/totp/setup', tokens[u], {});
        expect((await post('/api/user/totp/enable', tokens[u], { code: totpFor(setup.body.data.secret, 'x').generate({ timestamp: ctx.clock.now().getTime() }) })).body.code, u).toBe(0);
      }
      const required = async () => (await ctx.db.query<{ r: boolean }>('SELECT require_totp AS r FROM merchant WHERE mer_id = $1', [DEMO.group])).rows[0].r;
      expect((await post('/api/user/requireTotp', tokens['tf.a'], { require: 'true' })).body).toMatchObject({ code: 0, data: { require: true } });
      expect(await required()).toBe(true);
      const off = await post('/api/user/requireTotp', tokens['tf.a'], { require: 'false' }, 'ko');
      expect(off.body.code, off.body.msg).toBe(Code.APPROVAL_REQUIRED);
      expect(off.body.msg).toContain('2단계');
      expect(await required()).toBe(true);
      const id = approvalIdOf(off.body.msg);
      expect((await post('/api/approval/approve', tokens['tf.a'], { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect((await post('/api/approval/approve', tokens['tf.fresh'], { id })).body.code).toBe(Code.APPROVAL_OWN);
      expect(await required()).toBe(true);
      const ok = await post('/api/approval/approve', tokens['tf.b'], { id });
      expect(ok.body.data, ok.body.msg).toMatchObject({ status: 'APPROVED', result: { code: 0, require: false } });
      expect(await required()).toBe(false);
      const audited = await ctx.db.query<{ username: string; detail: { require: boolean; approvalId?: number } }>(
        `SELECT username, detail FROM audit_log WHERE action = 'merchant.require_totp' ORDER BY id DESC LIMIT 1`,
      );
      expect(audited.rows[0]).toMatchObject({ username: 'tf.b', detail: { require: false, approvalId: id } });
      await ctx.db.query('UPDATE merchant SET require_totp = false');
    });
  });
});
