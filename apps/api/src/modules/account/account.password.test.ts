import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { readOutbox } from '../../plugins/mail';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { sendActivation } from './links.service';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { settleBackground } from './account.service';

const tokenIn = (text: string, path: string) => new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(text)?.[1];

describe.each(DB_KINDS)('activation and passwords on %s', (kind) => {
  let ctx: TestCtx;
  beforeEach(async () => {
    ctx = await createTestApp({ kind });
  });
  afterEach(() => ctx.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) => ctx.call({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string> = {}) => ctx.call({ method: 'GET', url, headers });
  const actions = async (username: string) => (await ctx.db.query<{ action: string; outcome: string }>('SELECT action, outcome FROM audit_log WHERE username = $1 ORDER BY id', [username])).rows;

  async function newInactiveUser(lang: 'en' | 'ja' = 'en') {
    const { rows } = await ctx.db.query<{ id: number }>(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, status, permissions) VALUES ('new-clerk', $1, 'clerk@demo-group.example', $2, 'SUB', 'INACTIVE', '{}') RETURNING id`,
      [UNUSABLE_PASSWORD, DEMO.subA],
    );
    await ctx.db.tx((q) => sendActivation(ctx.deps, q, rows[0].id, lang, {}));
    return tokenIn((await readOutbox(ctx.outbox))[0].text, '/user/active')!;
  }

  it('activation: info (masked e-mail), bad password refused without using the link, then activate once and sign in', async () => {
    const token = await newInactiveUser();
    const login = (password: string) => post('/api/user/login', { username: 'new-clerk', password, verifyCode: '000000' });
    expect((await login('anything1')).body).toMatchObject({ code: Code.WRONG_PASSWORD, msg: 'Wrong user name or password, 4 chances remaining' });
    const info = await get(`/api/user/activeInfo?token=${token}`);
    expect(info.body).toMatchObject({ code: 0, data: { username: 'new-clerk', merName: 'Demo Store Shanghai', email: 'cl***k@demo-group.example' } });
    expect((await post('/api/user/active', { token, newPassword: 'short1', confirmPassword: 'short1' }, { 'accept-language': 'zh' })).body).toMatchObject({
      code: Code.PASSWORD_RULES,
      msg: '新密码必须包含字母和数字，且至少 8 位',
    });
    expect((await post('/api/user/active', { token, newPassword: 'onlyletters', confirmPassword: 'onlyletters' })).body.code).toBe(Code.PASSWORD_RULES);
    expect((await post('/api/user/active', { token, newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg13' })).body).toMatchObject({
      code: Code.PASSWORD_MISMATCH,
      msg: 'The two passwords do not match',
    });
    expect((await post('/api/user/active', { token, newPassword: 'Abcdefg12' })).status).toBe(400);
    const done = await post('/api/user/active', { token, newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg12' });
    expect(done.body).toMatchObject({ code: 0, data: { username: 'new-clerk' } });
    expect((await post('/api/user/active', { token, newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg12' })).body).toMatchObject({
      code: Code.LINK_EXPIRED,
      msg: 'Activation link expired, please contact support',
    });
    expect((await get(`/api/user/activeInfo?token=${token}`)).body.code).toBe(Code.LINK_EXPIRED);
    await ctx.login('new-clerk', 'Abcdefg12');
    expect(await actions('new-clerk')).toContainEqual({ action: 'account.activated', outcome: 'success' });
  });

  it("activation: an expired or unknown link says so in the caller's language", async () => {
    const token = await newInactiveUser();
    ctx.clock.advance(72 * 3600 * 1000 + 1000);
    expect((await get(`/api/user/activeInfo?token=${token}`, { 'accept-language': 'ko' })).body).toMatchObject({
      code: Code.LINK_EXPIRED,
      msg: '활성화 링크가 만료되었습니다. 고객 지원에 문의하세요',
    });
    expect((await post('/api/user/active', { token, newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg12' })).body.code).toBe(Code.LINK_EXPIRED);
    expect((await get('/api/user/activeInfo?token=nope')).body.code).toBe(Code.LINK_EXPIRED);
    expect((await post('/api/user/active', { token: 'bad token!', newPassword: 'Abcdefg12', confirmPassword: 'Abcdefg12' })).status).toBe(400);
    const st = await ctx.db.query<{ status: string }>(`SELECT status FROM app_user WHERE username = 'new-clerk'`);
    expect(st.rows[0].status).toBe('INACTIVE');
  });

  it('change password: rules, original password, last 4 refused; other sessions end, this one stays; audit-logged', async () => {
    const mine = await ctx.login(DEMO.users.sub);
    const other = await ctx.login(DEMO.users.sub);
    const change = (oldPassword: string, newPassword: string, confirmPassword = newPassword, token = mine.token, lang = 'en') =>
      post('/api/user/updatePassword', { oldPassword, newPassword, confirmPassword }, { 'x-token': token, 'accept-language': lang });
    expect((await change(DEMO.password, 'abc', 'abc')).body.code).toBe(Code.PASSWORD_RULES);
    expect((await change(DEMO.password, 'Newpass123', 'Newpass124', mine.token, 'ja')).body.msg).toBe('2 つのパスワードが一致しません');
    expect((await change('Wrong1234', 'Newpass123')).body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 4 } });
    expect((await change(DEMO.password, DEMO.password)).body).toMatchObject({ code: Code.PASSWORD_REUSED, msg: 'The new password must not be one of your last 4 passwords' });
    const ok = await change(DEMO.password, 'Newpass123');
    expect(ok.body).toMatchObject({ code: 0, data: { sessionsEnded: 1 } });
    expect((await get('/api/user/info', { 'x-token': mine.token })).body.code).toBe(0);
    expect((await get('/api/user/info', { 'x-token': other.token })).body.code).toBe(Code.SESSION_ENDED);
    // history: back to an earlier one of the last 4 is refused, a 5th-back one is allowed
    let cur = 'Newpass123';
    for (const next of ['Second123', 'Third1234', 'Fourth123']) {
      expect((await change(cur, next)).body.code).toBe(0);
      cur = next;
    }
    expect((await change(cur, 'Second123')).body.code).toBe(Code.PASSWORD_REUSED);
    // the 4th back (the oldest the rule keeps: the current one and 3 earlier) is refused too
    expect((await change(cur, 'Newpass123')).body).toMatchObject({ code: Code.PASSWORD_REUSED, msg: 'The new password must not be one of your last 4 passwords' });
    expect((await change(cur, DEMO.password)).body.code).toBe(0); // 5 passwords back
    expect((await actions(DEMO.users.sub)).filter((a) => a.action === 'account.password.changed')).toHaveLength(5);
    // without a session and without an expired password: not allowed
    expect((await post('/api/user/updatePassword', { oldPassword: DEMO.password, newPassword: 'Other1234', confirmPassword: 'Other1234' })).status).toBe(401);
  });

  it('expiry: after PASSWORD_MAX_AGE_DAYS sign-in answers "password expired"; the change by user name opens it again', async () => {
    ctx.clock.advance(91 * 86400 * 1000);
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.demo } });
    const code = await ctx.lastCode();
    const res = await post('/api/user/login', { username: DEMO.users.demo, password: DEMO.password, verifyCode: code });
    expect(res.body).toMatchObject({ code: Code.PASSWORD_EXPIRED, msg: 'Password expired, please change it', data: { username: DEMO.users.demo } });
    const why = await ctx.db.query<{ outcome: string; detail: unknown }>(`SELECT outcome, detail FROM audit_log WHERE action = 'auth.login.failure' AND username = $1 ORDER BY id DESC LIMIT 1`, [
      DEMO.users.demo,
    ]);
    expect(why.rows[0]).toEqual({ outcome: 'failure', detail: { reason: 'password-expired' } });
    const change = (username: string, oldPassword: string) => post('/api/user/updatePassword', { username, oldPassword, newPassword: 'Renewed123', confirmPassword: 'Renewed123' });
    expect((await change('nobody-at-all', DEMO.password)).body).toMatchObject({ code: Code.WRONG_PASSWORD, data: { remaining: 4 } });
    expect((await change(DEMO.users.demo, 'Wrong1234')).body.code).toBe(Code.WRONG_PASSWORD);
    expect((await change(DEMO.users.demo, DEMO.password)).body.code).toBe(0);
    await ctx.login(DEMO.users.demo, 'Renewed123');
    // another user's expired password cannot be changed without its original password
    expect((await change(DEMO.users.other, 'Renewed123')).body.code).toBe(Code.WRONG_PASSWORD);
  });

  it('forgot → reset: same answer for a known and an unknown account, link single use and 30 min, every session ends', async () => {
    const s = await ctx.login(DEMO.users.sub);
    const a = await post('/api/user/forgotPassword', { account: 'demo-sub@demo-group.example' });
    const b = await post('/api/user/forgotPassword', { account: 'nobody@nowhere.example' });
    expect(a.body).toEqual(b.body);
    expect(a.body).toMatchObject({ code: 0, msg: 'If the account exists, a reset link has been sent to its e-mail address' });
    await settleBackground();
    const mails = (await readOutbox(ctx.outbox)).filter((m) => m.subject === 'Reset your merchant portal password');
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('demo-sub@demo-group.example');
    const token = tokenIn(mails[0].text, '/user/reset')!;
    expect((await get(`/api/user/resetInfo?token=${token}`)).body.data).toEqual({ username: DEMO.users.sub });
    expect((await post('/api/user/resetByLink', { token, newPassword: DEMO.password, confirmPassword: DEMO.password })).body.code).toBe(Code.PASSWORD_REUSED);
    expect((await post('/api/user/resetByLink', { token, newPassword: 'Reset1234', confirmPassword: 'Reset1234' })).body.code).toBe(0);
    expect((await post('/api/user/resetByLink', { token, newPassword: 'Reset5678', confirmPassword: 'Reset5678' })).body.code).toBe(Code.LINK_EXPIRED);
    expect((await get('/api/user/info', { 'x-token': s.token })).body.code).toBe(Code.SESSION_ENDED);
    await ctx.login(DEMO.users.sub, 'Reset1234');
    const acts = await actions(DEMO.users.sub);
    expect(acts).toContainEqual({ action: 'account.reset.asked', outcome: 'success' });
    expect(acts).toContainEqual({ action: 'account.reset.used', outcome: 'success' });
    expect(await actions('nobody@nowhere.example')).toEqual([{ action: 'account.reset.asked', outcome: 'failure' }]);
  });

  it('forgot: one mail a minute per account; an expired reset link is refused; the call is rate limited', async () => {
    // Sent at once (truly parallel on PostgreSQL): the minute is claimed once, one mail goes out.
    await Promise.all([1, 2, 3, 4].map(() => post('/api/user/forgotPassword', { account: DEMO.users.demo })));
    await post('/api/user/forgotPassword', { account: DEMO.users.demo });
    await settleBackground();
    const mails = (await readOutbox(ctx.outbox)).filter((m) => m.subject === 'Reset your merchant portal password');
    expect(mails).toHaveLength(1);
    const token = tokenIn(mails[0].text, '/user/reset')!;
    ctx.clock.advance(31 * 60 * 1000);
    expect((await post('/api/user/resetByLink', { token, newPassword: 'Reset1234', confirmPassword: 'Reset1234' })).body).toMatchObject({ code: Code.LINK_EXPIRED });
    expect((await post('/api/user/forgotPassword', { account: '' })).status).toBe(400);
    expect((await post('/api/user/forgotPassword', { account: 'a\u0007b' })).status).toBe(400);
    const burst = [];
    for (let i = 0; i < 10; i++) burst.push((await post('/api/user/forgotPassword', { account: `x${i}` })).status);
    expect(burst).toContain(429);
    await settleBackground();
  });
});
