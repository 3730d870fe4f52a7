import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm, ROLE_PRESETS } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';
import { readOutbox } from '../../plugins/mail';

/**
 * User management (issue 12) on both databases: every call's happy path, bad input, a sub-user
 * calling it, a main user acting on another merchant's user, granting what one does not hold,
 * acting on oneself, the last administrator.
 */
describe.each(DB_KINDS)('team: users and roles (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  let sub: string;
  let other: string;
  const ids: Record<string, number> = {};
  const get = (url: string, token: string, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': token, 'accept-language': lang } });
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const idOf = async (username: string) => (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [username])).rows[0].id;
  /** What activation does (the accounts module's link): a password, status ACTIVE. */
  const activate = async (username: string) => ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE username = $1`, [username, await hashPassword(DEMO.password)]);
  const auditCount = async (action: string) => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action])).rows[0].n;
  const userCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user')).rows[0].n;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    main = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    ids.demo = await idOf(DEMO.users.demo);
    ids.sub = await idOf(DEMO.users.sub);
    ids.other = await idOf(DEMO.users.other);
    await ctx.db.query(`UPDATE app_user SET phone = '+85255550123' WHERE id = $1`, [ids.sub]);
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('list: the group main user sees the group and sub-merchant users, phone masked; filters and paging', async () => {
    const r = await get('/api/user/list?page=0&size=10', main);
    expect(r.body.code).toBe(0);
    const names = r.body.data.content.map((u: { userName: string }) => u.userName);
    expect(names).toEqual(expect.arrayContaining([DEMO.users.demo, DEMO.users.sub]));
    expect(names).not.toContain(DEMO.users.other);
    const s = r.body.data.content.find((u: { userName: string }) => u.userName === DEMO.users.sub);
    expect(s).toMatchObject({ userType: 'SUB', merId: DEMO.subA, phone: '*******0123', status: 'ACTIVE', twoFactor: false, self: false });
    expect(s.lastLoginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const byMer = await get(`/api/user/list?merId=${DEMO.subA}`, main);
    expect(byMer.body.data.content.map((u: { userName: string }) => u.userName)).toEqual([DEMO.users.sub]);
    const text = await get('/api/user/list?text=SUB', main);
    expect(text.body.data.totalElements).toBe(1);
    const paged = await get('/api/user/list?page=1&size=5', main);
    expect(paged.body.data.content).toEqual([]);
    expect(paged.body.data.totalElements).toBe(2);
  });

  it('list: another merchant is empty; a sub-user is refused; bad input is 400', async () => {
    expect((await get(`/api/user/list?merId=${DEMO.other}`, main)).body.data).toEqual({ content: [], totalElements: 0 });
    expect((await get('/api/user/list', sub)).status).toBe(403);
    expect((await get('/api/user/list?size=7', main)).status).toBe(400);
    expect((await get('/api/user/list?status=GONE', main)).status).toBe(400);
    expect((await get('/api/user/list?text=%01x', main)).status).toBe(400);
  });

  it('generateUserName proposes a free name; checkUserExist answers per field', async () => {
    const g = await get('/api/user/generateUserName?base=Demo', main);
    expect(g.body.code).toBe(0);
    expect(g.body.data).toMatch(/^demo\d{4}$/); // 'demo' itself is taken
    expect((await get('/api/user/generateUserName?base=Finance%20Team', main)).body.data).toBe('financeteam');
    expect((await get('/api/user/generateUserName', sub)).status).toBe(403);
    expect((await get('/api/user/generateUserName?base=%07', main)).status).toBe(400);
    // spec §7 lists it as a POST too: the same rules with the form
    expect((await post('/api/user/generateUserName', main, { base: 'Finance Team' })).body.data).toBe('financeteam');
    expect((await post('/api/user/generateUserName', main, {})).body.data).toMatch(/^[a-z0-9]+$/);
    expect((await post('/api/user/generateUserName', sub, { base: 'x' })).status).toBe(403);
    expect((await post('/api/user/generateUserName', main, { base: '\u0007' })).status).toBe(400);
    const c = await get('/api/user/checkUserExist?userName=DEMO&email=nobody@x.example', main);
    expect(c.body.data).toEqual({ userName: true, email: false, phone: false, exists: true });
    const e = await get('/api/user/checkUserExist?email=Demo@Demo-Group.example&phone=%2B85255550123', main);
    expect(e.body.data).toMatchObject({ email: true, phone: true });
    expect((await get('/api/user/checkUserExist?userName=free-name', main)).body.data.exists).toBe(false);
    expect((await get('/api/user/checkUserExist?userName=x', sub)).status).toBe(403);
  });

  it('add: a Finance user is INACTIVE, holds Finance cut to what the caller holds, and gets the activation e-mail', async () => {
    const r = await post('/api/user/add', main, { userName: 'fin.one', email: 'fin.one@demo-group.example', phone: '+85255550999', merIds: `${DEMO.subA},${DEMO.subB}`, role: 'FINANCE' });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ userName: 'fin.one', userType: 'SUB', role: 'FINANCE', status: 'INACTIVE', merId: DEMO.subA, merIds: [DEMO.subA, DEMO.subB], phone: '*******0999' });
    ids.fin = r.body.data.id;
    const { rows } = await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [ids.fin]);
    expect([...rows[0].permissions].sort()).toEqual([...ROLE_PRESETS.FINANCE].sort());
    expect(rows[0].permissions).not.toContain(Perm.txnRefund);
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('fin.one@demo-group.example'));
    expect(mail?.text).toMatch(/\/user\/active\?/);
    expect(await auditCount('user.add')).toBe(1);
  });

  it('add: the new user sees only the merchants chosen for it', async () => {
    await activate('fin.one');
    const t = (await ctx.login('fin.one')).token;
    const info = await get('/api/merchant/info', t);
    expect(info.body.data.subMerIdList).toEqual([DEMO.subA, DEMO.subB]);
    const info2 = await get('/api/user/info', t);
    expect(info2.body.data.permissions).not.toContain(Perm.merchantUser);
    expect((await get('/api/user/list', t)).status).toBe(403);
    // The group and one sub-merchant, not the other.
    const two = await post('/api/user/add', main, { userName: 'ro.two', email: 'ro.two@x.example', merIds: `${DEMO.subB},${DEMO.group}`, role: 'READONLY' });
    expect(two.body.data).toMatchObject({ merId: DEMO.group, merIds: [DEMO.group, DEMO.subB], userType: 'SUB' });
    await activate('ro.two');
    const t2 = (await ctx.login('ro.two')).token;
    expect((await get('/api/merchant/info', t2)).body.data.subMerIdList).toEqual([DEMO.group, DEMO.subB]);
    const txn = await get(`/api/txn/list?merId=${DEMO.subA}&page=0&size=10`, t2);
    expect(txn.body.data?.totalElements ?? 0).toBe(0);
  });

  it("add: a taken name, e-mail or phone is refused in the caller's language, nothing written", async () => {
    const before = await userCount();
    const byName = await post('/api/user/add', main, { userName: 'FIN.ONE', email: 'new@x.example', merIds: DEMO.subA, role: 'READONLY' }, 'zh');
    expect(byName.body).toMatchObject({ code: Code.USER_EXISTS, msg: '用户名、邮箱或手机号已存在' });
    const byMail = await post('/api/user/add', main, { userName: 'fresh1', email: 'DEMO@demo-group.example', merIds: DEMO.subA, role: 'READONLY' });
    expect(byMail.body.msg).toBe('User name, email or mobile number already exists');
    const byPhone = await post('/api/user/add', main, { userName: 'fresh2', email: 'fresh2@x.example', phone: '+85255550999', merIds: DEMO.subA, role: 'READONLY' });
    expect(byPhone.body.code).toBe(Code.USER_EXISTS);
    expect(await userCount()).toBe(before);
  });

  it('add: bad input is 400 and writes nothing', async () => {
    const before = await userCount();
    for (const body of <Record<string, string>[]>[
      { userName: 'ok-name', email: 'not-an-email', merIds: DEMO.subA, role: 'READONLY' },
      { userName: 'x', email: 'a@b.example', merIds: DEMO.subA, role: 'READONLY' },
      { userName: 'ok-name', email: 'a@b.example', merIds: '', role: 'READONLY' },
      { userName: 'ok-name', email: 'a@b.example', merIds: DEMO.subA, role: 'OWNER' },
      { userName: 'ok-name', email: 'a@b.example', merIds: DEMO.subA, role: 'CUSTOM' },
      { userName: 'ok-name', email: 'a@b.example', merIds: DEMO.subA, role: 'CUSTOM', permissions: 'no:such:code' },
      { userName: 'ok-name', email: 'a@b.example', phone: 'call me', merIds: DEMO.subA, role: 'READONLY' },
    ]) {
      const r = await post('/api/user/add', main, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await userCount()).toBe(before);
  });

  it('add: a sub-user is refused; merchants outside the scope are refused; permissions not held are refused', async () => {
    const before = await userCount();
    expect((await post('/api/user/add', sub, { userName: 'by-sub', email: 'by-sub@x.example', merIds: DEMO.subA, role: 'READONLY' })).status).toBe(403);
    const outside = await post('/api/user/add', main, { userName: 'outside', email: 'outside@x.example', merIds: DEMO.other, role: 'READONLY' });
    expect(outside.status).toBe(403);
    const fromOther = await post('/api/user/add', other, { userName: 'outside2', email: 'outside2@x.example', merIds: DEMO.subA, role: 'READONLY' });
    expect(fromOther.status).toBe(403);
    // The caller no longer holds the refund permission: a custom role asking for it is refused.
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE id = $1`, [ids.demo, Perm.txnRefund]);
    const notHeld = await post('/api/user/add', main, { userName: 'refunder', email: 'refunder@x.example', merIds: DEMO.subA, role: 'CUSTOM', permissions: `${Perm.txnList},${Perm.txnRefund}` });
    expect(notHeld.body.code).toBe(Code.GRANT_NOT_HELD);
    expect(notHeld.body.msg).toBe('You can only grant permissions you hold yourself');
    // A preset is cut down to what the caller holds: Refunds without the refund.
    const preset = await post('/api/user/add', main, { userName: 'refunds2', email: 'refunds2@x.example', merIds: DEMO.subA, role: 'REFUNDS' });
    expect(preset.body.code).toBe(0);
    ids.refunds2 = preset.body.data.id;
    const { rows } = await ctx.db.query<{ permissions: string[] }>('SELECT permissions FROM app_user WHERE id = $1', [ids.refunds2]);
    expect(rows[0].permissions).not.toContain(Perm.txnRefund);
    await ctx.db.query(`UPDATE app_user SET permissions = array_append(permissions, $2) WHERE id = $1`, [ids.demo, Perm.txnRefund]);
    // User management is an administrator's: never part of a custom role.
    const adminOnly = await post('/api/user/add', main, { userName: 'manager', email: 'manager@x.example', merIds: DEMO.subA, role: 'CUSTOM', permissions: Perm.merchantUserManage });
    expect(adminOnly.body.code).toBe(Code.GRANT_NOT_HELD);
    expect(await userCount()).toBe(before + 1);
  });

  it("updateUserStatus: disabling ends the user's session at once; enabling brings back its status", async () => {
    const t = (await ctx.login('fin.one')).token;
    expect((await get('/api/user/info', t)).body.code).toBe(0);
    const r = await post('/api/user/updateUserStatus', main, { userId: ids.fin, status: 'DISABLED' });
    expect(r.body.data.status).toBe('DISABLED');
    expect((await get('/api/user/info', t)).body.code).toBe(Code.SESSION_ENDED);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_session WHERE user_id = $1 AND revoked_at IS NULL', [ids.fin]);
    expect(rows[0].n).toBe(0);
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.fin, status: 'ACTIVE' })).body.data.status).toBe('ACTIVE');
    // Never activated: goes back to INACTIVE, not ACTIVE.
    await post('/api/user/updateUserStatus', main, { userId: ids.refunds2, status: 'DISABLED' });
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.refunds2, status: 'ACTIVE' })).body.data.status).toBe('INACTIVE');
    expect(await auditCount('user.disable')).toBe(2);
    expect(await auditCount('user.enable')).toBe(2);
  });

  it("updateUserStatus: not oneself, not another merchant's user, not by a sub-user, not bad input", async () => {
    const self = await post('/api/user/updateUserStatus', main, { userId: ids.demo, status: 'DISABLED' });
    expect(self.body.code).toBe(Code.NOT_ON_SELF);
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.other, status: 'DISABLED' })).status).toBe(404);
    expect((await post('/api/user/updateUserStatus', sub, { userId: ids.fin, status: 'DISABLED' })).status).toBe(403);
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.fin, status: 'GONE' })).status).toBe(400);
    expect((await post('/api/user/updateUserStatus', main, { userId: 'abc', status: 'DISABLED' } as never)).status).toBe(400);
    const { rows } = await ctx.db.query<{ status: string }>('SELECT status FROM app_user WHERE id = ANY($1::int[]) ORDER BY id', [[ids.demo, ids.other]]);
    expect(rows.map((x) => x.status)).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it('the last administrator of a merchant cannot be disabled or removed', async () => {
    const a = await post('/api/user/add', main, { userName: 'sh-admin', email: 'sh-admin@x.example', merIds: DEMO.subA, role: 'ADMIN' });
    expect(a.body.data).toMatchObject({ userType: 'MAIN', role: 'ADMIN', merId: DEMO.subA });
    ids.shAdmin = a.body.data.id;
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.shAdmin, status: 'DISABLED' })).body.code).toBe(Code.LAST_ADMIN);
    expect((await post('/api/user/remove', main, { userId: ids.shAdmin }, 'ja')).body).toMatchObject({ code: Code.LAST_ADMIN, msg: expect.stringContaining('最後の管理者') });
    const b = await post('/api/user/add', main, { userName: 'sh-admin2', email: 'sh-admin2@x.example', merIds: DEMO.subA, role: 'ADMIN' });
    ids.shAdmin2 = b.body.data.id;
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.shAdmin, status: 'DISABLED' })).body.code).toBe(0);
    expect((await post('/api/user/updateUserStatus', main, { userId: ids.shAdmin2, status: 'DISABLED' })).body.code).toBe(Code.LAST_ADMIN);
  });

  it('resetPassword: mails a reset link (never a password), an activation link to a user not activated yet', async () => {
    const r = await post('/api/user/resetPassword', main, { userId: ids.sub });
    expect(r.body.data).toEqual({ sent: 'reset' });
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('demo-sub@demo-group.example'));
    expect(mail?.text).toMatch(/\/user\/reset\?/);
    expect(mail?.text).not.toContain(DEMO.password);
    expect((await post('/api/user/resetPassword', main, { userId: ids.refunds2 })).body.data).toEqual({ sent: 'activation' });
    expect(await auditCount('user.reset_password')).toBe(1);
    expect((await post('/api/user/resetPassword', main, { userId: ids.shAdmin })).body.code).toBe(Code.BAD_REQUEST); // disabled
    expect((await post('/api/user/resetPassword', main, { userId: ids.other })).status).toBe(404);
    expect((await post('/api/user/resetPassword', sub, { userId: ids.fin })).status).toBe(403);
    expect((await post('/api/user/resetPassword', main, { userId: -1 })).status).toBe(400);
  });

  it('remove: soft delete; gone from the list, the name stays taken, the audit trail stays', async () => {
    const t = (await ctx.login('fin.one')).token;
    expect((await post('/api/user/remove', main, { userId: ids.fin })).body.code).toBe(0);
    expect((await get('/api/user/info', t)).body.code).toBe(Code.SESSION_ENDED);
    const list = await get('/api/user/list?size=100', main);
    expect(list.body.data.content.map((u: { userName: string }) => u.userName)).not.toContain('fin.one');
    expect((await get('/api/user/checkUserExist?userName=fin.one', main)).body.data.userName).toBe(true);
    const re = await post('/api/user/add', main, { userName: 'fin.one', email: 'fin.again@x.example', merIds: DEMO.subA, role: 'FINANCE' });
    expect(re.body.code).toBe(Code.USER_EXISTS);
    expect((await post('/api/user/remove', main, { userId: ids.fin })).status).toBe(404);
    expect(await auditCount('user.add')).toBeGreaterThan(0);
    const { rows } = await ctx.db.query<{ removed_at: Date | null }>('SELECT removed_at FROM app_user WHERE id = $1', [ids.fin]);
    expect(rows[0].removed_at).not.toBeNull();
  });

  it("remove: not oneself, not another merchant's user, not by a sub-user, not bad input", async () => {
    expect((await post('/api/user/remove', main, { userId: ids.demo })).body.code).toBe(Code.NOT_ON_SELF);
    expect((await post('/api/user/remove', main, { userId: ids.other })).status).toBe(404);
    expect((await post('/api/user/remove', other, { userId: ids.sub })).status).toBe(404);
    expect((await post('/api/user/remove', sub, { userId: ids.refunds2 })).status).toBe(403);
    expect((await post('/api/user/remove', main, { userId: 'x' } as never)).status).toBe(400);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user WHERE removed_at IS NOT NULL');
    expect(rows[0].n).toBe(1);
  });
});
