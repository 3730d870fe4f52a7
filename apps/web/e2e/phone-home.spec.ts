import path from 'node:path';
import { type Page, type Response } from '@playwright/test';
import { brandName, formatMoney, toMinor, type Takings } from '@portal/contract';
import { ARTIFACTS, expect, expectAccessible, recordNetwork, shot, test, tr, useLanguage, type Lang } from './support';
import { signInQuick } from './report-support';

/**
 * The phone home screen (issue 29, decision 042) at 390 px: a phone opening the portal lands on
 * /m; its figures are the API's; the big button creates an in-store order and shows its QR; the
 * buyer pays on the hosted checkout and the payment shows up in the latest payments without a
 * reload; the manifest and the service worker are there, and the installed app starts offline on
 * the offline page. axe, and screenshots in ja and zh at 390 px and at 1440 px.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);
const SLOW = { timeout: 60_000 };
const PHONE = { width: 390, height: 844 };

const P = (key: string, vars?: Record<string, string | number>, lng: Lang = 'en') => tr(lng, 'phone', key, vars);
const money = (amount: string, currency: string, lng: Lang = 'en') => formatMoney(toMinor(amount, currency), currency, lng);
/** Today's takings answer (its range starts at today's midnight in the user's zone). */
const isTodayTakings = (today: string | null) => (r: Response) => r.url().includes('/api/txn/takings') && (!today || new URL(r.url()).searchParams.get('beginDate') === today) && r.status() === 200;

let page: Page;
let todayBegin: string | null = null;

/** Every figure of a takings answer is on the screen, formatted for the language, in its order. */
async function expectFigures(data: Takings) {
  const totals = page.getByTestId('ph-total-row');
  if (!data.totals.length) await expect(page.getByTestId('ph-total')).toContainText(P('noneToday'), SLOW);
  await expect(totals).toHaveCount(data.totals.length, SLOW);
  for (const [i, x] of data.totals.entries()) {
    await expect(totals.nth(i)).toContainText(`${money(x.amount, x.currency)} ${x.currency}`);
    await expect(totals.nth(i)).toContainText(P('payments', { count: x.count }));
  }
  const stores = page.getByTestId('ph-stores-row');
  await expect(stores).toHaveCount(data.stores.length);
  for (const [i, s] of data.stores.entries()) {
    await expect(stores.nth(i)).toContainText(s.storeName ?? P('noStore'));
    await expect(stores.nth(i)).toContainText(`${money(s.amount, s.currency)} ${s.currency}`);
    await expect(stores.nth(i)).toContainText(P('payments', { count: s.count }));
  }
  const brands = page.getByTestId('ph-brands-row');
  await expect(brands).toHaveCount(data.brands.length);
  for (const [i, b] of data.brands.entries()) {
    await expect(brands.nth(i)).toContainText(b.brand ? brandName(b.brand) : P('noBrand'));
    await expect(brands.nth(i)).toContainText(`${money(b.amount, b.currency)} ${b.currency}`);
  }
}

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: PHONE, locale: 'en-US' })).newPage();
  recordNetwork(page, 'phone-home');
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

test("a phone lands on /m, whose figures are the API's; no antd on the first paint", async () => {
  const antd: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/(antd|providers)-/.test(new URL(r.url()).pathname)) antd.push(r.url());
  });
  // The first takings answer of the page is today's (yesterday's and last week's follow it).
  const first = page.waitForResponse(isTodayTakings(null), SLOW);
  await page.goto('/');
  await expect(page).toHaveURL(/\/m$/, SLOW);
  const answer = await first;
  todayBegin = new URL(answer.url()).searchParams.get('beginDate');
  expect(answer.headers()['cache-control']).toBe('private, no-store');
  const data = ((await answer.json()) as { data: Takings }).data;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(P('today'));
  await expectFigures(data);
  await expect(page.getByTestId('ph-compare-row').first()).toBeVisible(SLOW);
  expect(antd, 'antd loads only when the order button is pressed').toEqual([]);
});

test('the order button creates an in-store order with its QR, and its payment arrives without a reload', async ({ browser }) => {
  const answers: Response[] = [];
  page.on('response', (r) => isTodayTakings(todayBegin)(r) && answers.push(r));
  const latest = page.getByTestId('ph-payment');
  await expect(page.getByTestId('ph-latest')).not.toContainText(P('loading'), SLOW);
  const before = await page.getByTestId('ph-total').textContent();
  await page.getByTestId('ph-new-order').click();
  const dialog = page.getByRole('dialog', { name: tr('en', 'payInStore', 'form.title') });
  await expect(dialog.getByLabel(tr('en', 'payInStore', 'form.store'))).toBeVisible(SLOW);
  await dialog.getByLabel(tr('en', 'payInStore', 'form.amount')).fill('77.70');
  await dialog.getByLabel(tr('en', 'payInStore', 'form.goods')).fill('Phone order');
  await dialog.getByRole('button', { name: tr('en', 'payInStore', 'form.submit') }).click();
  const qr = page.getByTestId('qr-dialog');
  await expect(qr.getByTestId('qr-code')).toBeVisible(SLOW);
  await expect(qr.getByTestId('qr-amount')).toContainText('77.70');
  const link = (await qr.getByTestId('qr-link').textContent())!.trim();
  await shot(page, 'phone-home-qr-390');

  // The buyer pays on the hosted checkout.
  const buyer = await (await browser.newContext({ viewport: PHONE })).newPage();
  await buyer.goto(link);
  await buyer.getByRole('radio', { name: 'AlipayHK' }).check(SLOW);
  await buyer.getByRole('button', { name: /Pay/ }).last().click();
  await expect(buyer.getByTestId('co-result')).toBeVisible(SLOW);
  await buyer.context().close();

  const success = page.getByRole('dialog').filter({ hasText: tr('en', 'payByLink', 'result.successTitle') });
  await expect(success).toBeVisible(SLOW);
  await success.getByRole('button', { name: tr('en', 'payByLink', 'result.done') }).click();
  // The payment is at the top of the latest payments, marked new, and the takings grew — no reload.
  const navigations: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
  await expect(latest.first()).toContainText('77.70', SLOW);
  await expect(latest.first()).toContainText('AlipayHK');
  await expect(latest.first()).toContainText(P('state.S'));
  await expect(page.getByTestId('ph-total')).not.toHaveText(before!, SLOW);
  // The takings shown are the API's latest answer, which counts the new payment.
  const last = ((await answers[answers.length - 1].json()) as { data: Takings }).data;
  expect(
    last.stores.some((x) => x.storeName === 'Causeway Bay Store'),
    'the store of the new order has takings',
  ).toBe(true);
  await expectFigures(last);
  expect(navigations).toEqual([]);
  await shot(page, 'phone-home-arrived-390');
});

test("a read-only sub-user sees its merchant's figures and no order button", async ({ browser, baseURL }) => {
  const sub = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signInQuick(sub, 'demo-sub', baseURL!);
  const answer = sub.waitForResponse(isTodayTakings(null), SLOW);
  await sub.goto('/m');
  const data = ((await (await answer).json()) as { data: Takings }).data;
  await expect(sub.getByTestId('ph-total')).toBeVisible(SLOW);
  await expect(sub.getByTestId('ph-new-order')).toHaveCount(0);
  // Only its own merchant's payments (the group's other merchants are not in its scope).
  const names = await sub.getByTestId('ph-payment').locator('.ph-row__sub').allTextContents();
  for (const n of names) expect(n).toContain('Demo Store Shanghai');
  await expect(sub.getByTestId('ph-total-row')).toHaveCount(data.totals.length);
  await sub.context().close();
});

test('manifest, icons and service worker; the installed app starts offline on the offline page', async () => {
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ start_url: '/m', display: 'standalone' });
  const icons = manifest.icons as { src: string; sizes: string; purpose: string; type: string }[];
  for (const [sizes, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ]) {
    const icon = icons.find((i) => i.sizes === sizes && i.purpose === purpose && i.type === 'image/png');
    expect(icon, `${sizes} ${purpose}`).toBeTruthy();
    const png = await page.request.get(icon!.src);
    expect(png.headers()['content-type']).toBe('image/png');
    const body = await png.body();
    expect(body.readUInt32BE(16)).toBe(Number(sizes.split('x')[0]));
  }
  const sw = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
  expect(sw).toMatch(/\/sw\.js$/);
  // What the worker keeps: the offline page and icons, never an API answer.
  await expect
    .poll(() => page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname)))).flat()), SLOW)
    .toContain('/offline.html');
  const kept = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname)))).flat());
  expect(kept.filter((p) => p.startsWith('/api/'))).toEqual([]);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), SLOW).toBe(true);
  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline', SLOW);
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expectAccessible(page, 'offline page');
  } finally {
    await page.context().setOffline(false);
  }
  // Back online, "Try again" opens the screen.
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('ph-new-order')).toBeVisible(SLOW);
});

for (const lng of ['ja', 'zh'] as const) {
  test(`390 px in ${lng}: texts, axe, screenshot`, async () => {
    await useLanguage(page, lng);
    const takings = page.waitForResponse(isTodayTakings(todayBegin), SLOW);
    await page.goto('/m');
    await takings;
    await expect(page.locator('html')).toHaveAttribute('lang', lng);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(P('today', {}, lng));
    await expect(page.getByTestId('ph-new-order')).toHaveText(new RegExp(P('newOrder', {}, lng)));
    await expect(page.getByRole('heading', { name: P('byStore', {}, lng) })).toBeVisible();
    await expect(page.getByTestId('ph-compare-row').first()).toBeVisible(SLOW);
    await expect(page.getByTestId('ph-payment').first()).toBeVisible(SLOW);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, `/m at 390 px (${lng})`);
    await shot(page, `phone-home-${lng}-390`);
    await page.screenshot({ path: path.join(ARTIFACTS, `phone-home-${lng}-390-full.png`), fullPage: true });
  });
}

test('at 1440 px the route shows the same screen as a phone-wide column, with the way to the full portal', async () => {
  await useLanguage(page, 'ja');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/m');
  await expect(page.getByTestId('ph-total-row').first()).toBeVisible(SLOW);
  const box = await page.locator('.ph-main').boundingBox();
  expect(box!.width).toBeLessThanOrEqual(600);
  await expectAccessible(page, '/m at 1440 px (ja)');
  await shot(page, 'phone-home-ja-1440');
  // "Full portal": the portal's root stays the full portal from then on in this tab.
  await page.setViewportSize(PHONE);
  await page.getByRole('link', { name: P('fullPortal', {}, 'ja') }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible(SLOW);
  await page.goto('/');
  await expect(page.getByTestId('user-menu')).toBeVisible(SLOW);
  await expect(page).not.toHaveURL(/\/m$/);
});
