import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { passwordWork } from '../../lib/crypto';
import { checkPassword, completeSecondFactor, findUser, hasStepUp, sendEmailCode, verifyPasswordCounted } from './login.service';
import { totpFor } from './totp';

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
  const auditActions = async (username: string) => (await ctx.db.query<{ action: string; outcome: string }>('SELECT action, outcome FROM audit_log WHERE username = $1 ORDER BY id', [username])).rows;

  /** Enrols an authenticator for a signed-in user; answers the code of the clock's now (and the step the enable used). */
  async function enrolTotp(username: string) {
    const { token } = await ctx.login(username);
    const setup = await ctx.call({ method: 'POST', url: '/api/user/totp/setup', headers: { 'x-token': token } });
    const secret = setup.body.data.secret as string;
    const codeAt = () => totpFor(secret, 'x').generate({ timestamp: ctx.clock.now().getTime() });
    const activation = codeAt();
    const en = await ctx.call({ method: 'POST', url: '/api/user/totp/enable', headers: { 'x-token': token }, payload: { code: activation } });
    expect(en.body.code, en.body.msg).toBe(0);
    return { codeAt, activation };
  }

  it('a TOTP user cannot be told apart before the password is right: an unknown name, an e-mail user and a TOTP user answer alike (issue 47)', async () => {
    await enrolTotp(DEMO.users.sub);
    ctx.clock.advance(61_000);
    const names = ['nobody-here', DEMO.users.demo, DEMO.users.sub];
    const call = (url: string, payload: Record<string, string>) => ctx.call({ method: 'POST', url, headers: { 'accept-language': 'ko' }, payload });
    const alike = async (label: string, ask: (name: string) => Promise<{ body: unknown }>) => {
      const bodies = [];
      for (const n of names) {
        const { requestId: _, ...body } = (await ask(n)).body as Record<string, unknown>;
        bodies.push(body);
      }
      expect(bodies[1], `${label}: an unknown name`).toEqual(bodies[0]);
      expect(bodies[2], `${label}: a TOTP user`).toEqual(bodies[0]);
      return bodies[0] as { code: number; data: unknown };
    };
    // "Send code" without the password: the answer an e-mail account gets, for all three.
    expect(await alike('send code', (n) => call('/api/user/getEmailCode', { username: n }))).toMatchObject({ code: 0, data: { resendAfter: 60, expiresIn: 300, totp: false } });
    expect(await alike('send code again', (n) => call('/api/user/getEmailCode', { username: n }))).toMatchObject({ code: Code.CODE_RESEND_TOO_SOON, data: { wait: 60 } });
    // With a wrong password, as the screen sends it, and at the sign-in itself: the same wrong-password answer.
    expect(await alike('send code, wrong password', (n) => call('/api/user/getEmailCode', { username: n, password: 'wrong-pass1' }))).toMatchObject({
      code: Code.WRONG_PASSWORD,
      data: { remaining: 4 },
    });
    expect(await alike('sign-in, wrong password', (n) => call('/api/user/login', { username: n, password: 'wrong-pass1', verifyCode: '123456' }))).toMatchObject({
      code: Code.WRONG_PASSWORD,
      data: { remaining: 3 },
    });
    // The password proven: now the factor is named.
    ctx.clock.advance(61_000);
    expect((await call('/api/user/getEmailCode', { username: DEMO.users.sub, password: DEMO.password })).body).toMatchObject({ code: 0, data: { totp: true } });
    const mailed = await call('/api/user/getEmailCode', { username: DEMO.users.demo, password: DEMO.password });
    expect(mailed.body).toMatchObject({ code: 0, data: { totp: false, resendAfter: 60 } });
    expect((await call('/api/user/login', { username: DEMO.users.demo, password: DEMO.password, verifyCode: await ctx.lastCode('demo@demo-group.example') })).body.code).toBe(0);
  });

  it('the TOTP code used at activation, typed again at the first sign-in within its 30 seconds: refused with its own answer (issue 46)', async () => {
    const { codeAt, activation } = await enrolTotp(DEMO.users.sub);
    const signIn = (verifyCode: string, lang = 'en') => login(DEMO.users.sub, DEMO.password, verifyCode, lang);
    const reused = await signIn(activation, 'ja');
    expect(reused.body).toMatchObject({ code: Code.TOTP_CODE_USED, msg: expect.stringContaining('次のコード') });
    expect((await signIn(activation)).body.msg).toMatch(/just used.*wait for the next one/);
    // A wrong code keeps its own answer.
    expect((await signIn(activation === '000000' ? '111111' : '000000')).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const { rows } = await ctx.db.query<{ detail: { reason: string } }>("SELECT detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1 ORDER BY id", [DEMO.users.sub]);
    expect(rows.map((r) => r.detail.reason).filter((r) => r.startsWith('totp'))).toEqual(['totp-used', 'totp-used', 'totp']);
    // The next step's code signs in.
    ctx.clock.advance(30_000);
    expect((await signIn(codeAt())).body.code).toBe(0);
  });

  it('e-mails a 6-digit code and signs in with it', async () => {
    const sent = await sendCode(DEMO.users.demo);
    expect(sent.body).toMatchObject({ code: 0, data: { resendAfter: 60, expiresIn: 300, totp: false } });
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

  it('an unknown, not-activated or disabled name gets the same answer as a wrong password: code, wording, count (decision 036)', async () => {
    const wrong = await login(DEMO.users.demo, 'wrong-pass1', '000000');
    expect(wrong.body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: 'Wrong user name or password, 4 chances remaining', data: { remaining: 4 } });
    const unknown = await login('nobody-here', 'wrong-pass1', '000000');
    // every field alike but the request's own id (error envelopes carry one)
    const same = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    expect(same(unknown.body)).toEqual(same(wrong.body));
    expect(unknown.status).toBe(wrong.status);
    expect((await login('nobody-here', 'wrong-pass1', '000000', 'zh')).body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: '用户名或密码错误，还剩 3 次机会', data: { remaining: 3 } });
    await ctx.db.query(`UPDATE app_user SET status = 'INACTIVE' WHERE username = $1`, [DEMO.users.sub]);
    expect((await login(DEMO.users.sub, DEMO.password, '123456', 'ko')).body).toMatchObject({
      code: Code.WRONG_PASSWORD,
      msg: '사용자 이름 또는 비밀번호가 틀렸습니다. 남은 기회: 4회',
      data: { remaining: 4 },
    });
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await login(DEMO.users.sub, DEMO.password, '123456')).body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 3 } });
    // "Send me a code" answers an unknown name as a real one, resend minute included; no mail goes out.
    const real = await sendCode(DEMO.users.demo);
    const none = await sendCode('nobody-else');
    expect(none.body).toEqual(real.body);
    expect(same((await sendCode('nobody-else')).body)).toEqual(same((await sendCode(DEMO.users.demo)).body));
    expect((await sendCode('NOBODY-ELSE')).body.code).toBe(Code.CODE_RESEND_TOO_SOON);
    // its minute ends at the same instant as a real name's: not a millisecond sooner, and at it
    ctx.clock.advance(60_000 - 1);
    expect((await sendCode('nobody-else')).body).toMatchObject({ code: Code.CODE_RESEND_TOO_SOON, data: { wait: 1 } });
    ctx.clock.advance(1);
    expect((await sendCode('nobody-else')).body.code).toBe(0);
    expect((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM email_code`)).rows[0].n).toBe(1);
    // The format alone is still named (it tells nothing of who exists).
    expect((await sendCode('bad name!')).body).toMatchObject({ code: Code.INVALID_USERNAME, msg: 'Invalid user name' });
    expect((await sendCode('x', 'ja')).body.msg).toBe('ユーザー名が無効です');
    const missing = await ctx.call({ method: 'POST', url: '/api/user/login', ...form({ username: 'demo' }) });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(Code.BAD_REQUEST);
  });

  it('an unknown name is locked after 5 tries like a real one, per name and case-blind, and the lock ends after 30 minutes', async () => {
    for (let i = 4; i >= 1; i--) expect((await login(i % 2 ? 'Ghost-User' : 'ghost-user', `nope${i}abc`, '000000')).body.data).toEqual({ remaining: i });
    const fifth = await login('ghost-user', 'nope0abc', '000000');
    expect(fifth.body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minutes' });
    ctx.clock.advance(10 * 60_000);
    expect((await login('ghost-user', 'again1abc', '000000')).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 20 minutes' });
    expect((await sendCode('ghost-user')).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 20 minutes' });
    // another name is not touched
    expect((await login('ghost-other', 'nope0abc', '000000')).body.data).toEqual({ remaining: 4 });
    // the lock holds to its last millisecond and has run out at its instant (as a real account's):
    // counting then starts afresh, so one more wrong password does not lock again
    ctx.clock.advance(20 * 60_000 - 1);
    expect((await login('ghost-user', 'again1abc', '000000')).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 1 minute' });
    ctx.clock.advance(1);
    expect((await login('ghost-user', 'again1abc', '000000')).body.data).toEqual({ remaining: 4 });
    // and that try, at the instant the lock ended, set no new lock: the next one counts on
    ctx.clock.advance(1);
    expect((await login('ghost-user', 'again2abc', '000000')).body.data).toEqual({ remaining: 3 });
  });

  it(`counts concurrent tries on an unknown name without losing any (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => login('ghost-racer', `wrong-${i}-pw`, '000000')));
    const remaining = results
      .filter((r) => r.body.code === Code.WRONG_PASSWORD)
      .map((r) => r.body.data.remaining)
      .sort();
    expect(remaining).toEqual([1, 2, 3, 4]);
    expect(results.filter((r) => r.body.code === Code.USER_LOCKED)).toHaveLength(3);
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
    expect(res.body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: 'Wrong user name or password, 4 chances remaining', data: { remaining: 4 } });
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
    expect(fifth.body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minutes' });
    const lockout = await ctx.db.query<{ detail: unknown }>(`SELECT detail FROM audit_log WHERE action = 'auth.lockout' AND username = $1`, [DEMO.users.demo]);
    expect(lockout.rows.map((r) => r.detail)).toEqual([{ minutes: 30, where: 'login' }]);
    // even the right password is refused while locked
    const locked = await login(DEMO.users.demo, DEMO.password, code);
    expect(locked.body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minutes' });
    expect(await auditActions(DEMO.users.demo)).toContainEqual({ action: 'auth.lockout', outcome: 'failure' });
    ctx.clock.advance(31 * 60_000);
    await sendCode(DEMO.users.demo);
    expect((await login(DEMO.users.demo, DEMO.password, await ctx.lastCode())).body.code).toBe(0);
  });

  it('resends a code after exactly 60 s, not a millisecond sooner (and says how long to wait)', async () => {
    expect((await sendCode(DEMO.users.demo)).body.code).toBe(0);
    ctx.clock.advance(60_000 - 1);
    expect((await sendCode(DEMO.users.demo)).body).toMatchObject({ code: Code.CODE_RESEND_TOO_SOON, data: { wait: 1 } });
    ctx.clock.advance(1);
    expect((await sendCode(DEMO.users.demo)).body.code).toBe(0);
    const audit = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'auth.email_code' AND outcome = 'success'`);
    expect(audit.rows[0].n).toBe(2);
  });

  it('takes a code up to its 5th minute, not at it', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    ctx.clock.advance(5 * 60_000 - 1);
    expect((await login(DEMO.users.demo, DEMO.password, code)).body.code).toBe(0);
    ctx.clock.advance(61_000);
    await sendCode(DEMO.users.demo);
    const next = await ctx.lastCode();
    ctx.clock.advance(5 * 60_000);
    expect((await login(DEMO.users.demo, DEMO.password, next)).body.code).toBe(Code.VERIFY_CODE_ERROR);
  });

  it('a successful sign-in clears the wrong-password count; a disabled user answers as a wrong password', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    for (const left of [4, 3]) expect((await login(DEMO.users.demo, `bad-${left}-pw`, code)).body.data).toEqual({ remaining: left });
    const failure = await ctx.db.query<{ detail: { reason: string; failed: number } }>(`SELECT detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1 ORDER BY id DESC LIMIT 1`, [
      DEMO.users.demo,
    ]);
    expect(failure.rows[0].detail).toMatchObject({ reason: 'wrong-password', failed: 2 });
    expect((await login(DEMO.users.demo, DEMO.password, code)).body.code).toBe(0);
    expect((await login(DEMO.users.demo, 'bad-again-pw', code)).body.data).toEqual({ remaining: 4 });
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await sendCode(DEMO.users.sub)).body).toMatchObject({ code: 0, data: { resendAfter: 60, expiresIn: 300, totp: false } });
    expect((await login(DEMO.users.sub, DEMO.password, '123456')).body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 4 } });
  });

  it("a lockout at sign-in ends the user's open sessions, and no one else's", async () => {
    const bystander = await ctx.login(DEMO.users.sub);
    // an earlier session of the user, signed out: it stays ended as it was (reason and time)
    const earlier = await ctx.login();
    expect((await ctx.call({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': earlier.token } })).body.code).toBe(0);
    const open = await ctx.login();
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    for (let i = 0; i < 5; i++) await login(DEMO.users.demo, `nope${i}abc`, code);
    const info = await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': open.token } });
    expect(info.body.code).toBe(Code.SESSION_ENDED);
    const s = await ctx.db.query<{ username: string; revoke_reason: string | null }>('SELECT u.username, s.revoke_reason FROM user_session s JOIN app_user u ON u.id = s.user_id ORDER BY s.id');
    expect(s.rows).toEqual([
      { username: DEMO.users.sub, revoke_reason: null },
      { username: DEMO.users.demo, revoke_reason: 'logout' },
      { username: DEMO.users.demo, revoke_reason: 'lockout' },
    ]);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': bystander.token } })).body.code).toBe(0);
  });

  it('counts afresh once a lock has run out: one wrong password after it does not lock again', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    for (let i = 4; i >= 1; i--) expect((await login(DEMO.users.demo, `nope${i}abc`, code)).body.data).toEqual({ remaining: i });
    expect((await login(DEMO.users.demo, 'nope0abc', code)).body.code).toBe(Code.USER_LOCKED);
    ctx.clock.advance(30 * 60_000); // the lock has just run out
    const after = await login(DEMO.users.demo, 'still-wrong1', code);
    expect(after.body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 4 } });
    const u = await ctx.db.query<{ failed_logins: number; locked_until: Date | null }>('SELECT failed_logins, locked_until FROM app_user WHERE username = $1', [DEMO.users.demo]);
    expect(u.rows[0]).toEqual({ failed_logins: 1, locked_until: null });
    // Four more wrong passwords lock again, not fewer.
    for (let i = 3; i >= 1; i--) expect((await login(DEMO.users.demo, `again${i}abc`, code)).body.data).toEqual({ remaining: i });
    expect((await login(DEMO.users.demo, 'again0abc', code)).body.code).toBe(Code.USER_LOCKED);
  });

  it('keeps the lock to its last minute, and tells the minutes left', async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    for (let i = 0; i < 5; i++) await login(DEMO.users.demo, `nope${i}abc`, code);
    ctx.clock.advance(30 * 60_000 - 61_000);
    expect((await login(DEMO.users.demo, DEMO.password, code)).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 2 minutes' });
    ctx.clock.advance(60_000);
    expect((await login(DEMO.users.demo, DEMO.password, code)).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 1 minute' });
  });

  // Meaningful on PostgreSQL (the counter's single UPDATE under concurrent connections); on PGlite,
  // which runs one transaction at a time, it checks the outcome only.
  it(`counts concurrent wrong passwords without losing any (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => login(DEMO.users.demo, `wrong-${i}-pw`, '000000')));
    const remaining = results
      .filter((r) => r.body.code === Code.WRONG_PASSWORD)
      .map((r) => r.body.data.remaining)
      .sort();
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

  it('a code signs in once; a newer code withdraws the older; without a code asked for there is no sign-in', async () => {
    await sendCode(DEMO.users.demo);
    const first = await ctx.lastCode();
    expect((await login(DEMO.users.demo, DEMO.password, first)).body.code).toBe(0);
    expect((await login(DEMO.users.demo, DEMO.password, first)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    ctx.clock.advance(61_000);
    await sendCode(DEMO.users.demo);
    const older = await ctx.lastCode();
    ctx.clock.advance(61_000);
    await sendCode(DEMO.users.demo);
    const newer = await ctx.lastCode();
    if (older !== newer) expect((await login(DEMO.users.demo, DEMO.password, older)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    expect((await login(DEMO.users.demo, DEMO.password, newer)).body.code).toBe(0);
    // The newer one used, the older is not next in line: it was withdrawn when the newer was sent.
    if (older !== newer) expect((await login(DEMO.users.demo, DEMO.password, older)).body.code).toBe(Code.VERIFY_CODE_ERROR);
    // other-main never asked for a code: the right password alone is a code error, not a crash.
    const none = await login(DEMO.users.other, DEMO.password, '123456');
    expect(none.body).toMatchObject({ code: Code.VERIFY_CODE_ERROR });
    const why = await ctx.db.query<{ outcome: string; detail: unknown }>(`SELECT outcome, detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1`, [DEMO.users.other]);
    expect(why.rows).toEqual([{ outcome: 'failure', detail: { reason: 'verify-code' } }]);
  });

  it(`one code sent twice at once signs in once (${isConcurrent(kind) ? 'real concurrency: the code row lock' : 'outcome only: PGlite serialises'})`, async () => {
    await sendCode(DEMO.users.demo);
    const code = await ctx.lastCode();
    const before = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_session')).rows[0].n;
    // the second step itself, twice at once (through the route, the password's hashing in front of it spaces the two apart)
    const user = (await findUser(ctx.db, DEMO.users.demo))!;
    const meta = { ip: '127.0.0.1', userAgent: 'test' };
    const both = await Promise.allSettled([0, 1].map(() => completeSecondFactor(ctx.deps, user, code, meta)));
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(both.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: Code.VERIFY_CODE_ERROR } });
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_session')).rows[0].n).toBe(before + 1);
  });

  it('a locked user asking for a code is told so, and no code is made', async () => {
    for (let i = 0; i < 5; i++) await login(DEMO.users.demo, `wrong-${i}-pw`, '000000');
    const before = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code');
    expect((await sendCode(DEMO.users.demo)).body).toMatchObject({ code: Code.USER_LOCKED, msg: 'User is locked, please try again in 30 minutes' });
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code')).rows[0].n).toBe(before.rows[0].n);
  });

  it(`a right password on the fifth try lifts the lock its own try set (${isConcurrent(kind) ? 'real concurrency' : 'outcome only'})`, async () => {
    for (let i = 0; i < 4; i++) await login(DEMO.users.demo, `wrong-${i}-pw`, '000000');
    // The fifth slot: a right password with a wrong code is a code error, not a lockout.
    expect((await login(DEMO.users.demo, DEMO.password, '000000')).body.code).toBe(Code.VERIFY_CODE_ERROR);
    const u = await ctx.db.query<{ locked_until: Date | null; failed_logins: number }>('SELECT locked_until, failed_logins FROM app_user WHERE username = $1', [DEMO.users.demo]);
    expect(u.rows[0]).toEqual({ locked_until: null, failed_logins: 4 });
  });

  it(`two code requests at once make one code (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
    const all = await Promise.all([1, 2, 3, 4].map(() => sendCode(DEMO.users.demo)));
    expect(all.map((r) => r.body.code).sort((a, b) => a - b)).toEqual([0, Code.CODE_RESEND_TOO_SOON, Code.CODE_RESEND_TOO_SOON, Code.CODE_RESEND_TOO_SOON]);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code')).rows[0].n).toBe(1);
    // the service itself, four at once (through the route each request's own work spaces them apart)
    ctx.clock.advance(61_000);
    const direct = await Promise.allSettled([1, 2, 3, 4].map(() => sendEmailCode(ctx.deps, 'en', DEMO.users.demo, { ip: '127.0.0.1' })));
    expect(direct.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(direct.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual([
      Code.CODE_RESEND_TOO_SOON,
      Code.CODE_RESEND_TOO_SOON,
      Code.CODE_RESEND_TOO_SOON,
    ]);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code')).rows[0].n).toBe(2);
  });

  it('an unknown, malformed, disabled or not-activated name costs one argon2 verification, as a wrong password does', async () => {
    const work = async (username: string) => {
      const before = passwordWork.verifications;
      await login(username, 'Some-pass-1', '123456');
      return passwordWork.verifications - before;
    };
    expect(await work('nobody-here')).toBe(1);
    expect(await work('bad name!')).toBe(1);
    expect(await work(DEMO.users.demo)).toBe(1);
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect(await work(DEMO.users.sub)).toBe(1);
    await ctx.db.query(`UPDATE app_user SET status = 'INACTIVE' WHERE username = $1`, [DEMO.users.sub]);
    expect(await work(DEMO.users.sub)).toBe(1);
  });

  it('the audit log says why a sign-in failed: unknown name, wrong password (where and how many)', async () => {
    await login('nobody-here', DEMO.password, '123456');
    const unknown = await ctx.db.query<{ user_id: number | null; outcome: string; detail: unknown }>(
      `SELECT user_id, outcome, detail FROM audit_log WHERE action = 'auth.login.failure' AND username = 'nobody-here'`,
    );
    expect(unknown.rows).toEqual([{ user_id: null, outcome: 'failure', detail: { reason: 'unknown-user', where: 'login', failed: 1 } }]);
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    await login(DEMO.users.sub, DEMO.password, '123456');
    const disabled = await ctx.db.query<{ user_id: number | null; mer_id: string | null }>(`SELECT user_id, mer_id FROM audit_log WHERE action = 'auth.login.failure' AND username = $1`, [
      DEMO.users.sub,
    ]);
    expect(disabled.rows).toHaveLength(1);
    expect(disabled.rows[0].user_id).toEqual(expect.any(Number));
    expect(disabled.rows[0].mer_id).toBe(DEMO.subA);
    await login(DEMO.users.demo, 'wrong-pass-1', '123456');
    const wrong = await ctx.db.query<{ outcome: string; detail: unknown }>(`SELECT outcome, detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1`, [DEMO.users.demo]);
    expect(wrong.rows).toEqual([{ outcome: 'failure', detail: { reason: 'wrong-password', where: 'login', failed: 1 } }]);
  });

  it('a lock set between the look-up and the count (another request won the race) is a lockout with the minutes left', async () => {
    const user = (await findUser(ctx.db, DEMO.users.demo))!;
    await ctx.db.query('UPDATE app_user SET failed_logins = 5, locked_until = $2 WHERE id = $1', [user.id, new Date(ctx.clock.now().getTime() + 10 * 60_000 + 1)]);
    const err = await verifyPasswordCounted(ctx.deps, user, DEMO.password, { ip: '127.0.0.1' }, 'login').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: Code.USER_LOCKED, key: 'userLocked', params: { m: 11 } });
    const why = await ctx.db.query<{ outcome: string; detail: unknown }>(`SELECT outcome, detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1`, [DEMO.users.demo]);
    expect(why.rows).toEqual([{ outcome: 'failure', detail: { reason: 'locked', where: 'login' } }]);
    expect((await ctx.db.query<{ n: number }>('SELECT failed_logins AS n FROM app_user WHERE id = $1', [user.id])).rows[0].n).toBe(5);
    // The step-up check of a signed-in session meets the same lock: the session ends, with the minutes.
    const step = await checkPassword(ctx.deps, user.id, 0, DEMO.password, {}).catch((e: unknown) => e);
    expect(step).toMatchObject({ code: Code.SESSION_ENDED, key: 'userLocked', params: { m: 11 }, httpStatus: 401 });
  });

  it('reports a mail that could not be sent and withdraws the code', async () => {
    const failing = await createTestApp({ kind, smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const res = await failing.call({ method: 'POST', url: '/api/user/getEmailCode', ...form({ username: DEMO.users.demo }) });
      expect(res.body).toMatchObject({ code: Code.SEND_MAIL_FAILED, msg: 'Send mail failed' });
      const n = await failing.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_code');
      expect(n.rows[0].n).toBe(0);
      const audited = await failing.db.query<{ outcome: string; user_id: number; mer_id: string; detail: { error: string } }>(
        `SELECT outcome, user_id, mer_id, detail FROM audit_log WHERE action = 'auth.email_code'`,
      );
      expect(audited.rows).toHaveLength(1);
      expect(audited.rows[0]).toMatchObject({ outcome: 'failure', user_id: expect.any(Number), mer_id: DEMO.group });
      expect(audited.rows[0].detail.error).toMatch(/\S/);
    } finally {
      await failing.close();
    }
  });
});

describe('hasStepUp', () => {
  it('holds until the end of the grant, not at it', () => {
    const until = new Date('2026-11-20T02:05:00Z');
    expect(hasStepUp(until, new Date(until.getTime() - 1))).toBe(true);
    expect(hasStepUp(until, until)).toBe(false);
    expect(hasStepUp(null, until)).toBe(false);
  });
});
