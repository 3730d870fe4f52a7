import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { startFakeWechat, type FakeWechat } from '../../../test/fake-wechat';
import { buyerPay } from '../paybylink/paybylink.fixtures';
import { createPis, pis } from './payinstore.fixtures';

const S = DEMO.stores;

describe.each(DB_KINDS)('cashiers: bind through WeChat (fake provider), cashier view, unbind on %s', (kind) => {
  let ctx: TestCtx;
  let wx: FakeWechat;
  let demo: string;
  let sub: string;
  let other: string;
  beforeAll(async () => {
    wx = await startFakeWechat();
    ctx = await createTestApp({ kind, config: { wechat: wx.config } });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(async () => {
    await ctx.close();
    await wx.close();
  });

  /** The cashier scans the QR: WeChat (the fake) redirects back to our callback, which we follow. */
  async function scan(url: string, browserCookie?: string) {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toBe('/api/cashier/wechat/callback');
    const cb = await ctx.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: browserCookie ? { cookie: browserCookie } : {} });
    const set = ([] as string[]).concat((cb.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const cookie = (set.find((c) => c.startsWith('mp_cashier=')) ?? '').split(';')[0];
    return { status: cb.statusCode, location: String(cb.headers.location), cookie };
  }
  /** "Sign in with WeChat" in one browser: the authorize URL and that browser's cookie. */
  async function startLogin() {
    const login = await ctx.app.inject({ method: 'GET', url: '/api/cashier/wechat/login' });
    expect(login.statusCode).toBe(302);
    const browser = String(login.headers['set-cookie']).split(';')[0];
    expect(browser).toMatch(/^mp_cwx=.{20,}/);
    expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly/);
    return { url: String(login.headers.location), browser };
  }
  const bindQr = (token: string, storeId: string, lang = 'en') => {
    const f = form({ storeId });
    return ctx.call({ method: 'POST', url: '/api/payInStore/cashier/bindQr', headers: { 'x-token': token, 'accept-language': lang, ...f.headers }, payload: f.payload });
  };
  const unbind = (token: string, cashierId: string) => {
    const f = form({ cashierId });
    return ctx.call({ method: 'POST', url: '/api/payInStore/cashier/unbind', headers: { 'x-token': token, ...f.headers }, payload: f.payload });
  };
  const asCashier = (cookie: string, url: string) => ctx.call({ method: 'GET', url, headers: { cookie } });

  it('binds a cashier by QR, the cashier sees only its store’s in-store orders, unbinding ends its access', async () => {
    const qr = await bindQr(demo, S.causewayBay);
    expect(qr.body.code).toBe(0);
    expect(qr.body.data.expiresIn).toBe(600);
    expect(qr.body.data.url.startsWith(wx.config.authUrl)).toBe(true);
    wx.user = { openid: 'o-cashier-1', nickname: '小明 Ming' };
    const s = await scan(qr.body.data.url);
    expect(s).toMatchObject({ status: 302, location: '/pay/cashier' });
    expect(s.cookie).toMatch(/^mp_cashier=[A-Za-z0-9_-]{43}$/);

    const list = await pis(ctx, demo).get(`/api/payInStore/cashier/list?storeId=${S.causewayBay}`);
    expect(list.body.data).toEqual([
      { cashierId: expect.stringMatching(/^C\d{8}$/), storeId: S.causewayBay, storeName: 'Causeway Bay Store', wechatName: '小明 Ming', bindTime: expect.any(String), boundBy: 'demo' },
    ]);
    const cashierId = list.body.data[0].cashierId;
    expect((await pis(ctx, demo).get('/api/payInStore/storeList')).body.data.find((x: { storeId: string }) => x.storeId === S.causewayBay).cashiers).toBe(1);

    // the cashier view: its store's orders only
    const mine = await createPis(ctx, demo, S.causewayBay, { totalAmount: '12.00' });
    await buyerPay(ctx, mine.linkToken, 'wechat_pay', '');
    const notMine = await createPis(ctx, demo, S.tsimShaTsui);
    expect((await asCashier(s.cookie, '/api/cashier/me')).body.data).toEqual({
      cashierId,
      wechatName: '小明 Ming',
      storeId: S.causewayBay,
      storeName: 'Causeway Bay Store',
      merId: DEMO.group,
      merName: 'Demo Group Ltd',
    });
    const orders = await asCashier(s.cookie, '/api/cashier/orders?page=0&size=10');
    const nos = orders.body.data.content.map((o: { orderno: string }) => o.orderno);
    expect(nos).toContain(mine.orderNo);
    expect(nos).not.toContain(notMine.orderNo);
    expect(orders.body.data.content.find((o: { orderno: string }) => o.orderno === mine.orderNo)).toMatchObject({ status: '00', paymentBrand: 'wechat_pay' });
    // a cashier has no portal session: portal calls refuse the cookie
    expect((await ctx.call({ method: 'GET', url: '/api/payInStore/list?page=0&size=10', headers: { cookie: s.cookie } })).body.code).toBe(-1);

    // audit of both steps
    const { rows } = await ctx.db.query<{ action: string; target: string }>("SELECT action, target FROM audit_log WHERE action LIKE 'cashier.%' ORDER BY id");
    expect(rows).toEqual([{ action: 'cashier.bind', target: cashierId }]);

    // the read-only sub-user and another merchant may not unbind; the main user does
    expect((await unbind(sub, cashierId)).status).toBe(403);
    expect((await unbind(other, cashierId)).status).toBe(404);
    expect((await unbind(demo, cashierId)).body.code).toBe(0);
    expect((await unbind(demo, cashierId)).status).toBe(404); // already unbound
    expect((await asCashier(s.cookie, '/api/cashier/orders?page=0&size=10')).body).toMatchObject({ code: -1, msg: 'Please sign in with WeChat' });
    expect((await pis(ctx, demo).get(`/api/payInStore/cashier/list?storeId=${S.causewayBay}`)).body.data).toEqual([]);
    const after = await ctx.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'cashier.%' ORDER BY id");
    expect(after.rows.map((r) => r.action)).toEqual(['cashier.bind', 'cashier.unbind']);
  });

  it('a bound cashier signs in again with WeChat; an unbound WeChat account cannot; a used or forged state fails', async () => {
    wx.user = { openid: 'o-cashier-2', nickname: 'Anna' };
    const qr = await bindQr(demo, S.nanjingRoad);
    const first = await scan(qr.body.data.url);
    expect(first.location).toBe('/pay/cashier');
    // signing in later
    const login = await startLogin();
    const again = await scan(login.url, login.browser);
    expect(again.location).toBe('/pay/cashier');
    expect((await asCashier(again.cookie, '/api/cashier/me')).body.data).toMatchObject({ wechatName: 'Anna', storeId: S.nanjingRoad });
    // the same QR twice: the state is used
    const replay = await scan(qr.body.data.url);
    expect(replay.location).toBe('/pay/cashier?wechat=failed');
    // someone never bound
    wx.user = { openid: 'o-stranger', nickname: 'Stranger' };
    const s = await startLogin();
    const stranger = await scan(s.url, s.browser);
    expect(stranger).toMatchObject({ location: '/pay/cashier?wechat=not-bound', cookie: '' });
    const forged = await ctx.app.inject({ method: 'GET', url: `/api/cashier/wechat/callback?code=x&state=${'A'.repeat(43)}` });
    expect(forged.headers.location).toBe('/pay/cashier?wechat=failed');
    // logout ends the session
    await ctx.call({ method: 'POST', url: '/api/cashier/logout', headers: { cookie: again.cookie } });
    expect((await asCashier(again.cookie, '/api/cashier/me')).body.code).toBe(-1);
    expect((await asCashier(first.cookie, '/api/cashier/me')).body.code).toBe(0);
  });

  it('a WeChat sign-in finishes only in the browser that started it (login CSRF)', async () => {
    wx.user = { openid: 'o-cashier-3', nickname: 'Ben' };
    const bound = await scan((await bindQr(demo, S.nanjingRoad)).body.data.url);
    expect(bound.location).toBe('/pay/cashier');
    // The attacker starts a sign-in with their own WeChat and plants the callback in a victim's browser.
    const attacker = await startLogin();
    const planted = await scan(attacker.url);
    expect(planted).toMatchObject({ location: '/pay/cashier?wechat=failed', cookie: '' });
    const victim = await startLogin();
    const crossed = await scan(attacker.url.replace(/state=[^&]+/, new URL(victim.url).searchParams.get('state') ? `state=${new URL(victim.url).searchParams.get('state')}` : ''), attacker.browser);
    expect(crossed).toMatchObject({ location: '/pay/cashier?wechat=failed', cookie: '' });
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'cashier.login' AND outcome = 'failure' AND detail->>'reason' = 'other-browser'");
    expect(rows[0].n).toBe(2);
  });

  it('bad input, permissions and scope of the management calls', async () => {
    expect((await bindQr(sub, S.nanjingRoad)).status).toBe(403);
    expect((await pis(ctx, sub).get('/api/payInStore/cashier/list')).status).toBe(403);
    expect((await bindQr(other, S.causewayBay)).status).toBe(404);
    expect((await pis(ctx, other).get(`/api/payInStore/cashier/list?storeId=${S.causewayBay}`)).status).toBe(404);
    expect((await bindQr(demo, '')).status).toBe(400);
    expect((await bindQr(demo, 'S99999999')).status).toBe(404);
    expect((await unbind(demo, 'nope')).status).toBe(400);
    expect((await unbind(demo, 'C99999999')).status).toBe(404);
    const all = await pis(ctx, other).get('/api/payInStore/cashier/list');
    expect(all.body.data).toEqual([]);
  });

  it('without WeChat configured, binding answers that the function is not enabled, in the caller language', async () => {
    const off = await createTestApp({ kind });
    try {
      const t = (await off.login(DEMO.users.demo)).token;
      const f = form({ storeId: S.causewayBay });
      const res = await off.call({ method: 'POST', url: '/api/payInStore/cashier/bindQr', headers: { 'x-token': t, 'accept-language': 'zh', ...f.headers }, payload: f.payload });
      expect(res.body).toEqual({ code: 1401, msg: '未配置微信，无法绑定收银员，请联系销售', data: null, requestId: expect.any(String) });
    } finally {
      await off.close();
    }
  });
});
