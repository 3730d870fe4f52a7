import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectAccessible, noScript, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * The lists rendered on the server (decision 050, issue 30): a returning browser signed in gets the
 * transaction list as HTML — shell, filters, totals, rows — which the browser's own tree takes over
 * with the answers that came with it: no API request until the user acts, nothing clickable before
 * the takeover, then the list works as always. Without JavaScript the same page shows.
 * (The e2e server's access tokens live 5 s: each page load here follows a fresh token.)
 */
test.describe.configure({ mode: 'serial' });

const J = (key: string) => tr('ja', 'txn', key);

/** A fresh access token (the refresh token's rotation), so the next document request is within its life. */
async function renew(page: Page, base: string) {
  const host = new URL(base).hostname;
  const refresh = (await page.context().cookies()).find((c) => c.name === 'mp_refresh')!.value;
  const res = await (await page.request.post('/api/user/refreshToken', { data: { refreshToken: refresh } })).json();
  expect(res.code, res.msg).toBe(0);
  await page.context().addCookies([
    { name: 'mp_token', value: res.data.token, domain: host, path: '/' },
    { name: 'mp_refresh', value: res.data.refreshToken, domain: host, path: '/' },
  ]);
}

let ctx: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  await useLanguage(page, 'ja');
  await signInQuick(page, 'demo', baseURL!);
  // A first visit: the browser writes its zone and width (mp_tz, mp_vw); this page is the plain one.
  await page.goto('/user/info');
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
test.afterAll(async () => ctx.close());

for (const width of [1440, 390]) {
  test(`at ${width} px the list arrives rendered, takes over without asking again, then works`, async ({ baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    // The width the next page is rendered for (main.tsx writes it on every load).
    await page.goto('/user/info');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await renew(page, baseURL!);
    const api: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/api/')) api.push(new URL(r.url()).pathname);
    };
    page.on('request', onRequest);
    const doc = await page.goto('/txn/list?page=1');
    const html = await doc!.text();
    expect(doc!.headers()['cache-control']).toBe('private, no-store');
    expect(doc!.headers().vary).toBe('Cookie, Accept-Encoding');
    expect(html).toContain('id="ssr-state"');
    expect(html).toContain(`<title>${tr('ja', 'menu', 'txnList')}`);
    expect(html).toMatch(/class="ant-table-row/);
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByRole('heading', { level: 1, name: tr('ja', 'menu', 'txnList') })).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Merchant info, user info, the list, its totals, the saved views: all came with the page.
    expect(api.filter((p) => !p.startsWith('/api/chat/'))).toEqual([]);
    await shot(page, `ssr-txn-list-ja-${width}`);

    // It takes input: Next reads page 2 (by keyset, from the last row of page 1).
    const next = page.waitForRequest((r) => r.url().includes('/api/txn/list') && r.url().includes('page=1'));
    await page.locator('.ant-pagination-next').click();
    expect(new URL((await next).url()).searchParams.get('after')).toMatch(/^\d+$/);
    await expect(page).toHaveURL(/page=2/);
    page.off('request', onRequest);
  });
}

test('with JavaScript off, the same list shows: title, totals, rows', async ({ browser, baseURL }) => {
  await renew(page, baseURL!);
  const off = await browser.newContext({ viewport: { width: 1440, height: 900 }, javaScriptEnabled: false });
  noScript.add(off);
  try {
    await off.addCookies((await ctx.cookies()).map((c) => ({ name: c.name, value: c.value, domain: c.domain, path: c.path })));
    const p = await off.newPage();
    await p.goto('/txn/list?page=1');
    await expect(p.locator('h1')).toHaveText(tr('ja', 'menu', 'txnList'));
    await expect(p.getByText(J('totals.title'))).toBeVisible();
    await expect(p.locator('.ant-table-row').first()).toBeVisible();
  } finally {
    await off.close();
  }
});

test('what arrives before the takeover has no serious or critical axe finding', async ({ browser, baseURL }) => {
  await renew(page, baseURL!);
  const early = await browser.newContext({ viewport: { width: 390, height: 900 } });
  noScript.add(early); // it is never taken over: its entry script does not load
  try {
    await early.addCookies((await ctx.cookies()).map((c) => ({ name: c.name, value: c.value, domain: c.domain, path: c.path })));
    const p = await early.newPage();
    await p.route(/\/assets\/main-[^/]+\.js$/, (r) => r.abort());
    await p.goto('/txn/list?page=1');
    await expect(p.locator('#root')).toHaveClass(/ssr-pending/);
    await expect(p.locator('h1')).toHaveText(tr('ja', 'menu', 'txnList'));
    await expectAccessible(p, 'the server-rendered list before its takeover');
  } finally {
    await early.close();
  }
});

test('a signed-out browser gets the plain page, which sends it to sign in', async ({ browser }) => {
  const anon = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const p = await anon.newPage();
    const doc = await p.goto('/txn/list');
    expect(doc!.headers()['cache-control']).toBe('no-cache');
    expect(await doc!.text()).not.toContain('ssr-state');
    await expect(p).toHaveURL(/\/login\?redirect=/);
  } finally {
    await anon.close();
  }
});
