import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from './helpers';
import { addTxn } from '../src/modules/txn/txn.fixtures';
import { jsonForHtml, pageEncoding, pageLanguage, ssrPages } from '../src/plugins/ssr';
import { loadConfig } from '../src/config';

/**
 * Lists rendered on the server (decision 050, issue 30): the page a signed-in visitor gets, from the
 * web app's real build (apps/web/dist and dist-ssr, written by `npm run build`; CI builds before
 * this stage). Rendered only for its visitor, never cached, and the plain page whenever in doubt.
 */
const dist = loadConfig({ NODE_ENV: 'test' }).webDist;
const built = fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(path.resolve(dist, '../dist-ssr/entry-server.js'));

describe('the state written into a page', () => {
  it('cannot close its <script> element or break a line separator', () => {
    const out = jsonForHtml({ a: '</script><script>alert(1)</script>', b: 'x\u2028y&z' });
    expect(out).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(out)).toEqual({ a: '</script><script>alert(1)</script>', b: 'x\u2028y&z' });
  });
  it("takes the browser's language rule: the cookie, else Accept-Language by q, else en", () => {
    expect(pageLanguage('ko', 'ja')).toBe('ko');
    expect(pageLanguage('xx', 'fr;q=1, ja;q=0.5, zh-CN;q=0.8')).toBe('zh');
    expect(pageLanguage(undefined, 'de, fr')).toBe('en');
  });

  it('takes the encoding Accept-Encoding allows: br, else gzip, else none; q=0 refuses one', () => {
    expect(pageEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pageEncoding('gzip, deflate')).toBe('gzip');
    expect(pageEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pageEncoding('BR;q=0.1')).toBe('br');
    expect(pageEncoding('identity')).toBeNull();
    expect(pageEncoding('gzip;q=0, br;q=0.0')).toBeNull();
    expect(pageEncoding(undefined)).toBeNull();
    expect(pageLanguage(undefined, 'ja;q=0, ko')).toBe('ko');
  });
});

describe.skipIf(!built).each(DB_KINDS)('lists rendered on the server (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let other: string;
  const now = new Date();

  beforeAll(async () => {
    ctx = await createTestApp({ kind, config: { ssr: 'on' } });
    await addTxn(ctx, { merId: DEMO.subA, orderNo: 'SSR-DEMO-ORDER', txnTime: now });
    await addTxn(ctx, { merId: DEMO.other, orderNo: 'SSR-OTHER-ORDER', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', txnTime: now });
    demo = (await ctx.login()).token;
    other = (await ctx.login(DEMO.users.other)).token;
  }, 120_000);
  afterAll(() => ctx?.close());

  const page = (token: string | null, extra: Record<string, string> = {}, cookies = 'mp_tz=Asia/Tokyo; mp_vw=1440; mp_lang=ja') =>
    ctx.app.inject({ method: 'GET', url: '/txn/list', headers: { cookie: `${token ? `mp_token=${token}; ` : ''}${cookies}`, ...extra } });
  const stateOf = (html: string) =>
    JSON.parse(/<script type="application\/json" id="ssr-state">([\s\S]*?)<\/script>/.exec(html)![1]) as {
      lang: string;
      session: { user: { username: string } };
      queries: { queries: { queryKey: unknown[]; state: { data: unknown } }[] };
      texts: Record<string, unknown>;
    };
  const plain = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).not.toContain('ssr-state');
    expect(res.body).toContain('<div id="root"></div>');
  };

  it("renders the visitor's list in their language, never to be cached, with the API's own answers", async () => {
    const res = await page(demo);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['server-timing']).toMatch(/^ssr;dur=\d+(\.\d)?$/);
    expect(res.body).toMatch(/^<!doctype html><html lang="ja">/);
    // The shell, the screen's title and the row, as HTML (the page paints before its script).
    expect(res.body).toContain('<title>取引一覧 · ');
    expect(res.body).toContain(`class="ssr-pending" inert aria-busy="true" aria-disabled="true"`);
    expect(res.body).toContain('SSR-DEMO-ORDER');
    expect(res.body).not.toContain('SSR-OTHER-ORDER');
    const state = stateOf(res.body);
    expect(state.lang).toBe('ja');
    expect(state.session.user.username).toBe(DEMO.users.demo);
    expect(Object.keys(state.texts)).toEqual(expect.arrayContaining(['common', 'layout', 'menu', 'txn']));
    // The list's answer is the API's answer to the same query, asked by the same user.
    const list = state.queries.queries.find((q) => q.queryKey[0] === 'txn' && q.queryKey[1] === 'list')!;
    expect(list).toBeDefined();
    const own = await ctx.call({
      method: 'GET',
      url: '/api/txn/list',
      headers: { 'x-token': demo, 'x-timezone-offset': '9', 'accept-language': 'ja' },
      query: list.queryKey[2] as Record<string, string>,
    });
    expect(own.body.code).toBe(0);
    expect(list.state.data).toEqual(own.body.data);
    // antd's stylesheet first, no script preloaded beyond the entry's own.
    expect(res.body.indexOf('/assets/antd-')).toBeLessThan(res.body.indexOf('<meta charset'));
    // antd's theme variables come with the page, marked as antd in the browser looks for them
    // (data-css-hash="16izftt" is hash('css-var-portal')), so the takeover inserts no style of its own.
    expect(res.body).toMatch(/^<!doctype html><html lang="ja"><head><style data-rc-order="prependQueue"/);
    expect(res.body).toContain('data-token-hash="portal" data-css-hash="16izftt">.portal{--ant-');
    expect(res.body).toMatch(/data-css-hash="[a-z0-9]+">\.portal\.ant-table-css-var\{--ant-table-/);
    expect(res.body).not.toContain('data-ant-cssinjs-cache-path');
    // The entry loads after the first paint: no script or preload in the head, the boot file last.
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).not.toMatch(/<script|modulepreload/);
    const boot = /<script defer src="\/ssr-boot\.js" data-main="(\/assets\/main-[^"]+\.js)"><\/script>\s*<\/body>/.exec(res.body);
    expect(boot).not.toBeNull();
    expect((await ctx.app.inject({ url: boot![1] })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/ssr-boot.js' })).body).toContain("getAttribute('data-main')");
  });

  it('is compressed as the browser allows, to the same page', async () => {
    const plainPage = await page(demo);
    const br = await page(demo, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('private, no-store');
    const brText = zlib.brotliDecompressSync(br.rawPayload).toString('utf8');
    const gz = await page(demo, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const gzText = zlib.gunzipSync(gz.rawPayload).toString('utf8');
    expect(plainPage.headers['content-encoding']).toBeUndefined();
    // No secret rides in a compressed page beside what a URL can reflect (BREACH): not the token.
    expect(brText).not.toContain(demo);
    // The same list each time (the token and data do not change between the three requests).
    for (const text of [brText, gzText]) {
      expect(text).toMatch(/^<!doctype html><html lang="ja">/);
      expect(text).toContain('SSR-DEMO-ORDER');
      expect(text.length).toBeGreaterThan(br.rawPayload.length * 3);
    }
  });

  it("gives another merchant's user only that user's rows", async () => {
    const res = await page(other, {}, 'mp_tz=Europe/London; mp_vw=390; mp_lang=en');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toMatch(/^<!doctype html><html lang="en">/);
    expect(res.body).toContain('SSR-OTHER-ORDER');
    expect(res.body).not.toContain('SSR-DEMO-ORDER');
    expect(stateOf(res.body).session.user.username).toBe(DEMO.users.other);
  });

  it('renders the other list screens too, each its own, never to be cached (issue 30: every list screen)', async () => {
    for (const [url, title] of [
      ['/txn/settleDetail', '精算詳細'],
      ['/merchant/list', '加盟店一覧'],
      ['/merchant/audit', '監査ログ'],
      ['/files', 'ダウンロード'],
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: `mp_token=${demo}; mp_tz=Asia/Tokyo; mp_vw=1440; mp_lang=ja` } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(res.body, url).toContain(`<title>${title} · `);
      expect(stateOf(res.body).session.user.username, url).toBe(DEMO.users.demo);
    }
  });

  it('sends the plain page without a token, with a bogus one, without a zone, or after sign-out', async () => {
    plain(await page(null));
    plain(await page('x'.repeat(43)));
    plain(await page(demo, {}, 'mp_lang=ja'));
    plain(await page(demo, {}, 'mp_tz=Not/AZone; mp_lang=ja'));
    const ended = (await ctx.login()).token;
    await ctx.call({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': ended } });
    plain(await page(ended));
  });

  it('sends the plain page to a user without the list permission, and for a screen not rendered here', async () => {
    await ctx.db.query(`UPDATE app_user SET permissions = array_remove(permissions, 'txn:list') WHERE username = $1`, [DEMO.users.sub]);
    const sub = (await ctx.login(DEMO.users.sub)).token;
    plain(await page(sub));
    const res = await ctx.app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: `mp_token=${demo}; mp_tz=Asia/Tokyo` } });
    plain(res);
  });

  it('sends the plain page when the renderer fails', async () => {
    const broken = fs.mkdtempSync(path.join(path.dirname(dist), 'ssr-broken-'));
    try {
      fs.cpSync(dist, path.join(broken, 'dist'), { recursive: true });
      fs.mkdirSync(path.join(broken, 'dist-ssr'));
      fs.writeFileSync(path.join(broken, 'dist-ssr/entry-server.js'), `export const RENDERED_PATHS = ['/txn/list']; export async function renderPage() { throw new Error('boom'); }`);
      const pages = ssrPages(ctx.app, path.join(broken, 'dist'), true)!;
      expect(pages).not.toBeNull();
      const req = { url: '/txn/list', headers: { cookie: `mp_token=${demo}; mp_tz=Asia/Tokyo` }, socket: {}, log: { info() {}, warn() {} } };
      expect(await pages.render(req as never)).toBeNull();
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!built)('the renderer at rest (issue 52)', () => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind: 'pglite', config: { ssr: 'on' } });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('is not loaded by a start, health checks or the sign-in page; the first request with a session loads it', async () => {
    await ctx.app.ready();
    expect(ctx.app.rendererLoaded()).toBe(false);
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBeLessThan(500);
    expect((await ctx.app.inject({ method: 'GET', url: '/login' })).statusCode).toBe(200);
    expect(ctx.app.rendererLoaded()).toBe(false);
    const { token } = await ctx.login();
    const info = await ctx.app.inject({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect(info.statusCode).toBe(200);
    expect(ctx.app.rendererLoaded()).toBe(true);
  });
});
