import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { auth } from '../txn/txn.fixtures';

describe.each(DB_KINDS)('the time zone a user chose (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
  });
  afterAll(() => ctx?.close());

  const set = (token: string | null, timeZone: string, lang = 'en') => {
    const f = form({ timeZone });
    return ctx.call({ method: 'POST', url: '/api/user/updateTimeZone', headers: { ...(token ? auth(token) : {}), ...f.headers, 'accept-language': lang }, payload: f.payload });
  };
  const info = async (token: string) => (await ctx.call({ method: 'GET', url: '/api/user/info', headers: auth(token) })).body.data;
  const audits = async () =>
    (await ctx.db.query<{ detail: { from: string | null; to: string | null } }>("SELECT detail FROM audit_log WHERE action = 'account.timezone.changed' AND username = 'demo' ORDER BY id")).rows.map(
      (r) => r.detail,
    );

  it("is the browser's (null) until chosen; a chosen zone is in /user/info at once, audit-logged, and cleared with an empty value", async () => {
    expect((await info(demo)).timeZone).toBeNull();
    // The session is cached after this call: the change must still show on the next one.
    const r = await set(demo, 'Asia/Tokyo');
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ code: 0, data: { timeZone: 'Asia/Tokyo' } });
    expect((await info(demo)).timeZone).toBe('Asia/Tokyo');
    expect(await set(demo, ' Europe/Berlin ').then((x) => x.body.data)).toEqual({ timeZone: 'Europe/Berlin' });
    expect((await set(demo, '')).body.data).toEqual({ timeZone: null });
    expect((await info(demo)).timeZone).toBeNull();
    expect(await audits()).toEqual([
      { from: null, to: 'Asia/Tokyo' },
      { from: 'Asia/Tokyo', to: 'Europe/Berlin' },
      { from: 'Europe/Berlin', to: null },
    ]);
  });

  it("refuses what is not a zone with a 400 in the caller's language, and changes nothing", async () => {
    await set(demo, 'America/New_York');
    for (const bad of ['Mars/Olympus', 'Asia/Tok\u0000yo', '+08:00', 'Asia/Shanghai; DROP TABLE app_user', `Asia/${'x'.repeat(60)}`, '../etc/passwd']) {
      const r = await set(demo, bad);
      expect([r.status, r.body.code], bad).toEqual([400, Code.BAD_REQUEST]);
    }
    expect((await set(demo, 'Nowhere/Land', 'ja')).body.msg).toMatch(/タイムゾーン/);
    expect((await set(demo, 'Nowhere/Land', 'zh')).body.msg).toMatch(/时区/);
    const wrongType = await ctx.call({ method: 'POST', url: '/api/user/updateTimeZone', headers: { ...auth(demo), 'content-type': 'application/json' }, payload: JSON.stringify({ timeZone: 9 }) });
    expect(wrongType.status).toBe(400);
    expect((await info(demo)).timeZone).toBe('America/New_York');
    // Absent (what the web client sends for a blank value) clears, as '' does.
    const absent = await ctx.call({ method: 'POST', url: '/api/user/updateTimeZone', headers: { ...auth(demo), ...form({}).headers }, payload: form({}).payload });
    expect(absent.body.data).toEqual({ timeZone: null });
  });

  it("needs a session, and changes only the caller's own zone", async () => {
    const r = await set(null, 'Asia/Seoul');
    expect(r.status).toBe(401);
    await set(demo, 'Asia/Shanghai');
    expect((await set(sub, 'Asia/Seoul')).body.data).toEqual({ timeZone: 'Asia/Seoul' });
    expect((await info(sub)).timeZone).toBe('Asia/Seoul');
    expect((await info(demo)).timeZone).toBe('Asia/Shanghai');
  });
});
