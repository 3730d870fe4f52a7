import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';

describe.each(DB_KINDS)('sign-in on %s', (kind) => {
  let ctx: TestCtx;
  beforeEach(async () => {
    ctx = await createTestApp({ kind });
  });
  afterEach(() => ctx.close());

  const sendCode = (username: string, lang = 'en') =>
    ctx.call({ method: 'POST', url: '/api/user/getEmailCode', headers: { 'accept-language': lang, ...form({ username }).headers }, payload: form({ username }).payload });
  const login = (username: string, password: string, verifyCode: string, lang = 'en') =>
    ctx.call({ method: 'POST', url: '/api/user/login', headers: { 'accept-language': lang, ...form({}).headers }, payload: form({ username, password, verifyCode }).payload });
  const auditActions = async (username: string) =>
    (await ctx.db.query<{ action: string; outcome: string }>('SELECT action, outcome FROM audit_log WHERE username = $1 ORDER BY id', [username])).rows;

  it('e-mails a 6-digit code and signs in with it', async () => {
    const sent = await sendCode(DEMO.users.demo);
    expect(sent.body).toMatchObject({ code: 0, data: { resendAfter: 60, expiresIn: 300 } });
    const code = await ctx.lastCode('demo@demo-group.example');
    expect(code).toMatch(/^\d{6}$/);
    const res = await login(DEMO.users.demo, DEMO.password, code);
    expect(res.body.code).toBe(0);
    expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(res.body.data.refreshToken).not.toBe(res.body.data.token);
    expect(await auditActions(DEMO.users.demo)).toContainEqual({ action: 'auth.login', outcome: 'success' });
    const pw = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE username = $1', [DEMO.users.demo]);
    expect(pw.rows[0].password_hash).toMatch(/^\$argon2id\$/);
    // tokens are stored hashed only
    const stored = await ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM access_token');
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(res.body.data.token);
  });

  it('answers each sign-in error with its own message, in the caller\'s language', async () => {
    expect((await sendCode('nobody-here')).body).toMatchObject({ code: Code.USER_NOT_EXIST, msg: 'User does not exist' });
    expect((await sendCode('nobody-here', 'zh')).body.msg).toBe('用户不存在');
    expect((await sendCode('bad name!')).body).toMatchObject({ code: Code.INVALID_USERNAME, msg: 'Invalid user name' });
    expect((await sendCode('x', 'ja')).body.msg).toBe('ユーザー名が無効です');
    await ctx.db.query(`UPDATE app_user SET status = 'INACTIVE' WHERE username = $1`, [DEMO.users.sub]);
    expect((await login(DEMO.users.sub, DEMO.password, '123456', 'ko')).body).toMatchObject({ code: Code.USER_NOT_ACTIVATED, msg: '사용자가 활성화되지 않았습니다. 이메일을 확인하세요' });
    const missing = await ctx.call({ method: 'POST', url: '/api/user/login', ...form({ username: 'demo' }) });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(Code.BAD_REQUEST);
  });

  it('refuses a new code within 60 s and allows it after', async () => {
    await sendCode(DEMO.users.demo);
    const again = await sendCode(DEMO.users.demo);
    expect(again.body.code).toBe(Code.CODE_RESEND_TOO_SOON);
    expect(again.body.msg).toMatch(/60 second/);
    ctx.clock.advance(61_000);
    expect((await sendCode(DEMO.users.demo)).body.code).toBe(0);
  });

  it('checks the password before the code and tells the chances left', async () => {
    await sendCode(DEMO.users.demo);
    const res = await login(DEMO.users.demo, 'wrong-pass1', '000000');
    expect(res.body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: 'Wrong password, 4 chance(s) remaining', data: { remaining: 4 } });
    const code = await ctx.lastCode();
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await login(DEMO.users.demo, DEMO.password, wrongCode)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect((await login(DEMO.users.demo, DEMO.password, code)).body.code).toBe(0);
  });

  it('locks the user for 30 minutes after 5 wrong passwords, whatever code came with them', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    for (let i = 4; i >= 1; i--) {
      expect((await login(DEMO.users.demo, `nope${i}abc`, code)).body.data).toEqual({ remaining: i });
    }
    const fifth = await login(DEMO.users.demo, 'nope0abc', code);
    expect(fifth.body.code).toBe(Code.USER_LOCKED);
    // even the right password is refused while locked
    const locked = await login(DEMO.users.demo, DEMO.password, code);
    expect(locked.body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minute(s)' });
    expect(await auditActions(DEMO.users.demo)).toContainEqual({ action: 'auth.lockout', outcome: 'failure' });
    ctx.clock.advance(31 * 60_000);
    await sendCode(DEMO.users.demo);
    expect((await login(DEMO.users.demo, DEMO.password, await ctx.lastCode())).body.code).toBe(0);
  });

  it('counts concurrent wrong passwords without losing any', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => login(DEMO.users.demo, `wrong-${i}-pw`, '000000')));
    const remaining = results.filter((r) => r.body.code === Code.WRONG_PASSWORD).map((r) => r.body.data.remaining).sort();
    expect(remaining).toEqual([1, 2, 3, 4]);
    expect(results.filter((r) => r.body.code === Code.USER_LOCKED)).toHaveLength(1);
  });

  it('expires a code after 5 minutes and kills it after 5 wrong tries', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    ctx.clock.advance(5 * 60_000 + 1000);
    expect((await login(DEMO.users.demo, DEMO.password, code)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    await sendCode(DEMO.users.demo);
    const fresh = await ctx.lastCode();
    const wrong = fresh === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) expect((await login(DEMO.users.demo, DEMO.password, wrong)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect((await login(DEMO.users.demo, DEMO.password, fresh)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    // a correct password with a wrong code does not count toward the lockout
    const u = await ctx.db.query<{ failed_logins: number }>('SELECT failed_logins FROM app_user WHERE username = $1', [DEMO.users.demo]);
    expect(u.rows[0].failed_logins).toBe(0);
  });

  it('reports a mail that could not be sent and withdraws the code', async () => {
    const failing = await createTestApp({ kind, smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const res = await failing.call({ method: 'POST', url: '/api/user/getEmailCode', ...form({ username: DEMO.users.demo }) });
      expect(res.body).toMatchObject({ code: Code.SEND_MAIL_FAILED, msg: 'Send mail failed' });
      const n = await failing.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code');
      expect(n.rows[0].n).toBe(0);
    } finally {
      await failing.close();
    }
  });
});
