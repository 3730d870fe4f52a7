import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { startFakeWechat, type FakeWechat } from '../../../test/fake-wechat';
import { readSmsOutbox, smsOutboxDir } from './sms';
import { newTotpSecret, totpFor } from '../user/totp';
import { readOutbox } from '../../plugins/mail';

/** A small SMS provider: records what it gets; answers 500 while `fail` is set. */
async function startSmsReceiver() {
  const got: { to: string; text: string }[] = [];
  const state = { fail: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (state.fail) {
        res.writeHead(500);
        return res.end();
      }
      got.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`, got, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(DB_KINDS)('security page calls on %s', (kind) => {
  let ctx: TestCtx;
  let fake: FakeWechat;
  let sms: Awaited<ReturnType<typeof startSmsReceiver>>;
  beforeAll(async () => {
    fake = await startFakeWechat();
    sms = await startSmsReceiver();
  });
  afterAll(async () => {
    await fake.close();
    await sms.close();
  });
  beforeEach(async () => {
    ctx = await createTestApp({ kind, config: { wechat: fake.config } });
  });
  afterEach(() => ctx.close());

  const post = (url: string, token: string | null, payload: object = {}, lang = 'en') =>
    ctx.call({ method: 'POST', url, payload, headers: { ...(token ? { 'x-token': token } : {}), 'accept-language': lang } });
  const get = (url: string, token: string | null) => ctx.call({ method: 'GET', url, headers: token ? { 'x-token': token } : {} });
  const lastSms = () => /\b(\d{6})\b/.exec(readSmsOutbox(smsOutboxDir(ctx.deps))[0].text)![1];

  it('phone: SMS code to the dev outbox, binds, shown masked; bad number, wrong code, resend wait, taken number', async () => {
    const { token } = await ctx.login(DEMO.users.sub);
    expect((await post('/api/user/phone/code', token, { phone: '13812345678' })).status).toBe(400);
    expect((await post('/api/user/phone/code', token, { phone: '+8613812345678' })).body).toMatchObject({ code: 0, data: { resendAfter: 60, expiresIn: 300 } });
    const code = lastSms();
    expect(readSmsOutbox(smsOutboxDir(ctx.deps))[0].to).toBe('+8613812345678');
    expect((await post('/api/user/phone/code', token, { phone: '+8613812345678' })).body.code).toBe(Code.CODE_RESEND_TOO_SOON);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await post('/api/user/phone/bind', token, { phone: '+8613812345678', code: wrong }, 'zh')).body).toMatchObject({ code: Code.VERIFY_CODE_ERROR, msg: '验证码错误' });
    expect((await post('/api/user/phone/bind', token, { phone: '+8613812345678', code })).body).toMatchObject({ code: 0, data: { phone: '+861******5678' } });
    expect((await post('/api/user/phone/bind', token, { phone: '+8613812345678', code })).body.code).toBe(Code.VERIFY_CODE_ERROR); // used
    expect((await get('/api/user/security', token)).body.data.phone).toBe('+861******5678');
    // another user cannot take it
    const demo = await ctx.login(DEMO.users.demo);
    expect((await post('/api/user/phone/code', demo.token, { phone: '+8613812345678' })).body).toMatchObject({ code: Code.PHONE_CANNOT_BIND, msg: 'Phone number cannot be bound' });
    const audit = await ctx.db.query<{ action: string; detail: { phone: string } }>(`SELECT action, detail FROM audit_log WHERE action = 'account.phone.bound' AND outcome = 'success'`);
    expect(audit.rows[0].detail.phone).toBe('+861******5678');
  });

  it('phone: 5 wrong codes kill the code; an expired code is refused', async () => {
    const { token } = await ctx.login(DEMO.users.sub);
    await post('/api/user/phone/code', token, { phone: '+85255550101' });
    const code = lastSms();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await post('/api/user/phone/bind', token, { phone: '+85255550101', code: wrong });
    expect((await post('/api/user/phone/bind', token, { phone: '+85255550101', code })).body.code).toBe(Code.VERIFY_CODE_ERROR);
    ctx.clock.advance(61_000);
    await post('/api/user/phone/code', token, { phone: '+85255550101' });
    const c2 = lastSms();
    ctx.clock.advance(301_000);
    expect((await post('/api/user/phone/bind', token, { phone: '+85255550101', code: c2 })).body.code).toBe(Code.VERIFY_CODE_ERROR);
  });

  it('phone: through the HTTP provider (SMS_URL) to a real local receiver; a failing provider says so', async () => {
    const app2 = await createTestApp({ kind, config: { smsUrl: sms.url } });
    try {
      const { token } = await app2.login(DEMO.users.sub);
      const send = () => app2.call({ method: 'POST', url: '/api/user/phone/code', headers: { 'x-token': token }, payload: { phone: '+819012345678' } });
      expect((await send()).body.code).toBe(0);
      expect(sms.got.at(-1)!.to).toBe('+819012345678');
      expect(sms.got.at(-1)!.text).toMatch(/verification code is \d{6}/);
      sms.state.fail = true;
      app2.clock.advance(61_000);
      expect((await send()).body.code).toBe(Code.SERVER_ERROR);
      sms.state.fail = false;
      expect((await send()).body.code).toBe(0); // the failed one did not start a wait
    } finally {
      await app2.close();
    }
  });

  /** The browser half of a WeChat round trip: the cookie the start call set (login CSRF, issue 28). */
  const browserOf = (res: { headers: Record<string, unknown> }) => {
    const c = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []).find((x) => x.startsWith('mp_wx='));
    expect(c, 'the start sets the browser cookie').toBeDefined();
    expect(c).toMatch(/HttpOnly/);
    expect(c).toMatch(/SameSite=Lax/);
    return c!.split(';')[0];
  };
  /** Starts a round trip (bind or sign-in) through the fake provider: WeChat's way back, and this browser's cookie. */
  const roundTrip = async (start: string, token: string | null) => {
    const res = await get(start, token);
    const cookie = browserOf(res);
    const back = new URL((await fetch(res.body.data.url, { redirect: 'manual' })).headers.get('location')!);
    return { path: `${back.pathname}${back.search}`, cookie, back };
  };
  const callback = (path: string, cookie?: string) => ctx.call({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  const ticketOf = (location: unknown) => /wechatTicket=([A-Za-z0-9_-]+)/.exec(String(location))![1];

  it('WeChat: bind through the fake provider (state checked), then sign in with WeChat and the e-mailed code; an unbound account is told to bind first', async () => {
    const { token } = await ctx.login(DEMO.users.sub);
    expect((await get('/api/user/wechat/available', null)).body.data).toEqual({ available: true });
    const first = await roundTrip('/api/user/wechat/bindUrl', token);
    // a forged state is refused
    const forged = await callback(`/api/user/wechat/callback?code=${first.back.searchParams.get('code')}&state=forged-state-000000000000`, first.cookie);
    expect(forged.headers.location).toBe('/login?wechat=failed');
    fake.user = { openid: 'o-sub-1', unionid: 'u-sub-1', nickname: '店员小王' };
    const b2 = await roundTrip('/api/user/wechat/bindUrl', token);
    const cb = await callback(b2.path, b2.cookie);
    expect(cb.status).toBe(302);
    expect(cb.headers.location).toBe('/user/security?wechat=bound');
    expect(String(cb.headers['set-cookie'])).toMatch(/mp_wx=;.*Max-Age=0/);
    // the same state again: refused (single use)
    expect((await callback(b2.path, b2.cookie)).headers.location).toBe('/login?wechat=failed');
    expect((await get('/api/user/security', token)).body.data.wechat).toEqual({ available: true, bound: true, nickname: '店员小王' });

    // sign in with WeChat: the ticket alone starts no session; the user's second factor is asked, as after a password
    const l = await roundTrip('/api/user/wechat/loginUrl', null);
    const ticket = ticketOf((await callback(l.path, l.cookie)).headers.location);
    const asked = await post('/api/user/wechat/login', null, { ticket });
    expect(asked.body).toMatchObject({ code: 0, data: { secondFactor: 'email', resendAfter: 60 } });
    expect(asked.body.data.token).toBeUndefined();
    const code = await ctx.lastCode('demo-sub@');
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await post('/api/user/wechat/login', null, { ticket, verifyCode: wrong })).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const pair = await post('/api/user/wechat/login', null, { ticket, verifyCode: code });
    expect(pair.body.code, pair.body.msg).toBe(0);
    expect((await get('/api/user/info', pair.body.data.token)).body.data.username).toBe(DEMO.users.sub);
    expect((await post('/api/user/wechat/login', null, { ticket, verifyCode: code })).body).toMatchObject({ code: Code.WECHAT_LOGIN_FAILED, msg: 'Wechat login failed, bind first' });

    // another WeChat account, not bound
    fake.user = { openid: 'o-stranger', nickname: 'stranger' };
    const l3 = await roundTrip('/api/user/wechat/loginUrl', null);
    expect((await callback(l3.path, l3.cookie)).headers.location).toBe('/login?wechat=failed');
    // the bound openid cannot be bound to a second user
    fake.user = { openid: 'o-sub-1', nickname: 'again' };
    const demo = await ctx.login(DEMO.users.demo);
    const l4 = await roundTrip('/api/user/wechat/bindUrl', demo.token);
    expect((await callback(l4.path, l4.cookie)).headers.location).toBe('/user/security?wechat=bind-failed');
    const acts = (await ctx.db.query<{ action: string; outcome: string }>(`SELECT action, outcome FROM audit_log WHERE action LIKE 'account.wechat%' OR detail->>'via' = 'wechat'`)).rows;
    expect(acts).toContainEqual({ action: 'account.wechat.bound', outcome: 'success' });
    expect(acts).toContainEqual({ action: 'auth.login', outcome: 'success' });
  });

  it('WeChat login CSRF: a state finishes only in the browser that started it (issue 28)', async () => {
    fake.user = { openid: 'o-sub-csrf', nickname: 'attacker' };
    await ctx.db.query(`UPDATE app_user SET wechat_openid = 'o-sub-csrf' WHERE username = $1`, [DEMO.users.sub]);
    // The attacker starts a sign-in in its own browser and plants WeChat's way back in the victim's.
    const attacker = await roundTrip('/api/user/wechat/loginUrl', null);
    const victim = browserOf(await get('/api/user/wechat/loginUrl', null));
    for (const cookie of [undefined, victim, 'mp_wx=forged-value-00000000000000']) {
      const r = await callback(attacker.path, cookie);
      expect(r.headers.location, String(cookie)).toBe('/login?wechat=failed');
    }
    // the state was used up by the first try: not even the attacker's own browser finishes it now
    expect((await callback(attacker.path, attacker.cookie)).headers.location).toBe('/login?wechat=failed');
    const why = await ctx.db.query<{ detail: { reason: string } }>(`SELECT detail FROM audit_log WHERE action = 'auth.login.wechat' AND outcome = 'failure' ORDER BY id`);
    expect(why.rows[0].detail.reason).toBe('other-browser');
    // binding too
    const { token } = await ctx.login(DEMO.users.demo);
    const bind = await roundTrip('/api/user/wechat/bindUrl', token);
    expect((await callback(bind.path, victim)).headers.location).toBe('/user/security?wechat=bind-failed');
    // the same browser: a ticket
    const ok = await roundTrip('/api/user/wechat/loginUrl', null);
    expect(String((await callback(ok.path, ok.cookie)).headers.location)).toMatch(/^\/login\?wechatTicket=/);
  });

  it('WeChat sign-in of a user with TOTP asks for the authenticator code; a wrong one counts toward the lockout (issue 28)', async () => {
    const secret = newTotpSecret();
    await ctx.db.query(`UPDATE app_user SET wechat_openid = 'o-totp', totp_secret = $2, totp_enabled_at = now() WHERE username = $1`, [DEMO.users.sub, secret]);
    fake.user = { openid: 'o-totp', nickname: 'totp user' };
    const l = await roundTrip('/api/user/wechat/loginUrl', null);
    const ticket = ticketOf((await callback(l.path, l.cookie)).headers.location);
    const mails = (await readOutbox(ctx.outbox)).length;
    expect((await post('/api/user/wechat/login', null, { ticket })).body).toMatchObject({ code: 0, data: { secondFactor: 'totp' } });
    expect((await readOutbox(ctx.outbox)).length, 'no e-mailed code for a TOTP user').toBe(mails);
    const now = ctx.clock.now().getTime();
    const right = totpFor(secret, 'x').generate({ timestamp: now });
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await post('/api/user/wechat/login', null, { ticket, verifyCode: wrong })).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const failed = await ctx.db.query<{ failed_logins: number }>('SELECT failed_logins FROM app_user WHERE username = $1', [DEMO.users.sub]);
    expect(failed.rows[0].failed_logins).toBe(1);
    const pair = await post('/api/user/wechat/login', null, { ticket, verifyCode: right });
    expect(pair.body.code, pair.body.msg).toBe(0);
    expect(pair.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ok = await ctx.db.query<{ detail: unknown }>(`SELECT detail FROM audit_log WHERE action = 'auth.login' AND username = $1 ORDER BY id DESC LIMIT 1`, [DEMO.users.sub]);
    expect(ok.rows[0].detail).toEqual({ factor: 'totp', via: 'wechat' });
  });

  it('WeChat unconfigured: hidden and refused', async () => {
    const app2 = await createTestApp({ kind });
    try {
      expect((await app2.call({ method: 'GET', url: '/api/user/wechat/available' })).body.data).toEqual({ available: false });
      expect((await app2.call({ method: 'GET', url: '/api/user/wechat/loginUrl' })).status).toBe(404);
    } finally {
      await app2.close();
    }
  });

  it('TOTP: enrol with a code, ten recovery codes once; sign-in asks the authenticator, not the mail; recovery code works once; disable needs password + code', async () => {
    const { token } = await ctx.login(DEMO.users.sub);
    const setup = await post('/api/user/totp/setup', token);
    expect(setup.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Merchant%20Portal:demo-sub\?/);
    const secret = setup.body.data.secret as string;
    const codeAt = (ms = ctx.clock.now().getTime()) => totpFor(secret, 'x').generate({ timestamp: ms });
    expect((await post('/api/user/totp/enable', token, { code: '12345' })).status).toBe(400);
    const bad = codeAt() === '000000' ? '111111' : '000000';
    expect((await post('/api/user/totp/enable', token, { code: bad })).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const en = await post('/api/user/totp/enable', token, { code: codeAt() });
    expect(en.body.code).toBe(0);
    const codes = en.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await ctx.db.query<{ code_hash: string }>('SELECT code_hash FROM totp_recovery_code');
    expect(stored.rows.map((r) => r.code_hash)).not.toContain(codes[0]);
    expect((await get('/api/user/security', token)).body.data.totp).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });

    ctx.clock.advance(61_000);
    const sent = await post('/api/user/getEmailCode', null, { username: DEMO.users.sub, password: DEMO.password });
    expect(sent.body.data).toMatchObject({ totp: true });
    const login = (verifyCode: string) => post('/api/user/login', null, { username: DEMO.users.sub, password: DEMO.password, verifyCode });
    expect((await login(bad)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    ctx.clock.advance(30_000);
    const c = codeAt();
    expect((await login(c)).body.code).toBe(0);
    expect((await login(c)).body.code).toBe(Code.TOTP_CODE_USED); // no replay of a code (told so: issue 46)
    expect((await login(codes[0])).body.code).toBe(0);
    expect((await login(codes[0])).body.code).toBe(Code.VERIFY_CODE_ERROR); // single use
    expect((await get('/api/user/security', token)).body.data.totp.recoveryCodesLeft).toBe(9);

    ctx.clock.advance(30_000);
    expect((await post('/api/user/totp/disable', token, { password: 'Wrong1234', code: codeAt() })).body.code).toBe(Code.PASSWORD_INCORRECT);
    expect((await post('/api/user/totp/disable', token, { password: DEMO.password, code: bad })).body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect((await post('/api/user/totp/disable', token, { password: DEMO.password, code: codeAt() })).body.code).toBe(0);
    expect((await get('/api/user/security', token)).body.data.totp.enabled).toBe(false);
    const acts = (await ctx.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE username = $1 AND outcome = 'success'`, [DEMO.users.sub])).rows.map((r) => r.action);
    expect(acts).toEqual(expect.arrayContaining(['account.totp.enabled', 'account.totp.recovery_used', 'account.totp.disabled']));
  });

  it('TOTP: mid-enrolment the mail code still signs in; five wrong authenticator codes lock for 30 minutes and end the sessions; the audit says how', async () => {
    const bystander = (await ctx.login(DEMO.users.demo)).token;
    const { token } = await ctx.login(DEMO.users.sub);
    const setup = await post('/api/user/totp/setup', token);
    const secret = setup.body.data.secret as string;
    const codeAt = (ms = ctx.clock.now().getTime()) => totpFor(secret, 'x').generate({ timestamp: ms });
    // Set up but not confirmed: the e-mailed code is still the second factor.
    ctx.clock.advance(61_000);
    expect((await post('/api/user/getEmailCode', null, { username: DEMO.users.sub })).body.data).toMatchObject({ totp: false });
    const earlier = (await ctx.login(DEMO.users.sub)).token;
    expect(earlier).toBeTruthy();
    // That session is signed out before the lockout: its reason stays 'logout' (the lockout ends only open ones).
    expect((await post('/api/user/logout', earlier)).body.code).toBe(0);
    const en = await post('/api/user/totp/enable', token, { code: codeAt() });
    expect(en.body.code).toBe(0);
    const recovery = (en.body.data.recoveryCodes as string[])[0];
    const login = (verifyCode: string) => post('/api/user/login', null, { username: DEMO.users.sub, password: DEMO.password, verifyCode });
    const bad = codeAt() === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await login(bad)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const fifth = await login(bad);
    expect(fifth.body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minutes' });
    const u = await ctx.db.query<{ locked_until: Date; failed_logins: number }>('SELECT locked_until, failed_logins FROM app_user WHERE username = $1', [DEMO.users.sub]);
    expect(new Date(u.rows[0].locked_until).getTime() - ctx.clock.now().getTime()).toBe(30 * 60_000);
    expect(u.rows[0].failed_logins).toBe(5);
    expect((await get('/api/user/info', token)).body.code).toBe(Code.SESSION_ENDED);
    const ended = await ctx.db.query<{ r: string }>(`SELECT DISTINCT revoke_reason AS r FROM user_session s JOIN app_user u ON u.id = s.user_id WHERE u.username = $1 ORDER BY 1`, [DEMO.users.sub]);
    expect(ended.rows).toEqual([{ r: 'lockout' }, { r: 'logout' }]);
    // only the locked user's: another user's session goes on
    expect((await get('/api/user/info', bystander)).body.code).toBe(0);
    const fails = await ctx.db.query<{ action: string; detail: unknown }>(
      `SELECT action, detail FROM audit_log WHERE username = $1 AND outcome = 'failure' AND action IN ('auth.login.failure', 'auth.lockout') ORDER BY id`,
      [DEMO.users.sub],
    );
    expect(fails.rows.slice(0, 2)).toEqual([
      { action: 'auth.login.failure', detail: { reason: 'totp' } },
      { action: 'auth.login.failure', detail: { reason: 'wrong-password', where: 'totp', failed: 1 } },
    ]);
    expect(fails.rows.at(-1)).toEqual({ action: 'auth.lockout', detail: { minutes: 30, where: 'totp' } });
    // After the lock: the authenticator, then a recovery code; the audit names the factor used.
    ctx.clock.advance(31 * 60_000);
    const recoveryUsed = async () =>
      (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE username = $1 AND action = 'account.totp.recovery_used'`, [DEMO.users.sub])).rows[0].n;
    expect((await login(codeAt())).body.code).toBe(0);
    expect(await recoveryUsed()).toBe(0);
    expect((await login(recovery)).body.code).toBe(0);
    expect(await recoveryUsed()).toBe(1);
    // A wrong authenticator code counts; the next right one clears the count.
    const failed = async () => (await ctx.db.query<{ n: number }>('SELECT failed_logins AS n FROM app_user WHERE username = $1', [DEMO.users.sub])).rows[0].n;
    ctx.clock.advance(30_000);
    const wrong = codeAt() === '000000' ? '111111' : '000000';
    expect((await login(wrong)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect(await failed()).toBe(1);
    expect((await login(codeAt())).body.code).toBe(0);
    expect(await failed()).toBe(0);
    const factors = await ctx.db.query<{ f: string }>(`SELECT detail->>'factor' AS f FROM audit_log WHERE username = $1 AND action = 'auth.login' AND detail ? 'factor' ORDER BY id`, [DEMO.users.sub]);
    expect(factors.rows.map((r) => r.f)).toEqual(['totp', 'recovery', 'totp']);
  });

  it('merchant setting (main user only): users without TOTP may only reach the account calls until they enrol', async () => {
    const sub = await ctx.login(DEMO.users.sub);
    expect((await post('/api/user/requireTotp', sub.token, { require: true })).status).toBe(403);
    const demo = await ctx.login(DEMO.users.demo);
    expect((await post('/api/user/requireTotp', demo.token, { require: 'maybe' })).status).toBe(400);
    expect((await post('/api/user/requireTotp', demo.token, { require: true })).body.data).toEqual({ require: true });
    const again = await ctx.login(DEMO.users.sub); // a sub-merchant of the group
    expect((await get('/api/user/info', again.token)).body.data.mustEnrolTotp).toBe(true);
    const blocked = await get('/api/txn/list?page=0&size=10', again.token);
    expect(blocked.body.code).toBe(Code.TOTP_REQUIRED);
    const setup = await post('/api/user/totp/setup', again.token);
    await post('/api/user/totp/enable', again.token, { code: totpFor(setup.body.data.secret, 'x').generate({ timestamp: ctx.clock.now().getTime() }) });
    expect((await get('/api/user/info', again.token)).body.data.mustEnrolTotp).toBe(false);
    expect((await get('/api/txn/list?page=0&size=10', again.token)).body.code).not.toBe(Code.TOTP_REQUIRED);
    // the other merchant is not affected
    const other = await ctx.login(DEMO.users.other);
    expect((await get('/api/user/info', other.token)).body.data.mustEnrolTotp).toBe(false);
  });

  it("sessions: list with device and address, sign out one, another user's session is 404, sign out all others; history lists sign-ins", async () => {
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
    const a = await ctx.login(DEMO.users.sub);
    await ctx.call({ method: 'POST', url: '/api/user/login', payload: { username: DEMO.users.sub, password: 'Wrong9999', verifyCode: '000000' } });
    ctx.clock.advance(61_000);
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.sub } });
    const code = await ctx.lastCode();
    const b = (
      await ctx.call({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'user-agent': ua },
        remoteAddress: '203.0.113.9',
        payload: { username: DEMO.users.sub, password: DEMO.password, verifyCode: code },
      })
    ).body.data;
    const c = await ctx.login(DEMO.users.sub);
    const list = (await get('/api/user/sessions', a.token)).body.data as { id: number; device: string; ip: string; current: boolean; startedAt: string }[];
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const phone = list.find((s) => s.ip === '203.0.113.9')!;
    expect(phone.device).toMatch(/Safari 17.*iOS.*mobile/);
    expect(phone.startedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await post('/api/user/sessions/revoke', a.token, { id: phone.id })).body.code).toBe(0);
    expect((await get('/api/user/info', b.token)).body.code).toBe(Code.SESSION_ENDED);
    const other = await ctx.login(DEMO.users.demo);
    const otherId = (await get('/api/user/sessions', other.token)).body.data[0].id;
    expect((await post('/api/user/sessions/revoke', a.token, { id: otherId })).status).toBe(404);
    expect((await post('/api/user/sessions/revoke', a.token, { id: 'x' })).status).toBe(400);
    expect((await get('/api/user/info', other.token)).body.code).toBe(0);
    expect((await post('/api/user/sessions/revokeOthers', a.token)).body.data).toEqual({ ended: 1 });
    expect((await get('/api/user/info', c.token)).body.code).toBe(Code.SESSION_ENDED);
    expect((await get('/api/user/info', a.token)).body.code).toBe(0);
    const hist = (await get('/api/user/loginHistory', a.token)).body.data as { event: string; reason: string }[];
    expect(hist.filter((h) => h.event === 'login')).toHaveLength(3);
    expect(hist).toContainEqual(expect.objectContaining({ event: 'failure', reason: 'wrong-password' }));
    expect((await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'account.session.revoked'`)).rows).toHaveLength(2);
    expect((await get('/api/user/sessions', null)).status).toBe(401);
  });
});
