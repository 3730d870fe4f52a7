import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';

/**
 * Issue 28 (outside review): a sub-merchant's administrator manages only users whose whole scope
 * lies within its own — not one who also reaches a sibling sub-merchant — for every team action.
 */
describe.each(DB_KINDS)('team: the whole scope of the managed user (%s)', (kind) => {
  let ctx: TestCtx;
  let boss: string;
  let group: string;
  const ids: Record<string, number> = {};
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const user = async (username: string, merId: string, type: 'MAIN' | 'SUB', admin: boolean, scope: string[] = []) => {
    const { rows } = await ctx.db.query<{ id: number }>(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, permissions)
       SELECT $1, password_hash, $1 || '@x.example', $2, $3, $4, 'ACTIVE', permissions FROM app_user WHERE username = 'demo' RETURNING id`,
      [username, merId, type, admin],
    );
    if (scope.length) await ctx.db.query('INSERT INTO user_merchant_scope (user_id, mer_id) SELECT $1, unnest($2::text[])', [rows[0].id, scope]);
    ids[username] = rows[0].id;
  };
  const state = async (id: number) => (await ctx.db.query<{ status: string; removed: boolean }>('SELECT status, removed_at IS NOT NULL AS removed FROM app_user WHERE id = $1', [id])).rows[0];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await user('sh-boss', DEMO.subA, 'MAIN', true);
    await user('sh-boss2', DEMO.subA, 'MAIN', true);
    await user('both-subs', DEMO.subA, 'SUB', false, [DEMO.subA, DEMO.subB]);
    await user('only-a', DEMO.subA, 'SUB', false);
    boss = (await ctx.login('sh-boss')).token;
    group = (await ctx.login()).token;
  }, 120_000);
  afterAll(() => ctx?.close());

  it('refuses disable, enable, reset and remove of a user who also reaches a sibling sub-merchant; changes nothing', async () => {
    const mails = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n;
    for (const [url, body] of [
      ['/api/user/updateUserStatus', { userId: ids['both-subs'], status: 'DISABLED' }],
      ['/api/user/resetPassword', { userId: ids['both-subs'] }],
      ['/api/user/remove', { userId: ids['both-subs'] }],
    ] as const) {
      const r = await post(url, boss, body);
      expect(r.status, url).toBe(403);
      expect(r.body, url).toMatchObject({ code: Code.FORBIDDEN, msg: 'This user also has access to merchants outside yours: only an administrator of all of them can change it' });
    }
    expect((await post('/api/user/remove', boss, { userId: ids['both-subs'] }, 'zh')).body.msg).toBe('该用户还可访问您范围以外的商户：只有能管理这些商户的管理员才能修改');
    expect(await state(ids['both-subs'])).toEqual({ status: 'ACTIVE', removed: false });
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBe(mails);
    // enabling is refused as well
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE id = $1`, [ids['both-subs']]);
    expect((await post('/api/user/updateUserStatus', boss, { userId: ids['both-subs'], status: 'ACTIVE' })).status).toBe(403);
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE id = $1`, [ids['both-subs']]);
  });

  it("a user inside the administrator's scope is still managed; the group administrator manages both", async () => {
    const r = await post('/api/user/updateUserStatus', boss, { userId: ids['only-a'], status: 'DISABLED' });
    expect(r.body.code, r.body.msg).toBe(0);
    expect((await state(ids['only-a'])).status).toBe('DISABLED');
    expect((await post('/api/user/updateUserStatus', boss, { userId: ids['sh-boss2'], status: 'DISABLED' })).body.code).toBe(0);
    const g = await post('/api/user/updateUserStatus', group, { userId: ids['both-subs'], status: 'DISABLED' });
    expect(g.body.code, g.body.msg).toBe(0);
    expect((await state(ids['both-subs'])).status).toBe('DISABLED');
  });
});
