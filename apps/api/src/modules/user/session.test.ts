import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('session and tokens on %s', (kind) => {
  let ctx: TestCtx;
  beforeEach(async () => {
    ctx = await createTestApp({ kind });
  });
  afterEach(() => ctx.close());

  const info = (token?: string) => ctx.call({ method: 'GET', url: '/api/user/info', headers: token ? { 'x-token': token } : {} });
  const refresh = (refreshToken: string) => ctx.call({ method: 'POST', url: '/api/user/refreshToken', ...form({ refreshToken }) });

  it('serves the user info with routers and permissions from the server', async () => {
    const { token } = await ctx.login();
    const res = await info(token);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ username: 'demo', merId: DEMO.group, merName: 'Demo Group Ltd', userAdmin: true, email: 'demo@demo-group.example' });
    expect(res.body.data.permissions).toContain(Perm.txnRefund);
    expect(res.body.data.routers.map((r: { path: string }) => r.path)).toContain('/txn');
    const sub = await ctx.login(DEMO.users.sub);
    const subInfo = (await info(sub.token)).body.data;
    expect(subInfo.permissions).not.toContain(Perm.txnRefund);
    expect(subInfo.permissions).not.toContain(Perm.payByLinkCreate);
    expect(subInfo.permissions).toContain(Perm.txnList);
    const subMenu = JSON.stringify(subInfo.routers);
    expect(subMenu).not.toContain('/merchant/user');
  });

  it('answers -1 without a token and 50012 for an unknown one', async () => {
    expect((await info()).body.code).toBe(Code.NOT_LOGGED_IN);
    const bad = await info('x'.repeat(43));
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('expires the access token after 15 minutes (code 3) and refreshes it', async () => {
    const pair = await ctx.login();
    ctx.clock.advance(14 * 60_000);
    expect((await info(pair.token)).body.code).toBe(0); // activity keeps the session alive
    ctx.clock.advance(2 * 60_000);
    expect((await info(pair.token)).body.code).toBe(Code.TOKEN_EXPIRED);
    const next = await refresh(pair.refreshToken);
    expect(next.body.code).toBe(0);
    expect(next.body.data.token).not.toBe(pair.token);
    expect((await info(next.body.data.token)).body.code).toBe(0);
  });

  it('lets two tabs refresh with the same token at once, and revokes the chain on a later reuse', async () => {
    const pair = await ctx.login();
    const [a, b] = await Promise.all([refresh(pair.refreshToken), refresh(pair.refreshToken)]);
    expect(a.body.code).toBe(0);
    expect(b.body.code).toBe(0);
    expect((await info(a.body.data.token)).body.code).toBe(0);
    expect((await info(b.body.data.token)).body.code).toBe(0);
    ctx.clock.advance(30_000); // past the grace window
    const reuse = await refresh(pair.refreshToken);
    expect(reuse.body.code).toBe(Code.SESSION_ENDED);
    // the whole chain is gone: every token of the session
    expect((await info(a.body.data.token)).body.code).toBe(Code.SESSION_ENDED);
    expect((await refresh(b.body.data.refreshToken)).body.code).toBe(Code.SESSION_ENDED);
    const audit = await ctx.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action = 'auth.refresh.reuse'`);
    expect(audit.rows).toHaveLength(1);
  });

  it('ends a session idle for 15 minutes, and any session after 12 hours', async () => {
    const pair = await ctx.login();
    ctx.clock.advance(15 * 60_000 + 5000);
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
    expect((await refresh(pair.refreshToken)).body.code).toBe(Code.SESSION_ENDED);

    let cur = await ctx.login();
    // Stay active every 13 minutes (a call, or a refresh every other step) until the 12-hour limit.
    for (let step = 1; step <= 60; step++) {
      ctx.clock.advance(13 * 60_000);
      const r = step % 2 ? await info(cur.token).then(async (x) => (x.body.code === Code.TOKEN_EXPIRED ? refresh(cur.refreshToken) : x)) : await refresh(cur.refreshToken);
      if (r.body.code !== 0) {
        expect(r.body.code).toBe(Code.SESSION_ENDED);
        expect(step * 13).toBeGreaterThanOrEqual(12 * 60 - 13);
        expect(step * 13).toBeLessThanOrEqual(12 * 60 + 13);
        return;
      }
      if (r.body.data.refreshToken) cur = r.body.data;
    }
    throw new Error('session outlived 12 hours');
  });

  it('logs out: the session and its refresh token stop working', async () => {
    const pair = await ctx.login();
    const out = await ctx.call({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': pair.token } });
    expect(out.body.code).toBe(0);
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
    expect((await refresh(pair.refreshToken)).body.code).toBe(Code.SESSION_ENDED);
    const audit = await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'auth.logout'`);
    expect(audit.rows).toHaveLength(1);
  });

  it('step-up password check: grants 5 minutes, and wrong passwords count toward the lockout', async () => {
    const pair = await ctx.login();
    const h = { 'x-token': pair.token };
    const ok = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: DEMO.password }).payload });
    expect(ok.body).toMatchObject({ code: 0, data: true });
    const s = await ctx.db.query<{ step_up_until: Date }>('SELECT step_up_until FROM user_session');
    expect(new Date(s.rows[0].step_up_until).getTime() - ctx.clock.now().getTime()).toBe(5 * 60_000);
    const empty = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: '' }).payload });
    expect(empty.body.code).toBe(Code.BAD_REQUEST);
    for (let left = 4; left >= 1; left--) {
      const bad = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: 'wrong' + left }).payload });
      expect(bad.body.data).toEqual({ remaining: left });
    }
    const fifth = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: 'wrong0' }).payload });
    expect(fifth.body.code).toBe(Code.SESSION_ENDED);
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
    const audit = await ctx.db.query<{ action: string; outcome: string }>(`SELECT action, outcome FROM audit_log WHERE action IN ('auth.password_check', 'auth.lockout') ORDER BY id`);
    expect(audit.rows[0]).toEqual({ action: 'auth.password_check', outcome: 'success' });
    expect(audit.rows.some((r) => r.action === 'auth.lockout')).toBe(true);
  });

  it('refuses a disabled user\'s open session', async () => {
    const pair = await ctx.login(DEMO.users.sub);
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
  });
});
