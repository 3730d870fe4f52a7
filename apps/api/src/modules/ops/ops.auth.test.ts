import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, LIMITS } from '@portal/contract';
import { createTestApp, DB_KINDS, isConcurrent, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { createOperator } from './operators.service';
import { addOperator, opsLogin, OPS_PASSWORD, tokenOf, totpNow } from './ops.fixtures';

/**
 * The back office's operator realm (issue 26, decision 038): activation with a mandatory
 * authenticator, sign-in through the merchant realm's code on the operator tables, the two realms'
 * tokens kept apart, roles, invitations, lockout, idle timeout, sessions — on both engines.
 */
describe.each(DB_KINDS)('ops operators (%s)', (kind) => {
  let ctx: TestCtx;
  let admin: { id: number; secret: string };
  let adminToken: string;
  let merchantToken: string;
  const h = (token: string) => ({ 'x-token': token });

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    admin = await addOperator(ctx, 'ops-admin', 'administrator');
    adminToken = await opsLogin(ctx, 'ops-admin', admin.secret);
    merchantToken = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());

  it('activation: a wrong authenticator code or weak password changes nothing; the link works once', async () => {
    const { id, link } = await createOperator(ctx.deps, { username: 'ops-new', email: 'ops-new@provider.example', role: 'risk' }, { cli: true }, {});
    expect(link).toMatch(/\/ops\/activate\?token=[A-Za-z0-9_-]{20,}$/);
    const token = tokenOf(link);
    const info = await ctx.call({ method: 'GET', url: '/api/ops/auth/activation', query: { token } });
    expect(info.body.data).toMatchObject({ username: 'ops-new', role: 'risk', email: expect.stringContaining('***') });
    expect(info.body.data.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const secret = info.body.data.totpSecret;
    const wrong = await ctx.call({
      method: 'POST',
      url: '/api/ops/auth/activate',
      headers: { 'accept-language': 'zh' },
      payload: { token, newPassword: OPS_PASSWORD, confirmPassword: OPS_PASSWORD, totpCode: '000000' },
    });
    expect(wrong.body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect(wrong.body.msg).toContain('验证器');
    const weak = await ctx.call({ method: 'POST', url: '/api/ops/auth/activate', payload: { token, newPassword: 'short', confirmPassword: 'short', totpCode: totpNow(ctx, secret) } });
    expect(weak.body.code).toBe(Code.PASSWORD_RULES);
    const { rows } = await ctx.db.query<{ status: string; totp_enabled_at: Date | null }>('SELECT status, totp_enabled_at FROM ops_operator WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'INACTIVE', totp_enabled_at: null });
    // Not activated: cannot sign in (answered as a wrong password).
    const early = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-new', password: OPS_PASSWORD, verifyCode: '123456' } });
    expect(early.body.code).toBe(Code.WRONG_PASSWORD);
    const activationCode = totpNow(ctx, secret);
    const good = await ctx.call({ method: 'POST', url: '/api/ops/auth/activate', payload: { token, newPassword: OPS_PASSWORD, confirmPassword: OPS_PASSWORD, totpCode: activationCode } });
    expect(good.body.code, good.body.msg).toBe(0);
    expect(good.body.data.recoveryCodes).toHaveLength(10);
    // Issue 46: the code used at activation, typed again at the first sign-in within its 30 seconds,
    // is refused (no replay) with its own answer — "this code was just used; wait for the next one".
    const reused = await ctx.call({
      method: 'POST',
      url: '/api/ops/auth/login',
      headers: { 'accept-language': 'zh' },
      payload: { username: 'ops-new', password: OPS_PASSWORD, verifyCode: activationCode },
    });
    expect(reused.body).toMatchObject({ code: Code.TOTP_CODE_USED, msg: expect.stringContaining('刚刚已使用') });
    const again = await ctx.call({ method: 'POST', url: '/api/ops/auth/activate', payload: { token, newPassword: OPS_PASSWORD, confirmPassword: OPS_PASSWORD, totpCode: totpNow(ctx, secret) } });
    expect(again.body.code).toBe(Code.LINK_EXPIRED);
    // A recovery code is a second factor too, once.
    const rc = good.body.data.recoveryCodes[0];
    const viaRc = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-new', password: OPS_PASSWORD, verifyCode: rc } });
    expect(viaRc.body.code, viaRc.body.msg).toBe(0);
    const rcAgain = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-new', password: OPS_PASSWORD, verifyCode: rc } });
    expect(rcAgain.body.code).toBe(Code.VERIFY_CODE_ERROR);
  });

  it('sign-in needs the authenticator: no code is bad input, a wrong or replayed code is refused', async () => {
    const none = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-admin', password: OPS_PASSWORD } });
    expect(none.status).toBe(400);
    const wrong = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-admin', password: OPS_PASSWORD, verifyCode: '000000' } });
    expect(wrong.body.code).toBe(Code.VERIFY_CODE_ERROR);
    const code = totpNow(ctx, admin.secret);
    const first = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-admin', password: OPS_PASSWORD, verifyCode: code } });
    expect(first.body.code, first.body.msg).toBe(0);
    const replay = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-admin', password: OPS_PASSWORD, verifyCode: code } });
    expect(replay.body.code).toBe(Code.TOTP_CODE_USED);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'auth.login' AND operator_id = $1 AND user_id IS NULL`, [admin.id]);
    expect(rows[0].n).toBeGreaterThanOrEqual(2);
  });

  it("the realms never mix: an operator's token is unknown to the merchant API and a merchant's to the ops API", async () => {
    const me = await ctx.call({ method: 'GET', url: '/api/ops/me', headers: h(adminToken) });
    expect(me.body.data).toMatchObject({ username: 'ops-admin', role: 'administrator' });
    const onMerchant = await ctx.call({ method: 'GET', url: '/api/user/info', headers: h(adminToken) });
    expect([onMerchant.status, onMerchant.body.code]).toEqual([401, Code.TOKEN_INVALID]);
    const onOps = await ctx.call({ method: 'GET', url: '/api/ops/me', headers: h(merchantToken) });
    expect([onOps.status, onOps.body.code]).toEqual([401, Code.TOKEN_INVALID]);
    // A merchant user's name and password do not sign in to the back office.
    const demo = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'demo', password: 'Demo1234', verifyCode: '123456' } });
    expect(demo.body.code).toBe(Code.WRONG_PASSWORD);
  });

  it('roles are checked on every call; the administrator invites, and bad input changes nothing', async () => {
    const ro = await addOperator(ctx, 'ops-reader', 'read-only');
    const roToken = await opsLogin(ctx, 'ops-reader', ro.secret);
    const list = await ctx.call({ method: 'GET', url: '/api/ops/operators', headers: h(roToken) });
    expect([list.status, list.body.code]).toEqual([403, Code.FORBIDDEN]);
    const invite = { username: 'ops-invited', email: 'ops-invited@provider.example', role: 'support' };
    const refused = await ctx.call({ method: 'POST', url: '/api/ops/operators', headers: h(roToken), payload: invite });
    expect(refused.status).toBe(403);
    const bad = await ctx.call({ method: 'POST', url: '/api/ops/operators', headers: { ...h(adminToken), 'accept-language': 'ko' }, payload: { ...invite, email: 'not-an-address' } });
    expect(bad.status).toBe(400);
    const badRole = await ctx.call({ method: 'POST', url: '/api/ops/operators', headers: h(adminToken), payload: { ...invite, role: 'root' } });
    expect(badRole.status).toBe(400);
    const made = await ctx.call({ method: 'POST', url: '/api/ops/operators', headers: h(adminToken), payload: invite });
    expect(made.body.code, made.body.msg).toBe(0);
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('ops-invited@provider.example'));
    expect(mail?.text).toMatch(/\/ops\/activate\?token=/);
    const dup = await ctx.call({ method: 'POST', url: '/api/ops/operators', headers: h(adminToken), payload: { ...invite, email: 'other@provider.example' } });
    expect(dup.body.code).toBe(Code.BAD_REQUEST);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ops_operator WHERE lower(username) = 'ops-invited'`);
    expect(rows[0].n).toBe(1);
    const audited = await ctx.db.query<{ detail: { after: { role: string } } }>(`SELECT detail FROM audit_log WHERE action = 'ops.operator.create' AND operator_id = $1 AND target = $2`, [
      admin.id,
      `operator:${made.body.data.id}`,
    ]);
    expect(audited.rows[0].detail.after.role).toBe('support');
    // Role changes: audited before/after; never one's own; the reader now may not list.
    const toRisk = await ctx.call({ method: 'POST', url: `/api/ops/operators/${ro.id}/role`, headers: h(adminToken), payload: { role: 'risk' } });
    expect(toRisk.body.code).toBe(0);
    const self = await ctx.call({ method: 'POST', url: `/api/ops/operators/${admin.id}/role`, headers: h(adminToken), payload: { role: 'support' } });
    expect(self.body.code).toBe(Code.FORBIDDEN);
    const missing = await ctx.call({ method: 'POST', url: '/api/ops/operators/999999/disable', headers: h(adminToken) });
    expect(missing.status).toBe(404);
    // Disabling ends the operator's sessions at once.
    const off = await ctx.call({ method: 'POST', url: `/api/ops/operators/${ro.id}/disable`, headers: h(adminToken) });
    expect(off.body.code).toBe(0);
    const after = await ctx.call({ method: 'GET', url: '/api/ops/me', headers: h(roToken) });
    expect(after.body.code).toBe(Code.SESSION_ENDED);
  });

  it('idle timeout, refresh and logout are the merchant realm’s rules', async () => {
    const login = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-admin', password: OPS_PASSWORD, verifyCode: totpNow(ctx, admin.secret) } });
    const pair = login.body.data;
    const refreshed = await ctx.call({ method: 'POST', url: '/api/ops/auth/refreshToken', payload: { refreshToken: pair.refreshToken } });
    expect(refreshed.body.code).toBe(0);
    // A merchant refresh token is unknown here, and an operator's there.
    const cross = await ctx.call({ method: 'POST', url: '/api/user/refreshToken', payload: { refreshToken: refreshed.body.data.refreshToken } });
    expect(cross.status).toBe(401);
    const sessions = await ctx.call({ method: 'GET', url: '/api/ops/sessions', headers: h(refreshed.body.data.token) });
    expect(sessions.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    ctx.clock.advance((LIMITS.idleSeconds + 60) * 1000);
    const idle = await ctx.call({ method: 'GET', url: '/api/ops/me', headers: h(refreshed.body.data.token) });
    expect(idle.body.code).toBe(Code.SESSION_ENDED);
    adminToken = await opsLogin(ctx, 'ops-admin', admin.secret);
    const other = await opsLogin(ctx, 'ops-admin', admin.secret);
    await ctx.call({ method: 'POST', url: '/api/ops/auth/logout', headers: h(other) });
    const gone = await ctx.call({ method: 'GET', url: '/api/ops/me', headers: h(other) });
    expect(gone.body.code).toBe(Code.SESSION_ENDED);
    // Another operator's session cannot be ended by id.
    const { rows } = await ctx.db.query<{ id: string }>(`SELECT s.id FROM ops_session s JOIN ops_operator o ON o.id = s.user_id WHERE o.username = 'ops-new' LIMIT 1`);
    const foreign = await ctx.call({ method: 'POST', url: `/api/ops/sessions/${rows[0].id}/revoke`, headers: h(adminToken) });
    expect(foreign.status).toBe(404);
  });

  it.skipIf(!isConcurrent(kind))('wrong passwords at once: exactly five are counted, then the operator is locked', async () => {
    const victim = await addOperator(ctx, 'ops-victim', 'support');
    const tries = await Promise.all(
      Array.from({ length: 12 }, () => ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-victim', password: 'Wrong-Passw0rd', verifyCode: '123456' } })),
    );
    const codes = tries.map((r) => r.body.code);
    expect(codes.filter((c) => c === Code.WRONG_PASSWORD)).toHaveLength(4);
    expect(codes.filter((c) => c === Code.USER_LOCKED)).toHaveLength(8);
    const right = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username: 'ops-victim', password: OPS_PASSWORD, verifyCode: totpNow(ctx, victim.secret) } });
    expect(right.body.code).toBe(Code.USER_LOCKED);
  });
});
