import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ROLE_PRESETS } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { auth } from '../txn/txn.fixtures';
import { addOperator, opsLogin } from '../ops/ops.fixtures';
import { readOutbox } from '../../plugins/mail';
import { startDns, startIdp, type TestIdp } from './sso.fixtures';
import { provisionUser } from './sso.login';
import { finishStepUp } from './sso.stepup';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { createOAuthState } from '../account';
import { providerOf } from './sso.service';

/**
 * Enterprise sign-in (issue 51) against a REAL OpenID provider (`oidc-provider` on loopback:
 * discovery, code flow, PKCE required, groups claim) and a real DNS server on a loopback port:
 * the administrator's setup, verified domains, just-in-time users with mapped roles (created,
 * then updated), the browser binding of the state, "SSO required" with break-glass, and the back
 * office's four-eyes lifting of it. Bad input, missing permission and another merchant's rows too.
 */
describe.each(DB_KINDS)('SSO: OIDC, domains, JIT users, SSO required (%s)', (kind) => {
  let ctx: TestCtx;
  let idp: TestIdp;
  let dns: Awaited<ReturnType<typeof startDns>>;
  let demo: string;
  const redirect = 'http://localhost:8080/api/sso/oidc/callback';
  const post = (url: string, payload: unknown, token = demo, lang = 'en') =>
    ctx.call({ method: 'POST', url, headers: { ...auth(token), 'accept-language': lang }, payload: payload as Record<string, unknown> });
  const get = (url: string, token = demo) => ctx.call({ method: 'GET', url, headers: auth(token) });
  const cookieOf = (h: unknown) => String(([] as string[]).concat(h as string)[0] ?? '').split(';')[0];

  /** The whole browser round trip: start → provider → callback (with the browser's cookie) → ticket → tokens. */
  async function ssoSignIn(email: string, opts: { cookie?: boolean } = {}) {
    const start = await ctx.call({ method: 'POST', url: '/api/sso/start', payload: { email } });
    expect(start.body.code, start.body.msg).toBe(0);
    const cookie = cookieOf(start.headers['set-cookie']);
    expect(cookie).toMatch(/^mp_sso=/);
    const back = new URL(await idp.signIn(start.body.data.url));
    expect(back.href.startsWith(redirect)).toBe(true);
    const cb = await ctx.call({ method: 'GET', url: `/api/sso/oidc/callback${back.search}`, headers: opts.cookie === false ? {} : { cookie } });
    expect(cb.status).toBe(302);
    const to = String(cb.headers.location);
    const ticket = new URL(to, 'http://x').searchParams.get('ssoTicket');
    if (!ticket) return { to, back };
    const login = await ctx.call({ method: 'POST', url: '/api/sso/login', payload: { ticket } });
    expect(login.body.code, login.body.msg).toBe(0);
    return { to, back, ticket, token: login.body.data.token as string };
  }

  beforeAll(async () => {
    dns = await startDns();
    idp = await startIdp([redirect]);
    ctx = await createTestApp({ kind, config: { ssoDnsServers: [dns.server] } });
    demo = (await ctx.login()).token;
  });
  afterAll(async () => {
    await ctx?.close();
    await idp?.close();
    await dns?.close();
  });

  it('adds the OIDC provider after discovery: the secret sealed at rest and never returned; bad input refused with nothing changed', async () => {
    const unreachable = await post('/api/sso/provider', { kind: 'oidc', name: 'Corp IdP', issuer: 'http://127.0.0.1:9/', clientId: 'x', clientSecret: 'y' }, demo, 'zh');
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.msg).toContain('无法连接身份提供方');
    const noSecret = await post('/api/sso/provider', { kind: 'oidc', name: 'Corp IdP', issuer: idp.issuer, clientId: idp.clientId });
    expect(noSecret.body.msg).toBe('Enter the client secret');
    const bad = await post('/api/sso/provider', { kind: 'oidc', name: '', issuer: 'not a url', clientId: 'x' });
    expect(bad.status).toBe(400);
    expect((await ctx.db.query('SELECT 1 FROM sso_provider')).rows).toHaveLength(0);

    const saved = await post('/api/sso/provider', { kind: 'oidc', name: 'Corp IdP', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect(saved.body.data).toMatchObject({ kind: 'oidc', merId: DEMO.group, issuer: idp.issuer, clientId: idp.clientId, hasSecret: true, redirectUri: redirect });
    expect(JSON.stringify(saved.body)).not.toContain(idp.clientSecret);
    const row = (await ctx.db.query<{ client_secret_enc: string }>('SELECT client_secret_enc FROM sso_provider')).rows[0];
    expect(row.client_secret_enc).not.toContain(idp.clientSecret);
    expect(Buffer.from(row.client_secret_enc, 'base64').toString('latin1')).not.toContain(idp.clientSecret);
    // An edit without the secret keeps it.
    const edit = await post('/api/sso/provider', { kind: 'oidc', name: 'Corp IdP (edited)', issuer: idp.issuer, clientId: idp.clientId });
    expect(edit.body.code, edit.body.msg).toBe(0);
    expect((await ctx.db.query<{ client_secret_enc: string }>('SELECT client_secret_enc FROM sso_provider')).rows[0].client_secret_enc).toBe(row.client_secret_enc);
    const audits = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'sso.provider.save' ORDER BY id")).rows;
    expect(audits).toHaveLength(2);
    expect(JSON.stringify(audits)).not.toContain(idp.clientSecret);
  });

  it('claims a domain and verifies it by its DNS TXT record (a local DNS server); not published yet: told what to publish', async () => {
    const claim = await post('/api/sso/domain', { domain: 'Corp.Example' });
    expect(claim.body.code, claim.body.msg).toBe(0);
    expect(claim.body.data).toMatchObject({ domain: 'corp.example', recordName: '_portal-sso.corp.example', verified: false });
    const early = await post('/api/sso/domain/verify', { id: claim.body.data.id }, demo, 'ja');
    expect(early.body.code).toBe(Code.BAD_REQUEST);
    expect(early.body.msg).toContain('_portal-sso.corp.example');
    dns.records.set('_portal-sso.corp.example', ['v=spf1 -all', claim.body.data.recordValue]);
    const ok = await post('/api/sso/domain/verify', { id: claim.body.data.id });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(ok.body.data.verified).toBe(true);
    expect((await post('/api/sso/domain', { domain: 'not_a domain' })).status).toBe(400);
    // Another merchant cannot take a domain verified here.
    const other = (await ctx.login(DEMO.users.other)).token;
    const taken = await post('/api/sso/domain', { domain: 'corp.example' }, other);
    expect(taken.status).toBe(409);
  });

  it('the sign-in page: a verified domain with an enabled provider is sent to SSO, others are not', async () => {
    expect((await ctx.call({ method: 'POST', url: '/api/sso/discover', payload: { email: 'Someone@corp.example' } })).body.data).toEqual({ sso: true });
    expect((await ctx.call({ method: 'POST', url: '/api/sso/discover', payload: { email: 'someone@elsewhere.example' } })).body.data).toEqual({ sso: false });
    expect((await ctx.call({ method: 'POST', url: '/api/sso/discover', payload: { email: 'nope' } })).status).toBe(400);
  });

  it('a first SSO sign-in with no mapping and no default role is refused (audited); with a mapping the user is made just in time with the mapped role', async () => {
    idp.accounts.set('mei@corp.example', { sub: 'sub-mei', email: 'mei@corp.example', name: 'Mei Chen', groups: ['portal-finance', 'everyone'] });
    const refused = await ssoSignIn('mei@corp.example');
    expect(refused.to).toBe('/login?sso=failed');
    expect((await ctx.db.query("SELECT 1 FROM app_user WHERE email = 'mei@corp.example'")).rows).toHaveLength(0);
    const audit = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'sso.login.refused' ORDER BY id DESC LIMIT 1")).rows[0];
    expect(audit.detail.reason).toBe('no-role-mapped');

    const m = await post('/api/sso/mapping', { claimValue: 'portal-finance', role: 'FINANCE' });
    expect(m.body.code, m.body.msg).toBe(0);
    await post('/api/sso/mapping', { claimValue: 'portal-refunds', role: 'REFUNDS', priority: 10 });
    expect((await post('/api/sso/mapping', { claimValue: 'x', role: 'CUSTOM' })).body.msg).toBe('Choose the named role');

    const first = await ssoSignIn('mei@corp.example');
    expect(first.token).toBeTruthy();
    const info = await get('/api/user/info', first.token!);
    expect(info.body.data).toMatchObject({ username: 'mei@corp.example', merId: DEMO.group, email: 'mei@corp.example', userAdmin: false });
    expect([...info.body.data.permissions].sort()).toEqual([...ROLE_PRESETS.FINANCE].sort());
    const created = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'sso.user.create'")).rows;
    expect(created).toHaveLength(1);
    expect(created[0].detail).toMatchObject({ role: 'FINANCE', subject: 'sub-mei' });
    const login = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'auth.login' AND username = 'mei@corp.example'")).rows;
    expect(login[0].detail).toMatchObject({ via: 'sso' });
    // The ticket is used once.
    expect((await ctx.call({ method: 'POST', url: '/api/sso/login', payload: { ticket: first.ticket } })).body.code).toBe(Code.SSO_FAILED);
  });

  it('a later sign-in updates the e-mail, name and role from the provider (audited with before and after)', async () => {
    idp.accounts.set('mei@corp.example', { sub: 'sub-mei', email: 'mei@corp.example', name: 'Mei Chen-Li', groups: ['portal-finance', 'portal-refunds'] });
    const again = await ssoSignIn('mei@corp.example');
    const info = await get('/api/user/info', again.token!);
    expect([...info.body.data.permissions].sort()).toEqual([...ROLE_PRESETS.REFUNDS].sort()); // priority 10 wins
    const u = (
      await ctx.db.query<{ role: string; n: number }>("SELECT u.role, (SELECT count(*)::int FROM app_user WHERE email = 'mei@corp.example') AS n FROM app_user u WHERE email = 'mei@corp.example'")
    ).rows[0];
    expect(u).toEqual({ role: 'REFUNDS', n: 1 });
    expect((await ctx.db.query<{ name: string }>("SELECT name FROM sso_identity WHERE subject = 'sub-mei'")).rows[0].name).toBe('Mei Chen-Li');
    const upd = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'sso.user.update' ORDER BY id DESC LIMIT 1")).rows[0];
    expect(upd.detail.before.role).toBe('FINANCE');
    expect(upd.detail.after.role).toBe('REFUNDS');
    // Groups taken away at the provider, no default role: refused, and the user's sessions end.
    idp.accounts.set('mei@corp.example', { sub: 'sub-mei', email: 'mei@corp.example', name: 'Mei', groups: [] });
    expect((await ssoSignIn('mei@corp.example')).to).toBe('/login?sso=failed');
    expect((await get('/api/user/info', again.token!)).status).toBe(401);
    // A default role chosen by the administrator: given when nothing maps.
    await post('/api/sso/provider', { kind: 'oidc', name: 'Corp IdP', issuer: idp.issuer, clientId: idp.clientId, defaultRole: 'READONLY' });
    const def = await ssoSignIn('mei@corp.example');
    expect((await ctx.db.query<{ role: string }>("SELECT role FROM app_user WHERE email = 'mei@corp.example'")).rows[0].role).toBe('READONLY');
    expect(def.token).toBeTruthy();
  });

  it('parallel first sign-ins of one person make one user (the unique indexes decide, the loser reads the link)', async () => {
    const p = (await providerOf(ctx.db, DEMO.group))!;
    const who = { subject: 'sub-par', email: 'par@corp.example', name: 'Par', groups: ['portal-finance'] };
    const ids = await Promise.all(Array.from({ length: 4 }, () => provisionUser(ctx.deps, p, who, {})));
    expect(new Set(ids).size).toBe(1);
    expect((await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM app_user WHERE email = 'par@corp.example'")).rows[0].n).toBe(1);
    expect((await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sso_identity WHERE subject = 'sub-par'")).rows[0].n).toBe(1);
  });

  it("the state is bound to the browser that started: the provider's answer brought to another browser, or twice, signs nobody in", async () => {
    idp.accounts.set('ken@corp.example', { sub: 'sub-ken', email: 'ken@corp.example', name: 'Ken', groups: ['portal-finance'] });
    const other = await ssoSignIn('ken@corp.example', { cookie: false });
    expect(other.to).toBe('/login?sso=failed');
    const ok = await ssoSignIn('ken@corp.example');
    expect(ok.token).toBeTruthy();
    const replay = await ctx.call({ method: 'GET', url: `/api/sso/oidc/callback${ok.back.search}`, headers: {} });
    expect(replay.headers.location).toBe('/login?sso=failed');
    const reasons = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'auth.login.failure' AND detail->>'via' = 'sso' ORDER BY id")).rows.map((r) => r.detail.reason);
    expect(reasons).toEqual(expect.arrayContaining(['other-browser', 'state']));
  });

  it('"SSO required": needs a break-glass administrator; then passwords, e-mailed codes and resets are refused (in the user\'s language) while break-glass keeps password + code', async () => {
    const admins = (await get('/api/sso/config')).body.data.admins as { id: number; username: string }[];
    const demoId = admins.find((a) => a.username === DEMO.users.demo)!.id;
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [] })).body.msg).toContain('break-glass');
    const subId = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.sub])).rows[0].id;
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [subId] })).status).toBe(400); // not an administrator
    const on = await post('/api/sso/policy', { ssoRequired: true, breakGlass: [demoId] });
    expect(on.body.code, on.body.msg).toBe(0);

    // demo-sub (a sub-merchant's user: it follows its group) is refused after a right password — in Korean here.
    const pw = await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', headers: { 'accept-language': 'ko' }, payload: { username: DEMO.users.sub, password: DEMO.password } });
    expect(pw.body.code).toBe(Code.SSO_REQUIRED);
    expect(pw.body.msg).toContain('SSO로 로그인');
    // A wrong password is still just a wrong password (nothing told about SSO before it is proven).
    const wrong = await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.sub, password: 'Wrong1234' } });
    expect(wrong.body.code).toBe(Code.WRONG_PASSWORD);
    // No e-mailed code (the answer an e-mail account gets), no reset mail.
    ctx.clock.advance(61_000);
    const before = (await readOutbox(ctx.outbox)).length;
    const code = await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.sub } });
    expect(code.body.code).toBe(0);
    await ctx.call({ method: 'POST', url: '/api/user/forgotPassword', payload: { account: DEMO.users.sub } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await readOutbox(ctx.outbox)).length).toBe(before);
    // Break-glass: the named administrator signs in with password + code as before.
    const bg = await ctx.login(DEMO.users.demo);
    expect(bg.token).toBeTruthy();
    // SSO users still sign in through the provider.
    expect((await ssoSignIn('ken@corp.example')).token).toBeTruthy();
  });

  it('step-up of an SSO user (the refund password): confirmed by a fresh re-authentication at the provider for the same subject, never by a password it lacks or SSO refuses', async () => {
    const admins = (await get('/api/sso/config')).body.data.admins as { id: number; username: string }[];
    const demoId = admins.find((a) => a.username === DEMO.users.demo)!.id;
    const ken = (await ssoSignIn('ken@corp.example')).token!;
    expect((await get('/api/sso/step-up', ken)).body.data).toEqual({ sso: true, password: false, active: false });
    // The password step-up: told to confirm with the provider (in the user's language), no try counted.
    const pw = await post('/api/user/checkPassword', { password: 'Anything123' }, ken, 'zh');
    expect(pw.body.code).toBe(Code.STEP_UP_USE_SSO);
    expect(pw.body.msg).toContain('通过 SSO 确认');
    expect((await ctx.db.query<{ failed_logins: number }>("SELECT failed_logins FROM app_user WHERE email = 'ken@corp.example'")).rows[0].failed_logins).toBe(0);

    const startUp = async (token: string) => {
      const s = await ctx.call({ method: 'POST', url: '/api/sso/step-up/start', headers: auth(token) });
      expect(s.body.code, s.body.msg).toBe(0);
      return { url: new URL(s.body.data.url as string), cookie: cookieOf(s.headers['set-cookie']) };
    };
    const callback = async (url: URL, cookie?: string) => {
      const back = new URL(await idp.signIn(url.href));
      const cb = await ctx.call({ method: 'GET', url: `/api/sso/oidc/callback${back.search}`, headers: cookie ? { cookie } : {} });
      expect(cb.status).toBe(302);
      return String(cb.headers.location);
    };
    // The provider is asked to authenticate afresh.
    const a = await startUp(ken);
    expect(a.url.searchParams.get('prompt')).toBe('login');
    expect(a.url.searchParams.get('max_age')).toBe('0');
    // Another person at the provider (a colleague's account on the same browser): not this user's step-up.
    a.url.searchParams.set('login_hint', 'mei@corp.example');
    expect(await callback(a.url, a.cookie)).toBe('/api/sso/step-up/done?ok=0');
    // Brought to another browser: refused.
    const b = await startUp(ken);
    expect(await callback(b.url)).toBe('/login?sso=failed');
    expect((await get('/api/sso/step-up', ken)).body.data.active).toBe(false);
    // The same subject, fresh: this session (only) may refund for 5 minutes.
    const c = await startUp(ken);
    expect(await callback(c.url, c.cookie)).toBe('/api/sso/step-up/done?ok=1');
    expect((await get('/api/sso/step-up', ken)).body.data.active).toBe(true);
    const other = (await ssoSignIn('ken@corp.example')).token!;
    expect((await get('/api/sso/step-up', other)).body.data.active).toBe(false);
    const audits = (await ctx.db.query<{ outcome: string; detail: any }>("SELECT outcome, detail FROM audit_log WHERE action = 'sso.step_up' ORDER BY id")).rows;
    expect(audits.map((x) => [x.outcome, x.detail.reason ?? null])).toEqual([
      ['failure', 'other-subject'],
      ['success', null],
    ]);
    const page = await ctx.app.inject({ method: 'GET', url: '/api/sso/step-up/done?ok=1', headers: { 'accept-language': 'ja' } });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('ID プロバイダーで確認されました');
    // An old authentication at the provider (no fresh sign-in) grants nothing.
    const p = (await providerOf(ctx.db, DEMO.group))!;
    const kenId = (await ctx.db.query<{ id: number }>("SELECT id FROM app_user WHERE email = 'ken@corp.example'")).rows[0].id;
    const st = { userId: kenId, sessionId: 1, subject: 'sub-ken', startedAt: Date.now() };
    expect(
      await finishStepUp(ctx.deps, p, st, { subject: 'sub-ken', email: 'ken@corp.example', name: 'Ken', groups: ['portal-finance'] }, Date.now() - 3_600_000, {}, (id) =>
        provisionUser(ctx.deps, p, id, {}),
      ),
    ).toBe('/api/sso/step-up/done?ok=0');

    // A user not linked to the provider has nothing to confirm there; the break-glass administrator keeps its password.
    const demoTok = (await ctx.login(DEMO.users.demo)).token;
    expect((await ctx.call({ method: 'POST', url: '/api/sso/step-up/start', headers: auth(demoTok) })).status).toBe(400);
    expect((await get('/api/sso/step-up', demoTok)).body.data).toEqual({ sso: false, password: true, active: false });
    expect((await post('/api/user/checkPassword', { password: DEMO.password }, demoTok)).body.code).toBe(0);
    // A password user of the merchant requiring SSO (signed in before it was required): the password is no step-up.
    await post('/api/sso/policy', { ssoRequired: false, breakGlass: [demoId] });
    const sub = (await ctx.login(DEMO.users.sub)).token;
    await post('/api/sso/policy', { ssoRequired: true, breakGlass: [demoId] });
    const subPw = await post('/api/user/checkPassword', { password: DEMO.password }, sub, 'ko');
    expect(subPw.body.code).toBe(Code.STEP_UP_USE_SSO);
    expect(subPw.body.msg).toContain('SSO로 확인');
    expect((await get('/api/sso/step-up', sub)).body.data).toEqual({ sso: false, password: false, active: false });
    // Without a session: refused.
    expect((await ctx.call({ method: 'POST', url: '/api/sso/step-up/start' })).status).toBe(401);
  });

  it('"SSO required" holds on every other sign-in path — passkey, WeChat, e-mailed code, password reset — in four languages; break-glass excepted', async () => {
    const admins = (await get('/api/sso/config')).body.data.admins as { id: number; username: string }[];
    const demoId = admins.find((a) => a.username === DEMO.users.demo)!.id;
    const subId = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.sub])).rows[0].id;
    const policy = (on: boolean) => post('/api/sso/policy', { ssoRequired: on, breakGlass: [demoId] });
    const sessions = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_session WHERE user_id = $1', [subId])).rows[0].n;
    // demo-sub gets a passkey and starts a passkey sign-in while SSO is not yet required.
    await policy(false);
    const key = new SoftAuthenticator(ctx.config.passkey);
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await post('/api/user/checkPassword', { password: DEMO.password }, sub)).body.code).toBe(0);
    const reg = await post('/api/user/passkey/registerOptions', {}, sub);
    expect((await post('/api/user/passkey/register', { name: 'Key', credential: key.register(reg.body.data) }, sub)).body.code).toBe(0);
    const pending = await ctx.call({ method: 'POST', url: '/api/user/passkey/loginOptions', payload: { username: DEMO.users.sub, password: DEMO.password } });
    expect(pending.body.code, pending.body.msg).toBe(0);
    await policy(true);
    const before = await sessions();
    // Passkey: its options refused after the right password; the sign-in started before refused at its last step.
    const opts = await ctx.call({ method: 'POST', url: '/api/user/passkey/loginOptions', headers: { 'accept-language': 'ja' }, payload: { username: DEMO.users.sub, password: DEMO.password } });
    expect(opts.body.code).toBe(Code.SSO_REQUIRED);
    expect(opts.body.msg).toContain('SSO でサインイン');
    const late = await ctx.call({
      method: 'POST',
      url: '/api/user/passkey/login',
      headers: { 'accept-language': 'zh' },
      payload: { attempt: pending.body.data.attempt, credential: key.assert(pending.body.data.options) },
    });
    expect(late.body.code).toBe(Code.SSO_REQUIRED);
    expect(late.body.msg).toContain('使用 SSO 登录');
    // WeChat (bound, the provider's ticket in hand): refused before any code is e-mailed, and with a code.
    await ctx.db.query("UPDATE app_user SET wechat_openid = 'wx-sub' WHERE id = $1", [subId]);
    const mails = (await readOutbox(ctx.outbox)).length;
    const ticket = await createOAuthState(ctx.db, ctx.clock.now(), 'wechat-ticket', { userId: subId });
    const wx = await ctx.call({ method: 'POST', url: '/api/user/wechat/login', headers: { 'accept-language': 'en' }, payload: { ticket } });
    expect(wx.body.code).toBe(Code.SSO_REQUIRED);
    expect(wx.body.msg).toContain('Sign in with SSO');
    expect((await ctx.call({ method: 'POST', url: '/api/user/wechat/login', payload: { ticket, verifyCode: '123456' } })).body.code).toBe(Code.SSO_REQUIRED);
    // The password with the e-mailed code (one sent before: still refused), and a reset: no mail, no session.
    const pw = await ctx.call({ method: 'POST', url: '/api/user/login', headers: { 'accept-language': 'ko' }, payload: { username: DEMO.users.sub, password: DEMO.password, verifyCode: '123456' } });
    expect(pw.body.code).toBe(Code.SSO_REQUIRED);
    expect(pw.body.msg).toContain('SSO로 로그인');
    await ctx.call({ method: 'POST', url: '/api/user/forgotPassword', payload: { account: DEMO.users.sub } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await readOutbox(ctx.outbox)).length).toBe(mails);
    expect(await sessions()).toBe(before);
    // Break-glass: the administrator's WeChat sign-in goes on to its second factor.
    await ctx.db.query("UPDATE app_user SET wechat_openid = 'wx-demo' WHERE id = $1", [demoId]);
    ctx.clock.advance(61_000);
    const bg = await ctx.call({ method: 'POST', url: '/api/user/wechat/login', payload: { ticket: await createOAuthState(ctx.db, ctx.clock.now(), 'wechat-ticket', { userId: demoId }) } });
    expect(bg.body.code, bg.body.msg).toBe(0);
    expect(bg.body.data.secondFactor).toBe('email');
    await ctx.db.query('UPDATE app_user SET wechat_openid = NULL WHERE id = ANY($1::int[])', [[subId, demoId]]);
  });

  it('no lock-out: "SSO required" needs a break-glass administrator, and its last one may not be disabled, removed or made a non-administrator', async () => {
    const admins = (await get('/api/sso/config')).body.data.admins as { id: number; username: string }[];
    const demoId = admins.find((a) => a.username === DEMO.users.demo)!.id;
    // A second administrator of the group (activated here: its password is demo's).
    const add = await post('/api/user/add', { userName: 'bg-second', email: 'bg-second@demo.example', merIds: [DEMO.group], role: 'ADMIN' });
    expect(add.body.code, add.body.msg).toBe(0);
    const second = (
      await ctx.db.query<{ id: number }>("UPDATE app_user u SET status = 'ACTIVE', password_hash = d.password_hash FROM app_user d WHERE d.id = $1 AND u.username = 'bg-second' RETURNING u.id", [
        demoId,
      ])
    ).rows[0].id;
    // Saving "SSO required" with nobody, or only with someone who is not an active administrator: refused, nothing changed.
    const none = await post('/api/sso/policy', { ssoRequired: true, breakGlass: [] }, demo, 'ja');
    expect(none.status).toBe(400);
    expect(none.body.msg).toMatch(/緊急|ブレークグラス|break-glass/i);
    expect((await get('/api/sso/config')).body.data).toMatchObject({ ssoRequired: true, breakGlass: [demoId] });
    // Only the second administrator is break-glass: demo (still signed in) may not take its access away.
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [second] })).body.code).toBe(0);
    for (const [url, payload] of [
      ['/api/user/updateUserStatus', { userId: second, status: 'DISABLED' }],
      ['/api/user/remove', { userId: second }],
      ['/api/user/update', { userId: second, merIds: [DEMO.group], role: 'FINANCE' }],
    ] as const) {
      const r = await post(url, payload, demo, 'zh');
      expect(r.body.code, url).toBe(Code.LAST_ADMIN);
      expect(r.body.msg, url).toContain('最后一位应急管理员');
    }
    expect((await ctx.db.query<{ status: string; user_admin: boolean; removed_at: Date | null }>('SELECT status, user_admin, removed_at FROM app_user WHERE id = $1', [second])).rows[0]).toEqual({
      status: 'ACTIVE',
      user_admin: true,
      removed_at: null,
    });
    // With another break-glass administrator named, the change is allowed; SSO not required: too.
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [demoId, second] })).body.code).toBe(0);
    expect((await post('/api/user/updateUserStatus', { userId: second, status: 'DISABLED' })).body.code).toBe(0);
    // The list now holds a disabled administrator beside demo: saving it as it is is refused (not active).
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [demoId, second] })).status).toBe(400);
    expect((await post('/api/sso/policy', { ssoRequired: true, breakGlass: [demoId] })).body.code).toBe(0);
    await post('/api/sso/policy', { ssoRequired: false, breakGlass: [second] }).then((r) => expect(r.status).toBe(400));
    expect((await post('/api/user/remove', { userId: second })).body.code).toBe(0);
  });

  it('the back office sees the merchant using SSO and lifts "SSO required" with four eyes (the asker may not approve)', async () => {
    const a = await addOperator(ctx, 'sso-ops-a', 'support');
    const b = await addOperator(ctx, 'sso-ops-b', 'risk');
    const ro = await addOperator(ctx, 'sso-ops-ro', 'read-only');
    const ta = await opsLogin(ctx, 'sso-ops-a', a.secret);
    const tb = await opsLogin(ctx, 'sso-ops-b', b.secret);
    const tro = await opsLogin(ctx, 'sso-ops-ro', ro.secret);
    const list = await ctx.call({ method: 'GET', url: '/api/ops/sso/merchants', headers: auth(tro) });
    expect(list.body.data).toEqual([expect.objectContaining({ merId: DEMO.group, kind: 'oidc', ssoRequired: true, verifiedDomains: 1, pendingRequest: null })]);
    expect((await ctx.call({ method: 'POST', url: `/api/ops/sso/merchants/${DEMO.group}/requireOff`, headers: auth(tro), payload: { reason: 'locked out' } })).status).toBe(403);
    const req = await ctx.call({ method: 'POST', url: `/api/ops/sso/merchants/${DEMO.group}/requireOff`, headers: auth(ta), payload: { reason: 'IdP certificate expired, merchant locked out' } });
    expect(req.body.code, req.body.msg).toBe(0);
    const twice = await ctx.call({ method: 'POST', url: `/api/ops/sso/merchants/${DEMO.group}/requireOff`, headers: auth(tb), payload: { reason: 'again' } });
    expect(twice.status).toBe(409);
    const own = await ctx.call({ method: 'POST', url: `/api/ops/sso/requests/${req.body.data.id}/approve`, headers: auth(ta) });
    expect(own.status).toBe(403);
    const ok = await ctx.call({ method: 'POST', url: `/api/ops/sso/requests/${req.body.data.id}/approve`, headers: auth(tb) });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect((await get('/api/sso/config')).body.data.ssoRequired).toBe(false);
    const audits = (await ctx.db.query<{ action: string; operator_id: number }>("SELECT action, operator_id FROM audit_log WHERE action LIKE 'ops.sso.%' ORDER BY id")).rows;
    expect(audits).toEqual([
      { action: 'ops.sso.require_off.request', operator_id: a.id },
      { action: 'ops.sso.require_off.decide', operator_id: b.id },
    ]);
    // demo-sub signs in with its password again.
    expect((await ctx.login(DEMO.users.sub)).token).toBeTruthy();
  });

  it("missing team:sso:manage: refused; another merchant's mapping and domain: absent", async () => {
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await get('/api/sso/config', sub)).status).toBe(403);
    const other = (await ctx.login(DEMO.users.other)).token;
    const cfg = (await get('/api/sso/config')).body.data;
    expect((await post('/api/sso/mapping/remove', { id: cfg.mappings[0].id }, other)).status).toBe(404);
    expect((await post('/api/sso/domain/verify', { id: cfg.domains[0].id }, other)).status).toBe(404);
    expect((await post('/api/sso/domain/remove', { id: cfg.domains[0].id }, other)).status).toBe(404);
    expect((await get('/api/sso/config', other)).body.data).toMatchObject({ merId: DEMO.other, provider: null, mappings: [], domains: [] });
  });
});
