import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';

/**
 * Editing a user (issue 28, "Edit a user"): role, custom permissions and merchants of an existing
 * user under the rules of adding — on both databases: the happy path with before/after in the
 * audit, a permission taken away refused on the user's very next call, bad input, a sub-user
 * calling it, another merchant's user, grants beyond one's own, oneself, the last administrator.
 */
describe.each(DB_KINDS)('team: edit a user (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  let sub: string;
  let other: string;
  let editedId: number;
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const row = async (id: number) =>
    (await ctx.db.query<{ role: string; permissions: string[]; user_admin: boolean; mer_id: string }>('SELECT role, permissions, user_admin, mer_id FROM app_user WHERE id = $1', [id])).rows[0];
  const scopeOf = async (id: number) => (await ctx.db.query<{ mer_id: string }>('SELECT mer_id FROM user_merchant_scope WHERE user_id = $1 ORDER BY 1', [id])).rows.map((r) => r.mer_id);
  const idOf = async (username: string) => (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [username])).rows[0].id;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    main = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    const added = await post('/api/user/add', main, { userName: 'edit.me', email: 'edit.me@x.example', merIds: `${DEMO.subA},${DEMO.subB}`, role: 'FINANCE' });
    expect(added.body.code, added.body.msg).toBe(0);
    editedId = added.body.data.id;
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [editedId, await hashPassword(DEMO.password)]);
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('changes role, permissions and merchants; the list shows them; the audit keeps before and after', async () => {
    const before = await row(editedId);
    expect(before.permissions).toContain(Perm.txnList);
    const r = await post('/api/user/update', main, { userId: editedId, role: 'CUSTOM', permissions: `${Perm.txnList},${Perm.txnDetail}`, merIds: DEMO.subB });
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data).toMatchObject({ id: editedId, role: 'CUSTOM', merIds: [DEMO.subB], merId: DEMO.subB, userType: 'SUB' });
    expect([...r.body.data.permissions].sort()).toEqual([Perm.txnDetail, Perm.txnList].sort());
    expect(await scopeOf(editedId)).toEqual([DEMO.subB]);
    const listed = (await get('/api/user/list?text=edit.me', main)).body.data.content[0];
    expect(listed).toMatchObject({ role: 'CUSTOM', merIds: [DEMO.subB] });
    const { rows } = await ctx.db.query<{ detail: { before: { role: string; merIds: string[] }; after: { role: string; merIds: string[]; permissions: string[] } }; target: string }>(
      `SELECT detail, target FROM audit_log WHERE action = 'user.update' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0].target).toBe('edit.me');
    expect(rows[0].detail.before).toMatchObject({ role: 'FINANCE', merIds: [DEMO.subA, DEMO.subB] });
    expect(rows[0].detail.after).toMatchObject({ role: 'CUSTOM', merIds: [DEMO.subB] });
    // the same edit again changes nothing and writes no second entry
    await post('/api/user/update', main, { userId: editedId, role: 'CUSTOM', permissions: `${Perm.txnDetail},${Perm.txnList}`, merIds: DEMO.subB });
    expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.update'`)).rows[0].n).toBe(1);
  });

  it("a permission taken away is refused on the user's next call, and a merchant taken away shows nothing of it", async () => {
    await post('/api/user/update', main, { userId: editedId, role: 'FINANCE', merIds: `${DEMO.subA},${DEMO.subB}` });
    const t = (await ctx.login('edit.me')).token;
    expect((await get('/api/txn/list?page=0&size=5', t)).body.code).toBe(0);
    expect((await get(`/api/txn/list?page=0&size=5&merId=${DEMO.subA}`, t)).body.data.totalElements).toBeGreaterThan(-1);
    const cut = await post('/api/user/update', main, { userId: editedId, role: 'CUSTOM', permissions: Perm.txnDetail, merIds: DEMO.subB });
    expect(cut.body.code).toBe(0);
    const after = await get('/api/txn/list?page=0&size=5', t);
    expect(after.status).toBe(403);
    const info = (await get('/api/user/info', t)).body.data;
    expect(info.permissions).toEqual([Perm.txnDetail]);
    expect((await get('/api/merchant/info', t)).body.data.subMerIdList).toEqual([DEMO.subB]);
  });

  it("adding and editing one user leaves every other user's merchants alone; the answer names the user's own merchant", async () => {
    const all = async () => (await ctx.db.query<{ user_id: number; mer_id: string }>('SELECT user_id, mer_id FROM user_merchant_scope ORDER BY 1, 2')).rows;
    const before = await all();
    expect(before.filter((s) => s.user_id === editedId).length, 'the edited user has stored merchants').toBeGreaterThan(0);
    const peer = await post('/api/user/add', main, { userName: 'edit.peer', email: 'edit.peer@x.example', merIds: `${DEMO.subA},${DEMO.subB}`, role: 'READONLY' });
    expect(peer.body.code, peer.body.msg).toBe(0);
    const peerId: number = peer.body.data.id;
    expect(await all()).toEqual([...before, { user_id: peerId, mer_id: DEMO.subA }, { user_id: peerId, mer_id: DEMO.subB }]);
    const r = await post('/api/user/update', main, { userId: peerId, role: 'READONLY', merIds: DEMO.subA });
    expect(r.body.code, r.body.msg).toBe(0);
    expect(await all()).toEqual([...before, { user_id: peerId, mer_id: DEMO.subA }]);
    const name = (await ctx.db.query<{ name: string }>('SELECT name FROM merchant WHERE mer_id = $1', [DEMO.subA])).rows[0].name;
    expect(r.body.data).toMatchObject({ merId: DEMO.subA, merName: name });
  });

  it('refuses bad input, writing nothing', async () => {
    const before = await row(editedId);
    for (const body of <Record<string, string | number>[]>[
      { userId: editedId, role: 'OWNER', merIds: DEMO.subA },
      { userId: editedId, role: 'CUSTOM', merIds: DEMO.subA },
      { userId: editedId, role: 'CUSTOM', permissions: 'no:such:code', merIds: DEMO.subA },
      { userId: editedId, role: 'READONLY', merIds: '' },
      { userId: editedId, role: 'READONLY', merIds: '12' },
      { userId: 'x', role: 'READONLY', merIds: DEMO.subA },
    ]) {
      const r = await post('/api/user/update', main, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await row(editedId)).toEqual(before);
  });

  it("refuses a sub-user, another merchant's user, merchants outside the scope, grants not held, oneself and the last administrator", async () => {
    const before = await row(editedId);
    expect((await post('/api/user/update', sub, { userId: editedId, role: 'READONLY', merIds: DEMO.subA })).status).toBe(403);
    // another merchant's main user cannot see ours; ours cannot see theirs
    expect((await post('/api/user/update', other, { userId: editedId, role: 'READONLY', merIds: DEMO.other })).status).toBe(404);
    expect((await post('/api/user/update', main, { userId: await idOf(DEMO.users.other), role: 'READONLY', merIds: DEMO.subA })).status).toBe(404);
    expect((await post('/api/user/update', main, { userId: editedId, role: 'READONLY', merIds: DEMO.other })).status).toBe(403);
    const grant = await post('/api/user/update', sub, { userId: editedId, role: 'CUSTOM', permissions: Perm.txnRefund, merIds: DEMO.subA });
    expect(grant.status).toBe(403);
    expect(await row(editedId)).toEqual(before);
    const self = await post('/api/user/update', main, { userId: await idOf(DEMO.users.demo), role: 'READONLY', merIds: DEMO.group });
    expect(self.body.code).toBe(Code.NOT_ON_SELF);
    // the only administrator of a sub-merchant (edited by the group's) stays one
    const lone = await post('/api/user/add', main, { userName: 'suba.admin', email: 'suba.admin@x.example', merIds: DEMO.subA, role: 'ADMIN' });
    expect(lone.body.data).toMatchObject({ merId: DEMO.subA, userType: 'MAIN' });
    const last = await post('/api/user/update', main, { userId: lone.body.data.id, role: 'READONLY', merIds: DEMO.subA });
    expect(last.body.code).toBe(Code.LAST_ADMIN);
    expect((await row(lone.body.data.id)).user_admin).toBe(true);
    const moved = await post('/api/user/update', main, { userId: lone.body.data.id, role: 'ADMIN', merIds: DEMO.subB });
    expect(moved.body.code, 'moving the last administrator to another merchant leaves none').toBe(Code.LAST_ADMIN);
    // a sub-merchant's administrator cannot edit a user who also reaches a sibling sub-merchant
    await post('/api/user/update', main, { userId: editedId, role: 'READONLY', merIds: `${DEMO.subA},${DEMO.subB}` });
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [lone.body.data.id, await hashPassword(DEMO.password)]);
    const subAdmin = (await ctx.login('suba.admin')).token;
    const wider = await post('/api/user/update', subAdmin, { userId: editedId, role: 'READONLY', merIds: DEMO.subA });
    expect(wider.status).toBe(404);
    expect(await scopeOf(editedId)).toEqual([DEMO.subA, DEMO.subB]);
  });

  it.skipIf(!isConcurrent(kind))('two administrators demoted at once: one edit wins, the other is refused as the last', async () => {
    const ids: number[] = [];
    for (const n of ['subb.admin1', 'subb.admin2']) {
      const r = await post('/api/user/add', main, { userName: n, email: `${n}@x.example`, merIds: DEMO.subB, role: 'ADMIN' });
      expect(r.body.code, r.body.msg).toBe(0);
      ids.push(r.body.data.id);
    }
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE id = ANY($1::int[])`, [ids]);
    const results = await Promise.all(ids.map((id) => post('/api/user/update', main, { userId: id, role: 'READONLY', merIds: DEMO.subB })));
    expect(results.map((r) => r.body.code).sort((a, b) => a - b)).toEqual([0, Code.LAST_ADMIN].sort((a, b) => a - b));
    const admins = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_user WHERE mer_id = $1 AND user_admin AND removed_at IS NULL`, [DEMO.subB]);
    expect(admins.rows[0].n).toBe(1);
  });

  it.skipIf(!isConcurrent(kind))('two administrators disabled at once, and two removed at once: one wins, the last stays', async () => {
    for (const [action, extra] of [
      ['/api/user/updateUserStatus', { status: 'DISABLED' }],
      ['/api/user/remove', {}],
    ] as const) {
      const ids: number[] = [];
      for (const n of ['a', 'b']) {
        const name = `${action.endsWith('remove') ? 'rm' : 'ds'}.${n}.admin`;
        const r = await post('/api/user/add', main, { userName: name, email: `${name}@x.example`, merIds: DEMO.subA, role: 'ADMIN' });
        expect(r.body.code, r.body.msg).toBe(0);
        ids.push(r.body.data.id);
      }
      // suba.admin (an earlier test's) is put aside so these two are the sub-merchant's only administrators
      await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = 'suba.admin'`);
      await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE id = ANY($1::int[])`, [ids]);
      const results = await Promise.all(ids.map((id) => post(action, main, { userId: id, ...extra })));
      expect(
        results.map((r) => r.body.code).sort((a, b) => a - b),
        JSON.stringify(results.map((r) => r.body)),
      ).toEqual([0, Code.LAST_ADMIN].sort((a, b) => a - b));
      const left = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_user WHERE id = ANY($1::int[]) AND status = 'ACTIVE' AND removed_at IS NULL`, [ids]);
      expect(left.rows[0].n).toBe(1);
      await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE id = ANY($1::int[])`, [ids]);
    }
  });

  it.skipIf(!isConcurrent(kind))('the same user disabled twice at once: one change, one audit entry, and enabling brings it back (the row lock)', async () => {
    const added = await post('/api/user/add', main, { userName: 'twice.off', email: 'twice.off@x.example', merIds: DEMO.subA, role: 'READONLY' });
    expect(added.body.code, added.body.msg).toBe(0);
    const id: number = added.body.data.id;
    const state = async () => (await ctx.db.query<{ status: string; status_before_disable: string | null }>('SELECT status, status_before_disable FROM app_user WHERE id = $1', [id])).rows[0];
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE id = $1`, [id]);
    for (let round = 0; round < 3; round++) {
      const both = await Promise.all([0, 1].map(() => post('/api/user/updateUserStatus', main, { userId: id, status: 'DISABLED' })));
      expect(both.map((r) => r.body.code)).toEqual([0, 0]);
      // the second finds it disabled already: it does not record "disabled" as the status to come back to
      expect(await state()).toEqual({ status: 'DISABLED', status_before_disable: 'ACTIVE' });
      expect((await post('/api/user/updateUserStatus', main, { userId: id, status: 'ACTIVE' })).body.code).toBe(0);
      expect((await state()).status).toBe('ACTIVE');
    }
    const audited = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.disable' AND target = 'twice.off'`);
    expect(audited.rows[0].n).toBe(3);
  });
});
