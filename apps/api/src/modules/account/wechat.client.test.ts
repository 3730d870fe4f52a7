import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWechat, type FakeWechat } from '../../../test/fake-wechat';
import { freshDb } from '../../../test/helpers';
import { WechatClient, consumeOAuthState, createOAuthState } from './wechat.client';

describe('WeChat OAuth2 client against the fake provider (a real HTTP server)', () => {
  let fake: FakeWechat;
  beforeAll(async () => {
    fake = await startFakeWechat();
  });
  afterAll(() => fake.close());

  /** What the browser does: open the authorize URL, follow WeChat's redirect back, read code and state. */
  async function authorize(url: string) {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  it('authorize URL → code + state back → openid, unionid, nickname; a code works once', async () => {
    const client = new WechatClient(fake.config);
    const url = client.authorizeUrl('https://portal.example/api/account/wechat/callback', 'st-123');
    const u = new URL(url);
    expect(Object.fromEntries(u.searchParams)).toEqual({
      appid: 'wx-fake-app',
      redirect_uri: 'https://portal.example/api/account/wechat/callback',
      response_type: 'code',
      scope: 'snsapi_login',
      state: 'st-123',
    });
    expect(u.hash).toBe('#wechat_redirect');
    fake.user = { openid: 'o-test-1', unionid: 'u-test-1', nickname: '小明' };
    const back = await authorize(url);
    expect(back.origin + back.pathname).toBe('https://portal.example/api/account/wechat/callback');
    expect(back.searchParams.get('state')).toBe('st-123');
    const code = back.searchParams.get('code')!;
    expect(await client.identify(code)).toEqual({ openid: 'o-test-1', unionid: 'u-test-1', nickname: '小明' });
    await expect(client.identify(code)).rejects.toMatchObject({ errcode: 40163 });
  });

  it('a wrong secret, an unknown code and an unreachable provider are errors', async () => {
    await expect(new WechatClient({ ...fake.config, appSecret: 'nope' }).exchangeCode('x')).rejects.toMatchObject({ errcode: 40125 });
    await expect(new WechatClient(fake.config).exchangeCode('not-a-code')).rejects.toMatchObject({ errcode: 40029 });
    await expect(new WechatClient({ ...fake.config, tokenUrl: 'http://127.0.0.1:9/x' }).exchangeCode('x')).rejects.toThrow(/unreachable/);
  });
});

describe('OAuth state: purpose-bound, single use, 10 minutes', () => {
  it('gives back the data once, for its purpose only, while fresh', async () => {
    const db = await freshDb('pglite');
    try {
      const now = new Date('2026-01-01T00:00:00Z');
      const s = await createOAuthState(db, now, 'bind', { userId: 7 });
      expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await consumeOAuthState(db, s, 'login', now)).toBeNull();
      expect(await consumeOAuthState(db, s, 'bind', now)).toEqual({ userId: 7 });
      expect(await consumeOAuthState(db, s, 'bind', now)).toBeNull();
      const late = await createOAuthState(db, now, 'cashier', { cashierId: 3 });
      expect(await consumeOAuthState(db, late, 'cashier', new Date(now.getTime() + 10 * 60 * 1000 + 1))).toBeNull();
      expect(await consumeOAuthState(db, 'garbage!', 'bind', now)).toBeNull();
    } finally {
      await db.drop();
    }
  });
});
