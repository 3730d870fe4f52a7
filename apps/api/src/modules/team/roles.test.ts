import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';

/**
 * Named custom roles (issue 28, decision 041) on both databases: a role defined once and assigned
 * to many users; changing it changes all of them at once (a permission taken away refused on the
 * holder's very next call); grant rules as for adding users; bad input, a sub-user, another
 * merchant's roles, a role held by users beyond the editor's scope; names unique per merchant;
 * removal only when no user holds it; a role change and an assignment at once (PostgreSQL).
 */
describe.each(DB_KINDS)('team: named roles (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  let sub: string;
  let other: string;
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const perms = async (id: number) => (await ctx.db.query<{ permissions: string[]; team_role_id: number | null }>('SELECT permissions, team_role_id FROM app_user WHERE id = $1', [id])).rows[0];
  const roles = async () => (await ctx.db.query('SELECT id, mer_id, name, description, permissions, removed_at FROM team_role ORDER BY id')).rows;
  const activate = async (id: number) => ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [id, await hashPassword(DEMO.password)]);
  let clerkRole: number;
  const holders: number[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    main = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('defines a role, assigns it to two users, and a change of the role changes both at once', async () => {
    const made = await post('/api/role/save', main, { name: 'Refund clerk', description: 'Looks up and refunds', permissions: `${Perm.txnRefund},${Perm.txnList},${Perm.txnDetail}` });
    expect(made.body.code, made.body.msg).toBe(0);
    expect(made.body.data).toMatchObject({ merId: DEMO.group, name: 'Refund clerk', users: 0, permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund] });
    clerkRole = made.body.data.id;
    // one added with the role, one edited to it
    const a = await post('/api/user/add', main, { userName: 'clerk.one', email: 'clerk.one@x.example', merIds: DEMO.subA, role: 'CUSTOM', roleId: clerkRole });
    expect(a.body.code, a.body.msg).toBe(0);
    expect(a.body.data).toMatchObject({ role: 'CUSTOM', roleId: clerkRole, roleName: 'Refund clerk', userType: 'SUB' });
    const b = await post('/api/user/add', main, { userName: 'clerk.two', email: 'clerk.two@x.example', merIds: DEMO.subB, role: 'READONLY' });
    const e = await post('/api/user/update', main, { userId: b.body.data.id, role: 'CUSTOM', roleId: clerkRole, merIds: DEMO.subB });
    expect(e.body.code, e.body.msg).toBe(0);
    expect(e.body.data).toMatchObject({ roleId: clerkRole, roleName: 'Refund clerk', permissions: [Perm.txnList, Perm.txnDetail, Perm.txnRefund] });
    holders.push(a.body.data.id, b.body.data.id);
    const listed = (await get('/api/role/list', main)).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: clerkRole, users: 2 })]);

    await activate(holders[0]);
    const t = (await ctx.login('clerk.one')).token;
    expect((await get('/api/txn/list?page=0&size=5', t)).body.code).toBe(0);

    const changed = await post('/api/role/save', main, { roleId: clerkRole, name: 'Refund clerk', description: 'Refunds only by number', permissions: `${Perm.txnDetail},${Perm.txnRefund}` });
    expect(changed.body.code, changed.body.msg).toBe(0);
    for (const id of holders) expect((await perms(id)).permissions).toEqual([Perm.txnDetail, Perm.txnRefund]);
    // the holder's open session reads the new grants on its very next call
    expect((await get('/api/txn/list?page=0&size=5', t)).status).toBe(403);
    expect((await get('/api/user/info', t)).body.data.permissions).toEqual([Perm.txnDetail, Perm.txnRefund]);

    const { rows } = await ctx.db.query<{ action: string; target: string; detail: { before?: { permissions: string[] }; after?: { permissions: string[] }; users?: string[] } }>(
      `SELECT action, target, detail FROM audit_log WHERE action LIKE 'role.%' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['role.add', 'role.update']);
    expect(rows[1].detail.before!.permissions).toEqual([Perm.txnList, Perm.txnDetail, Perm.txnRefund]);
    expect(rows[1].detail.after!.permissions).toEqual([Perm.txnDetail, Perm.txnRefund]);
    expect(rows[1].detail.users).toEqual(['clerk.one', 'clerk.two']);
    // the audit viewer's "user" event type shows role changes
    const viewer = (await get('/api/audit/list?page=0&size=10&eventType=user', main)).body.data.content.map((r: { action: string }) => r.action);
    expect(viewer).toContain('role.update');
    // saving the same again changes nothing and writes no entry
    await post('/api/role/save', main, { roleId: clerkRole, name: 'Refund clerk', description: 'Refunds only by number', permissions: `${Perm.txnRefund},${Perm.txnDetail}` });
    expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'role.update'`)).rows[0].n).toBe(1);
  });

  it("refuses bad input, writing nothing, with a message in the caller's language", async () => {
    const before = await roles();
    for (const body of <Record<string, string | number>[]>[
      { name: '', permissions: Perm.txnList },
      { name: 'a\u0000b', permissions: Perm.txnList },
      { name: 'x'.repeat(41), permissions: Perm.txnList },
      { name: 'Empty', permissions: '' },
      { name: 'Unknown', permissions: 'no:such:code' },
      { name: 'Bad id', roleId: 'x', permissions: Perm.txnList },
      { name: 'Long text', description: 'y'.repeat(201), permissions: Perm.txnList },
    ]) {
      const r = await post('/api/role/save', main, body, 'zh');
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await roles()).toEqual(before);
    // a user: both a named role and its own permissions, or a named role on a preset
    const u = holders[0];
    const p = await perms(u);
    expect((await post('/api/user/update', main, { userId: u, role: 'CUSTOM', roleId: clerkRole, permissions: Perm.txnList, merIds: DEMO.subA })).status).toBe(400);
    expect((await post('/api/user/update', main, { userId: u, role: 'READONLY', roleId: clerkRole, merIds: DEMO.subA })).status).toBe(400);
    expect((await post('/api/user/update', main, { userId: u, role: 'CUSTOM', roleId: 999999, merIds: DEMO.subA })).status).toBe(404);
    expect(await perms(u)).toEqual(p);
    // a name already used (any case) is refused in the caller's language
    const dup = await post('/api/role/save', main, { name: 'REFUND CLERK', permissions: Perm.txnList }, 'ja');
    expect(dup.body.code).toBe(Code.ROLE_NAME_TAKEN);
    expect(dup.body.msg).toBe('同じ名前のロールが既に存在します');
    expect(await roles()).toEqual(before);
  });

  it("refuses a sub-user, permissions beyond one's own or reserved to administrators, and another merchant's roles", async () => {
    const before = await roles();
    expect((await get('/api/role/list', sub)).status).toBe(403);
    expect((await post('/api/role/save', sub, { name: 'Mine', permissions: Perm.txnList })).status).toBe(403);
    expect((await post('/api/role/remove', sub, { roleId: clerkRole })).status).toBe(403);
    const admin = await post('/api/role/save', main, { name: 'Managers', permissions: `${Perm.txnList},${Perm.merchantUserManage}` });
    expect(admin.body.code).toBe(Code.GRANT_NOT_HELD);
    // a main user holding less than the role: cannot save such a role, nor give one to a user
    const added = await post('/api/user/add', main, { userName: 'narrow.admin', email: 'narrow.admin@x.example', merIds: `${DEMO.group},${DEMO.subA},${DEMO.subB}`, role: 'ADMIN' });
    await activate(added.body.data.id);
    await ctx.db.query('UPDATE app_user SET permissions = $2 WHERE id = $1', [added.body.data.id, [Perm.merchantUser, Perm.merchantUserManage, Perm.txnList, Perm.txnDetail]]);
    const narrow = (await ctx.login('narrow.admin')).token;
    expect((await post('/api/role/save', narrow, { name: 'Refunder', permissions: `${Perm.txnList},${Perm.txnRefund}` })).body.code).toBe(Code.GRANT_NOT_HELD);
    // narrowing the role to what it holds is within its grants
    expect((await post('/api/role/save', narrow, { roleId: clerkRole, name: 'Refund clerk', permissions: Perm.txnDetail })).body.code).toBe(0);
    expect((await perms(holders[0])).permissions).toEqual([Perm.txnDetail]);
    // restore, then the narrow administrator cannot hand a role holding a refund it lacks
    await post('/api/role/save', main, { roleId: clerkRole, name: 'Refund clerk', permissions: `${Perm.txnDetail},${Perm.txnRefund}` });
    const give = await post('/api/user/add', narrow, { userName: 'clerk.three', email: 'clerk.three@x.example', merIds: DEMO.subA, role: 'CUSTOM', roleId: clerkRole });
    expect(give.body.code).toBe(Code.GRANT_NOT_HELD);
    expect((await ctx.db.query(`SELECT 1 FROM app_user WHERE username = 'clerk.three'`)).rows).toHaveLength(0);
    // another merchant sees none of ours and can change none; ours cannot use theirs
    expect((await get('/api/role/list', other)).body.data).toEqual([]);
    expect((await post('/api/role/save', other, { roleId: clerkRole, name: 'Taken over', permissions: Perm.txnList })).status).toBe(404);
    expect((await post('/api/role/remove', other, { roleId: clerkRole })).status).toBe(404);
    const theirs = await post('/api/role/save', other, { name: 'Refund clerk', permissions: Perm.txnList });
    expect(theirs.body.code, 'the same name in another merchant is free').toBe(0);
    expect((await post('/api/user/update', main, { userId: holders[0], role: 'CUSTOM', roleId: theirs.body.data.id, merIds: DEMO.subA })).status).toBe(404);
    expect((await get('/api/role/list', main)).body.data.map((r: { name: string }) => r.name)).not.toContain('Taken over');
    expect((await roles()).filter((r) => r.mer_id !== DEMO.other).map((r) => r.name)).toEqual(before.map((r) => r.name));
    expect((await perms(holders[0])).permissions).toEqual([Perm.txnDetail, Perm.txnRefund]);
  });

  it("a sub-merchant's administrator cannot change a role held by a user reaching a sibling sub-merchant", async () => {
    const made = await post('/api/user/add', main, { userName: 'suba.roles', email: 'suba.roles@x.example', merIds: DEMO.subA, role: 'ADMIN' });
    await activate(made.body.data.id);
    const subAdmin = (await ctx.login('suba.roles')).token;
    const own = await post('/api/role/save', subAdmin, { name: 'Shop lookup', permissions: Perm.txnList });
    expect(own.body.code, own.body.msg).toBe(0);
    // the group's administrator gives it to a user of both sub-merchants
    const wide = await post('/api/user/add', main, { userName: 'wide.user', email: 'wide.user@x.example', merIds: `${DEMO.subA},${DEMO.subB}`, role: 'CUSTOM', roleId: own.body.data.id });
    expect(wide.body.code, wide.body.msg).toBe(0);
    const r = await post('/api/role/save', subAdmin, { roleId: own.body.data.id, name: 'Shop lookup', permissions: `${Perm.txnList},${Perm.txnDetail}` }, 'ko');
    expect(r.status).toBe(403);
    expect(r.body.msg).toContain('역할');
    expect((await perms(wide.body.data.id)).permissions).toEqual([Perm.txnList]);
    // the group's own role is not the sub-merchant administrator's to see
    expect((await get('/api/role/list', subAdmin)).body.data.map((x: { id: number }) => x.id)).toEqual([own.body.data.id]);
    expect((await post('/api/role/save', subAdmin, { roleId: clerkRole, name: 'Refund clerk', permissions: Perm.txnList })).status).toBe(404);
  });

  it('a role held by users cannot be removed; once free it can, and its name is free again', async () => {
    const held = await post('/api/role/remove', main, { roleId: clerkRole }, 'zh');
    expect(held.body.code).toBe(Code.ROLE_IN_USE);
    expect(held.body.msg).toContain('2');
    for (const id of holders) await post('/api/user/update', main, { userId: id, role: 'READONLY', merIds: id === holders[0] ? DEMO.subA : DEMO.subB });
    expect(await perms(holders[0])).toMatchObject({ team_role_id: null });
    const gone = await post('/api/role/remove', main, { roleId: clerkRole });
    expect(gone.body.code, gone.body.msg).toBe(0);
    expect((await get('/api/role/list', main)).body.data.map((r: { id: number }) => r.id)).not.toContain(clerkRole);
    expect((await post('/api/user/update', main, { userId: holders[0], role: 'CUSTOM', roleId: clerkRole, merIds: DEMO.subA })).status).toBe(404);
    expect((await post('/api/role/save', main, { roleId: clerkRole, name: 'Back', permissions: Perm.txnList })).status).toBe(404);
    const again = await post('/api/role/save', main, { name: 'Refund clerk', permissions: Perm.txnList });
    expect(again.body.code, again.body.msg).toBe(0);
    const audit = await ctx.db.query<{ detail: { roleId: number } }>(`SELECT detail FROM audit_log WHERE action = 'role.remove'`);
    expect(audit.rows.map((r) => r.detail.roleId)).toEqual([clerkRole]);
  });

  it.skipIf(!isConcurrent(kind))("a role change and assignments at once: every holder ends with the role's final permissions; one name saved twice at once is one role", async () => {
    const made = await post('/api/role/save', main, { name: 'Race', permissions: `${Perm.txnList},${Perm.txnDetail}` });
    const roleId = made.body.data.id;
    const ids: number[] = [];
    for (const n of ['race.a', 'race.b', 'race.c']) ids.push((await post('/api/user/add', main, { userName: n, email: `${n}@x.example`, merIds: DEMO.subA, role: 'READONLY' })).body.data.id);
    const results = await Promise.all([
      post('/api/role/save', main, { roleId, name: 'Race', permissions: Perm.txnRefund }),
      ...ids.map((id) => post('/api/user/update', main, { userId: id, role: 'CUSTOM', roleId, merIds: DEMO.subA })),
    ]);
    expect(
      results.map((r) => r.body.code),
      JSON.stringify(results.map((r) => r.body.msg)),
    ).toEqual([0, 0, 0, 0]);
    for (const id of ids) expect(await perms(id)).toEqual({ permissions: [Perm.txnRefund], team_role_id: roleId });
    const twice = await Promise.all([1, 2].map(() => post('/api/role/save', main, { name: 'Twin', permissions: Perm.txnList })));
    expect(twice.map((r) => r.body.code).sort((a, b) => a - b)).toEqual([0, Code.ROLE_NAME_TAKEN]);
    expect((await roles()).filter((r) => r.name === 'Twin')).toHaveLength(1);
  });
});
