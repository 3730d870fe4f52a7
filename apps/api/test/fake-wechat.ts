import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A local stand-in for WeChat's OAuth2 provider, a real HTTP server on a free port (tests and the
 * e2e runner start it). Endpoints, in WeChat's shapes:
 *   GET /connect/qrconnect?appid&redirect_uri&response_type=code&scope&state
 *       → 302 to redirect_uri?code=…&state=… (the person "scanned and agreed" as `user`)
 *   GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code
 *       → {access_token, expires_in, refresh_token, openid, scope, unionid}; a code works once
 *   GET /sns/userinfo?access_token&openid → {openid, nickname, unionid, …}
 * Errors answer {errcode, errmsg} with HTTP 200, as WeChat does.
 */
export interface FakeWechatUser {
  openid: string;
  unionid?: string;
  nickname: string;
}

export interface FakeWechat {
  url: string;
  appId: string;
  appSecret: string;
  /** WECHAT_* settings pointing at this provider. */
  env: Record<'WECHAT_APP_ID' | 'WECHAT_APP_SECRET' | 'WECHAT_AUTH_URL' | 'WECHAT_TOKEN_URL' | 'WECHAT_USERINFO_URL', string>;
  config: { appId: string; appSecret: string; authUrl: string; tokenUrl: string; userinfoUrl: string };
  /** The WeChat account that "scans" next. */
  user: FakeWechatUser;
  /** Codes handed out (the last first), for tests that replay one. */
  issuedCodes: string[];
  /** Requests seen, e.g. to check a state went through untouched. */
  log: { path: string; query: Record<string, string> }[];
  close(): Promise<void>;
}

export async function startFakeWechat(opts: { port?: number; appId?: string; appSecret?: string; user?: FakeWechatUser } = {}): Promise<FakeWechat> {
  const appId = opts.appId ?? 'wx-fake-app';
  const appSecret = opts.appSecret ?? 'fake-secret';
  const codes = new Map<string, { user: FakeWechatUser; used: boolean; at: number }>();
  const tokens = new Map<string, FakeWechatUser>();
  const fake = {
    appId,
    appSecret,
    user: opts.user ?? { openid: 'o-fake-0001', unionid: 'u-fake-0001', nickname: '微信用户 Fake' },
    issuedCodes: [] as string[],
    log: [] as { path: string; query: Record<string, string> }[],
  };
  const json = (res: http.ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    const q = Object.fromEntries(u.searchParams);
    fake.log.push({ path: u.pathname, query: q });
    if (u.pathname === '/connect/qrconnect') {
      if (q.appid !== appId || q.response_type !== 'code' || !q.redirect_uri) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end('bad authorize request');
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, { user: { ...fake.user }, used: false, at: Date.now() });
      fake.issuedCodes.unshift(code);
      const back = new URL(q.redirect_uri);
      back.searchParams.set('code', code);
      if (q.state !== undefined) back.searchParams.set('state', q.state);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (u.pathname === '/sns/oauth2/access_token') {
      if (q.appid !== appId || q.secret !== appSecret) return json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.grant_type !== 'authorization_code') return json(res, { errcode: 40002, errmsg: 'invalid grant_type' });
      const c = codes.get(q.code ?? '');
      if (!c) return json(res, { errcode: 40029, errmsg: 'invalid code' });
      if (c.used) return json(res, { errcode: 40163, errmsg: 'code been used' });
      c.used = true;
      const accessToken = randomBytes(16).toString('hex');
      tokens.set(accessToken, c.user);
      return json(res, {
        access_token: accessToken,
        expires_in: 7200,
        refresh_token: randomBytes(16).toString('hex'),
        openid: c.user.openid,
        scope: 'snsapi_login',
        ...(c.user.unionid ? { unionid: c.user.unionid } : {}),
      });
    }
    if (u.pathname === '/sns/userinfo') {
      const who = tokens.get(q.access_token ?? '');
      if (!who || who.openid !== q.openid) return json(res, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' });
      return json(res, { openid: who.openid, nickname: who.nickname, sex: 0, province: '', city: '', country: 'CN', headimgurl: '', privilege: [], ...(who.unionid ? { unionid: who.unionid } : {}) });
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = { appId, appSecret, authUrl: `${url}/connect/qrconnect`, tokenUrl: `${url}/sns/oauth2/access_token`, userinfoUrl: `${url}/sns/userinfo` };
  return Object.assign(fake, {
    url,
    config,
    env: {
      WECHAT_APP_ID: appId,
      WECHAT_APP_SECRET: appSecret,
      WECHAT_AUTH_URL: config.authUrl,
      WECHAT_TOKEN_URL: config.tokenUrl,
      WECHAT_USERINFO_URL: config.userinfoUrl,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
