import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../test/helpers';
import { endSession, resolveSession } from './auth';

/**
 * The rules the auth hook's SQL alone holds (issue 24, the SQL mutation run's "scope" module): which
 * merchants a session reaches, who must enrol a second factor, and that ending one session ends
 * that one only. Each test here failed on a mutant of that SQL that no other test of the module saw.
 */
describe.each(DB_KINDS)('the session look-up and its scope (%s)', (kind) => {
  let ctx: TestCtx;
  const userId = async (username: string) => (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [username])).rows[0].id;
  const sessionOf = async (token: string) => resolveSession(ctx.deps, token);
  const ended = async (sessionId: number) =>
    (await ctx.db.query<{ revoked_at: Date | null; revoke_reason: string | null }>('SELECT revoked_at, revoke_reason FROM user_session WHERE id = $1', [sessionId])).rows[0];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());

  it('ending one session ends that one only, and never rewrites a session that had already ended', async () => {
    const first = await sessionOf((await ctx.login()).token);
    const second = await sessionOf((await ctx.login()).token);
    const others = await sessionOf((await ctx.login(DEMO.users.other)).token);
    await endSession(ctx.db, first.sessionId, 'idle');
    expect(await ended(first.sessionId)).toMatchObject({ revoke_reason: 'idle' });
    // the same user's other session and another user's go on
    expect(await ended(second.sessionId)).toEqual({ revoked_at: null, revoke_reason: null });
    expect(await ended(others.sessionId)).toEqual({ revoked_at: null, revoke_reason: null });
    // A second end (a process holding the session in its cache, a refresh racing a logout) keeps
    // the first end's reason and instant: the sign-in history shows why the session really ended.
    const at = (await ended(first.sessionId)).revoked_at;
    await new Promise((r) => setTimeout(r, 5));
    await endSession(ctx.db, first.sessionId, 'absolute');
    expect(await ended(first.sessionId)).toEqual({ revoked_at: at, revoke_reason: 'idle' });
  });

  it("a stored merchant scope reaches only merchants of the user's own group, whatever rows it holds", async () => {
    const sub = await userId(DEMO.users.sub);
    // demo-sub's home merchant is the group's sub-merchant A; a stored row naming the other
    // merchant (outside the group) must not widen its scope, while one naming sub-merchant B does.
    await ctx.db.query('DELETE FROM user_merchant_scope WHERE user_id = $1', [sub]);
    await ctx.db.query('INSERT INTO user_merchant_scope (user_id, mer_id) VALUES ($1, $2), ($1, $3)', [sub, DEMO.subB, DEMO.other]);
    try {
      const s = await sessionOf((await ctx.login(DEMO.users.sub)).token);
      expect(s.scope).toEqual([DEMO.subB]);
    } finally {
      await ctx.db.query('DELETE FROM user_merchant_scope WHERE user_id = $1', [sub]);
    }
  });

  it("without a stored scope, a group's user reaches the group and its sub-merchants, a sub-merchant's user its own merchant", async () => {
    expect((await sessionOf((await ctx.login()).token)).scope).toEqual([DEMO.group, DEMO.subA, DEMO.subB]);
    expect((await sessionOf((await ctx.login(DEMO.users.sub)).token)).scope).toEqual([DEMO.subA]);
    expect((await sessionOf((await ctx.login(DEMO.users.other)).token)).scope).toEqual([DEMO.other]);
  });

  it("a merchant's \"second factor required\" binds its users and its sub-merchants' users, not another merchant's, and not a user who has one", async () => {
    const tokens = { demo: (await ctx.login()).token, sub: (await ctx.login(DEMO.users.sub)).token, other: (await ctx.login(DEMO.users.other)).token };
    const must = async () => ({
      demo: (await sessionOf(tokens.demo)).mustEnrolTotp,
      sub: (await sessionOf(tokens.sub)).mustEnrolTotp,
      other: (await sessionOf(tokens.other)).mustEnrolTotp,
    });
    const requireOn = (merId: string, on: boolean) => ctx.db.query('UPDATE merchant SET require_totp = $2 WHERE mer_id = $1', [merId, on]);
    try {
      await requireOn(DEMO.other, true);
      expect(await must()).toEqual({ demo: false, sub: false, other: true });
      await requireOn(DEMO.other, false);
      await requireOn(DEMO.group, true);
      expect(await must()).toEqual({ demo: true, sub: true, other: false });
      // the group's user enrols an authenticator: no longer asked; the sub-merchant's user still is
      await ctx.db.query('UPDATE app_user SET totp_enabled_at = now() WHERE username = $1', [DEMO.users.demo]);
      expect(await must()).toEqual({ demo: false, sub: true, other: false });
      await requireOn(DEMO.group, false);
      await requireOn(DEMO.subA, true);
      expect(await must()).toEqual({ demo: false, sub: true, other: false });
    } finally {
      await ctx.db.query('UPDATE merchant SET require_totp = false');
      await ctx.db.query('UPDATE app_user SET totp_enabled_at = NULL WHERE username = $1', [DEMO.users.demo]);
    }
  });
});
