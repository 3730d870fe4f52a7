import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { ipInRanges } from './signin-ip.service';

describe('ipInRanges', () => {
  it.each([
    [['203.0.113.0/24'], '203.0.113.200', true],
    [['203.0.113.0/24'], '203.0.114.1', false],
    [['203.0.113.7'], '203.0.113.7', true],
    [['203.0.113.0/24'], '::ffff:203.0.113.9', true],
    [['2001:db8::/32'], '2001:db8:1::5', true],
    [['2001:db8::/32'], '2001:db9::5', false],
    [['2001:db8::1'], '2001:DB8:0:0:0:0:0:1', true],
    [['203.0.113.0/24'], '2001:db8::1', false],
    [['0.0.0.0/0'], '8.8.8.8', true],
    [['10.0.0.0/8'], 'not-an-ip', false],
    [[], 'anything', true],
  ])('%j holds %s: %s', (ranges, ip, want) => expect(ipInRanges(ranges, ip)).toBe(want));
});

describe.each(DB_KINDS)('sign-in IP allow-list per merchant group (%s)', (kind) => {
  let ctx: TestCtx;
  let admin: string;
  const INSIDE = '203.0.113.10';
  const OUTSIDE = '198.51.100.7';
  const save = (token: string, ranges: string, remoteAddress = '127.0.0.1', lang = 'en') =>
    ctx.app
      .inject({ method: 'POST', url: '/api/team/signin-ip/save', headers: { 'x-token': token, 'accept-language': lang }, payload: { ranges }, remoteAddress })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const get = (token: string, remoteAddress = '127.0.0.1') => ctx.app.inject({ method: 'GET', url: '/api/team/signin-ip', headers: { 'x-token': token }, remoteAddress }).then((r) => r.json());
  const post = (url: string, payload: Record<string, unknown>, remoteAddress: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url, payload, remoteAddress, headers }).then((r) => r.json() as { code: number; msg: string; data: any });
  /** A full sign-in (password, e-mailed code) from `ip`. */
  async function signIn(username: string, ip: string, lang = 'en') {
    ctx.clock.advance(61_000);
    const sent = await post('/api/user/getEmailCode', { username, password: DEMO.password }, ip, { 'accept-language': lang });
    if (sent.code !== 0) return sent;
    return post('/api/user/login', { username, password: DEMO.password, verifyCode: await ctx.lastCode() }, ip, { 'accept-language': lang });
  }
  const refusals = async () =>
    (await ctx.db.query<{ username: string; ip: string; detail: any }>("SELECT username, ip, detail FROM audit_log WHERE action = 'auth.login.ip_refused' ORDER BY id")).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    admin = (await ctx.login()).token;
  }, 60_000);
  afterAll(() => ctx?.close());

  it("the lock-out guard: a list without the saving administrator's own address is refused (four languages), nothing saved", async () => {
    const r = await save(admin, '198.51.100.0/24');
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain('127.0.0.1');
    expect((await save(admin, '198.51.100.0/24', '127.0.0.1', 'ja')).body.msg).toContain('サインインできなくなります');
    expect((await save(admin, '10.0.0.0/33')).status).toBe(400);
    expect((await save(admin, 'example.com')).status).toBe(400);
    expect((await get(admin)).data).toMatchObject({ ranges: [], yourIp: '127.0.0.1', updatedAt: null });
    expect((await ctx.db.query('SELECT 1 FROM signin_ip_allow')).rows).toHaveLength(0);
  });

  it("only the group's administrators set it: a sub-user 403, another merchant sees its own (empty) list", async () => {
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await save(sub, '127.0.0.1')).status).toBe(403);
    const other = (await ctx.login(DEMO.users.other)).token;
    expect((await save(admin, '127.0.0.1, 203.0.113.0/24, 2001:db8::/32')).body.code).toBe(0);
    expect((await get(other)).data.ranges).toEqual([]);
    expect((await get(admin)).data).toMatchObject({ ranges: ['127.0.0.1', '203.0.113.0/24', '2001:db8::/32'], updatedBy: 'demo' });
    const a = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'signin_ip.save'")).rows;
    expect(a.at(-1)!.detail).toEqual({ before: [], after: ['127.0.0.1', '203.0.113.0/24', '2001:db8::/32'] });
  });

  it('password and code sign-ins from outside are refused with a clear message and audited; inside (IPv4, IPv6, mapped) they work; the sub-merchant follows its group', async () => {
    const out = await signIn(DEMO.users.demo, OUTSIDE, 'zh');
    expect(out.code).toBe(Code.FORBIDDEN);
    expect(out.msg).toContain('不允许从此网络');
    expect(out.msg).toContain(OUTSIDE);
    // Straight to /login (a code from an earlier step): refused too.
    const direct = await post('/api/user/login', { username: DEMO.users.demo, password: DEMO.password, verifyCode: '123456' }, OUTSIDE);
    expect(direct.code).toBe(Code.FORBIDDEN);
    // A wrong password from outside says nothing about the list.
    const wrong = await post('/api/user/getEmailCode', { username: DEMO.users.demo, password: 'Wrong-pass1' }, OUTSIDE);
    expect(wrong.code).toBe(Code.WRONG_PASSWORD);
    expect((await signIn(DEMO.users.demo, INSIDE)).code).toBe(0);
    expect((await signIn(DEMO.users.demo, '2001:db8::42')).code).toBe(0);
    expect((await signIn(DEMO.users.demo, `::ffff:${INSIDE}`)).code).toBe(0);
    // demo-sub's merchant is a sub-merchant of the group: the group's list applies.
    expect((await signIn(DEMO.users.sub, OUTSIDE)).code).toBe(Code.FORBIDDEN);
    // Another merchant has no list: anywhere.
    expect((await signIn(DEMO.users.other, OUTSIDE)).code).toBe(0);
    const r = await refusals();
    expect(r.map((x) => x.username)).toEqual(['demo', 'demo', 'demo-sub']);
    expect(r[0]).toMatchObject({ ip: OUTSIDE, detail: { reason: 'ip-not-allowed', where: 'password' } });
  });

  it('the address is the trusted-proxy reading, never a header as it comes: X-Forwarded-For from an untrusted peer is ignored', async () => {
    const n = (await refusals()).length;
    ctx.clock.advance(61_000);
    const r = await post('/api/user/getEmailCode', { username: DEMO.users.demo, password: DEMO.password }, OUTSIDE, { 'x-forwarded-for': INSIDE, 'x-real-ip': INSIDE });
    expect(r.code).toBe(Code.FORBIDDEN);
    expect((await refusals()).length).toBe(n + 1);
  });

  it('a passkey sign-in whose last step comes from outside is refused before the session starts', async () => {
    const auth = new SoftAuthenticator(ctx.config.passkey);
    const token = (await signIn(DEMO.users.demo, INSIDE)).data.token as string;
    await post('/api/user/checkPassword', { password: DEMO.password }, INSIDE, { 'x-token': token });
    const opts = await post('/api/user/passkey/registerOptions', {}, INSIDE, { 'x-token': token });
    expect((await post('/api/user/passkey/register', { name: 'Key', credential: auth.register(opts.data) }, INSIDE, { 'x-token': token })).code).toBe(0);
    const o = await post('/api/user/passkey/loginOptions', { username: DEMO.users.demo, password: DEMO.password }, INSIDE);
    expect(o.code).toBe(0);
    const sessions = (await ctx.db.query('SELECT count(*)::int AS n FROM user_session')).rows[0];
    const done = await post('/api/user/passkey/login', { attempt: o.data.attempt, credential: auth.assert(o.data.options) }, OUTSIDE);
    expect(done.code).toBe(Code.FORBIDDEN);
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM user_session')).rows[0]).toEqual(sessions);
    expect((await refusals()).at(-1)!.detail.where).toBe('passkey');
    // Emptied: anywhere again.
    expect((await save(admin, '')).body.data.ranges).toEqual([]);
    expect((await signIn(DEMO.users.demo, OUTSIDE)).code).toBe(0);
  });
});
