import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { CHAT_TOKEN_SECONDS, verifyChatToken } from './chat.service';
import { loadConfig } from '../../config';

const SECRET = 'chat-secret-for-tests-0123456789abcdef';
const WIDGET = 'https://chat.example.test/widget?site=portal';

describe.each(DB_KINDS)('live chat token on %s', (kind) => {
  let ctx: TestCtx;
  let off: TestCtx;
  let session: { token: string; refreshToken: string };
  beforeAll(async () => {
    ctx = await createTestApp({ kind, config: { chatWidgetUrl: WIDGET, chatSecret: SECRET } });
    off = await createTestApp({ kind });
    session = await ctx.login(DEMO.users.sub);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await off?.close();
  });

  it('gives the widget URL with the language and a chat-only token, never the session token', async () => {
    const res = await ctx.call({ method: 'GET', url: '/api/chat/token', headers: { 'x-token': session.token, 'accept-language': 'ko' } });
    expect(res.body.code).toBe(0);
    const url = new URL(res.body.data.url);
    expect(url.origin + url.pathname).toBe('https://chat.example.test/widget');
    expect(url.searchParams.get('site')).toBe('portal');
    expect(url.searchParams.get('locale')).toBe('ko');
    const token = url.searchParams.get('token')!;
    // Neither the access token nor the refresh token is anywhere in what the widget gets.
    expect(res.body.data.url).not.toContain(session.token);
    expect(JSON.stringify(res.body)).not.toContain(session.token);
    expect(JSON.stringify(res.body)).not.toContain(session.refreshToken);
    expect(token).not.toBe(session.token);
    const claims = verifyChatToken(SECRET, token, ctx.clock.now())!;
    expect(claims).toMatchObject({ mid: DEMO.subA, name: DEMO.users.sub, lang: 'ko', aud: 'chat' });
    expect(claims.exp - claims.iat).toBe(CHAT_TOKEN_SECONDS);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'lang', 'mid', 'name']);
    // It opens nothing in the portal.
    const misuse = await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect(misuse.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('is signed with CHAT_SECRET and expires after 10 minutes', async () => {
    const res = await ctx.call({ method: 'GET', url: '/api/chat/token', headers: { 'x-token': session.token } });
    const token = new URL(res.body.data.url).searchParams.get('token')!;
    expect(verifyChatToken('another-secret-of-the-same-length-000000', token, ctx.clock.now())).toBeNull();
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), mid: DEMO.other })).toString('base64url');
    expect(verifyChatToken(SECRET, `${forged}.${sig}`, ctx.clock.now())).toBeNull();
    expect(verifyChatToken(SECRET, token, new Date(ctx.clock.now().getTime() + (CHAT_TOKEN_SECONDS + 1) * 1000))).toBeNull();
  });

  it('answers null when chat is not configured, and needs a signed-in user', async () => {
    const s = await off.login(DEMO.users.demo);
    expect((await off.call({ method: 'GET', url: '/api/chat/token', headers: { 'x-token': s.token } })).body).toMatchObject({ code: 0, data: null });
    expect((await ctx.call({ method: 'GET', url: '/api/chat/token' })).body.code).toBe(Code.NOT_LOGGED_IN);
  });

  it('lets the widget origin (only) be framed', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/chat/token', headers: { 'x-token': session.token } });
    expect(String(res.headers['content-security-policy'])).toContain("frame-src 'self' https://chat.example.test");
    const r2 = await off.app.inject({ method: 'GET', url: '/api/chat/token' });
    expect(String(r2.headers['content-security-policy'])).not.toContain('frame-src');
  });
});

describe('chat settings', () => {
  it('refuses CHAT_WIDGET_URL without a CHAT_SECRET, a short secret, or a non-http URL', () => {
    expect(() => loadConfig({ CHAT_WIDGET_URL: WIDGET })).toThrow(/CHAT_SECRET/);
    expect(() => loadConfig({ CHAT_WIDGET_URL: WIDGET, CHAT_SECRET: 'short' })).toThrow(/CHAT_SECRET/);
    expect(() => loadConfig({ CHAT_WIDGET_URL: 'javascript:alert(1)', CHAT_SECRET: SECRET })).toThrow(/CHAT_WIDGET_URL/);
    expect(loadConfig({ CHAT_WIDGET_URL: '', CHAT_SECRET: '' }).chatWidgetUrl).toBeUndefined();
  });
});
