import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { sha256 } from '../../lib/crypto';
import { startSession } from './session.service';

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

  it('refreshes after exactly 15 minutes idle, and refuses a refresh a moment later (the refresh path checks idleness itself)', async () => {
    // No call in between: the auth hook never sees these sessions, so only the refresh decides.
    const fresh = await ctx.login();
    ctx.clock.advance(15 * 60_000);
    const ok = await refresh(fresh.refreshToken);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.refreshToken).not.toBe(fresh.refreshToken);

    const idle = await ctx.login();
    ctx.clock.advance(15 * 60_000 + 1);
    const late = await refresh(idle.refreshToken);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe(Code.SESSION_ENDED);
    const s = await ctx.db.query<{ revoke_reason: string | null }>('SELECT s.revoke_reason FROM user_session s JOIN refresh_token r ON r.session_id = s.id WHERE r.token_hash = $1', [
      sha256(idle.refreshToken),
    ]);
    expect(s.rows).toEqual([{ revoke_reason: 'idle' }]);
    expect((await info(idle.token)).body.code).toBe(Code.SESSION_ENDED);
  });

  it('refuses a refresh at the 12-hour limit, and for a disabled user', async () => {
    const pair = await ctx.login();
    const active = () => ctx.db.query('UPDATE user_session SET last_seen_at = $1', [ctx.clock.now()]); // as the auth hook's touch
    ctx.clock.advance(12 * 3600_000 - 1);
    await active();
    const last = await refresh(pair.refreshToken);
    expect(last.body.code).toBe(0);
    ctx.clock.advance(1);
    await active();
    const over = await refresh(last.body.data.refreshToken);
    expect(over.status).toBe(401);
    expect(over.body.code).toBe(Code.SESSION_ENDED);
    const s = await ctx.db.query<{ revoke_reason: string | null }>('SELECT revoke_reason FROM user_session');
    expect(s.rows).toEqual([{ revoke_reason: 'absolute' }]);

    const sub = await ctx.login(DEMO.users.sub);
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await refresh(sub.refreshToken)).body.code).toBe(Code.SESSION_ENDED);
  });

  it('answers 50012 for an unknown refresh token', async () => {
    const r = await refresh('y'.repeat(43));
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('lets two tabs refresh with the same token at once, and revokes the chain on a later reuse', async () => {
    const pair = await ctx.login();
    // Two tabs at once: a real race for the refresh row's lock on PostgreSQL; outcome only on PGlite.
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

  it('the refresh grace: a second use up to 10 s after the first gets a pair, not a moment later; the old access token ends with the grace', async () => {
    const pair = await ctx.login();
    expect((await refresh(pair.refreshToken)).body.code).toBe(0);
    ctx.clock.advance(10_000 - 1);
    expect((await info(pair.token)).body.code).toBe(0); // within the grace, the old access token still works
    ctx.clock.advance(1);
    expect((await info(pair.token)).body.code).toBe(Code.TOKEN_EXPIRED); // at its end, not at its own 15 minutes
    expect((await refresh(pair.refreshToken)).body.code).toBe(0); // exactly 10 s: still the grace
    ctx.clock.advance(1);
    expect((await refresh(pair.refreshToken)).body.code).toBe(Code.SESSION_ENDED);
    const s = await ctx.db.query<{ revoke_reason: string }>('SELECT revoke_reason FROM user_session');
    expect(s.rows).toEqual([{ revoke_reason: 'refresh-reuse' }]);
    const audit = await ctx.db.query<{ outcome: string; detail: { sessionId: number; usedSecondsAgo: number } }>(`SELECT outcome, detail FROM audit_log WHERE action = 'auth.refresh.reuse'`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].outcome).toBe('failure');
    expect(audit.rows[0].detail).toEqual({ sessionId: expect.any(Number), usedSecondsAgo: 10 });
  });

  it('a session keeps the address and device it started from (the device text cut at 300 characters)', async () => {
    const ua = `Mozilla/5.0 ${'x'.repeat(400)}`;
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', remoteAddress: '203.0.113.7', ...form({ username: DEMO.users.demo }) });
    const code = await ctx.lastCode();
    const r = await ctx.call({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '203.0.113.7',
      headers: { 'user-agent': ua, ...form({}).headers },
      payload: form({ username: DEMO.users.demo, password: DEMO.password, verifyCode: code }).payload,
    });
    expect(r.body.code).toBe(0);
    const s = await ctx.db.query<{ ip: string; user_agent: string }>('SELECT ip, user_agent FROM user_session ORDER BY id DESC LIMIT 1');
    expect(s.rows[0]).toEqual({ ip: '203.0.113.7', user_agent: ua.slice(0, 300) });
  });

  it('a session started without a known address or device stores neither', async () => {
    const { rows } = await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.demo]);
    const pair = await ctx.db.tx((q) => startSession(q, ctx.clock.now(), rows[0].id, {}, 900));
    expect((await info(pair.token)).body.code).toBe(0);
    const s = await ctx.db.query('SELECT ip, user_agent FROM user_session');
    expect(s.rows).toEqual([{ ip: null, user_agent: null }]);
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
    // audited as the user whose session it was
    const audit = await ctx.db.query(`SELECT username, mer_id FROM audit_log WHERE action = 'auth.logout'`);
    expect(audit.rows).toEqual([{ username: DEMO.users.demo, mer_id: DEMO.group }]);
    expect((await ctx.db.query('SELECT revoke_reason FROM user_session')).rows).toEqual([{ revoke_reason: 'logout' }]);
    // Logging out again (a second tab, a retry) is quietly fine, and audited once.
    expect((await ctx.call({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': pair.token } })).body.code).toBe(0);
    expect((await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'auth.logout'`)).rows).toHaveLength(1);
  });

  it('step-up password check: grants 5 minutes, and wrong passwords count toward the lockout', async () => {
    const pair = await ctx.login();
    const h = { 'x-token': pair.token };
    const ok = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: DEMO.password }).payload });
    expect(ok.body).toMatchObject({ code: 0, data: true });
    const s = await ctx.db.query<{ step_up_until: Date }>('SELECT step_up_until FROM user_session');
    expect(new Date(s.rows[0].step_up_until).getTime() - ctx.clock.now().getTime()).toBe(5 * 60_000);
    // A success clears earlier wrong passwords: the next wrong one leaves 4 chances.
    for (const pw of ['wrongA', 'wrongB']) await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: pw }).payload });
    expect((await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: DEMO.password }).payload })).body.data).toBe(true);
    const empty = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: '' }).payload });
    expect(empty.body.code).toBe(Code.BAD_REQUEST);
    for (let left = 4; left >= 1; left--) {
      const bad = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: 'wrong' + left }).payload });
      expect(bad.body.data).toEqual({ remaining: left });
      // Issue 13 fix 6: says what failed (this refund's password check) and the tries left, not the change-password wording.
      expect(bad.body.msg).toBe(`The password for this refund is not correct. Tries left before your sign-in is locked: ${left}`);
    }
    const fifth = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { ...h, ...form({}).headers }, payload: form({ password: 'wrong0' }).payload });
    expect(fifth.body).toMatchObject({ code: Code.SESSION_ENDED, msg: 'User is locked, please try again in 30 minutes' });
    const checks = await ctx.db.query<{ outcome: string; n: number }>(`SELECT outcome, count(*)::int AS n FROM audit_log WHERE action = 'auth.password_check' GROUP BY outcome ORDER BY outcome`);
    expect(checks.rows).toEqual([
      { outcome: 'failure', n: 7 },
      { outcome: 'success', n: 2 },
    ]);
    const wrong = await ctx.db.query<{ where: string }>(`SELECT detail->>'where' AS where FROM audit_log WHERE action = 'auth.login.failure' ORDER BY id DESC LIMIT 1`);
    expect(wrong.rows[0].where).toBe('check-password');
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
    const audit = await ctx.db.query<{ action: string; outcome: string }>(`SELECT action, outcome FROM audit_log WHERE action IN ('auth.password_check', 'auth.lockout') ORDER BY id`);
    expect(audit.rows[0]).toEqual({ action: 'auth.password_check', outcome: 'success' });
    expect(audit.rows.some((r) => r.action === 'auth.lockout')).toBe(true);
  });

  it("refuses a disabled user's open session", async () => {
    const pair = await ctx.login(DEMO.users.sub);
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await info(pair.token)).body.code).toBe(Code.SESSION_ENDED);
  });
});
