import { type Page } from '@playwright/test';
import { expect, test, recordNetwork, shot, tr } from './support';
import { dataRows, nextPage, signInQuick } from './report-support';

/**
 * /dashboard: the cash calendar above the reserve release report — its three ranges, the default
 * last 7 settlement days, the shortcuts, dates after today + 2 disabled in the settlement and
 * remittance pickers (not in the release picker), paging, and the language of every string.
 */
test.describe.configure({ mode: 'serial' });

const en = (ns: string, key: string) => tr('en', ns, key);
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext()).newPage();
  recordNetwork(page, 'report-dashboard');
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const day = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * 86_400_000).toISOString().slice(0, 10);

test('the cash calendar and the reserve report with its defaults', async () => {
  const listed = page.waitForResponse(async (r) => r.url().includes('/api/report/reserve/list') && (await r.json()).code === 0);
  await page.goto('/dashboard');
  await expect(page.getByText(en('dashboard', 'calendar.title'))).toBeVisible();
  await expect(page.getByRole('img', { name: /Expected transfers and reserve releases per day/ })).toBeVisible();
  const url = new URL((await listed).url());
  expect(url.searchParams.get('beginDate')).toBe(day(-6));
  expect(url.searchParams.get('endDate')).toBe(day(0));
  expect(url.searchParams.get('page')).toBe('0');
  await expect(dataRows(page.locator('.report-table')).first()).toBeVisible();
  for (const col of ['txnSetDate', 'clientid', 'merName', 'business', 'releaseAmount', 'releaseDate', 'transferDate']) {
    await expect(page.locator('.report-table thead th', { hasText: en('report', `col.${col}`) }).first()).toBeVisible();
  }
  await expect(page.locator('.report-pager').getByText(en('report', 'pager.next'))).toBeVisible();
  await shot(page, 'report-dashboard');
  await page.goto('/report/reserve?releaseBeginDate=' + day(-60) + '&releaseEndDate=' + day(29) + '&beginDate=&size=5&page=1');
  await expect(dataRows(page.locator('.report-table'))).toHaveCount(5);
  await nextPage(page, page.locator('.report-table'));
});

test('settlement and remittance pickers stop at today + 2; the release picker does not; shortcuts', async () => {
  await page.goto('/dashboard');
  const pickers = page.locator('.report-filters .ant-picker-range');
  const closePicker = async () => {
    await page.locator('.page-container__head').click();
    await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
  };
  const limitOf = async (i: number) => {
    await pickers.nth(i).click();
    const panel = page.locator('.ant-picker-dropdown:visible');
    await expect(panel).toBeVisible();
    await expect(panel.getByText(en('report', 'range.lastWeek'))).toBeVisible();
    await expect(panel.getByText(en('report', 'range.lastThreeMonths'))).toBeVisible();
    const classOf = (d: string) =>
      page.evaluate((title) => {
        const td = [...document.querySelectorAll('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td')].find((x) => x.getAttribute('title') === title);
        return td ? td.className : 'absent';
      }, d);
    const res = { in2: await classOf(day(2)), in3: await classOf(day(3)) };
    await closePicker();
    return res;
  };
  for (const i of [0, 2]) {
    const r = await limitOf(i);
    expect(r.in2).not.toContain('ant-picker-cell-disabled');
    if (r.in3 !== 'absent') expect(r.in3).toContain('ant-picker-cell-disabled');
  }
  const rel = await limitOf(1);
  if (rel.in3 !== 'absent') expect(rel.in3).not.toContain('ant-picker-cell-disabled');
  // The 'last month' shortcut fills the settlement range; search sends it.
  await pickers.nth(0).click();
  await page.locator('.ant-picker-dropdown:visible').getByText(en('report', 'range.lastMonth')).click();
  const listed = page.waitForResponse(async (r) => r.url().includes('/api/report/reserve/list') && (await r.json()).code === 0);
  await page.getByRole('button', { name: en('report', 'action.search') }).click();
  const url = new URL((await listed).url());
  expect(url.searchParams.get('endDate')).toBe(day(0));
  expect(url.searchParams.get('beginDate')! < day(-27)).toBe(true);
});

test('the dashboard in Chinese, Korean and Japanese', async () => {
  for (const lng of ['zh', 'ko', 'ja'] as const) {
    await page.context().addCookies([{ name: 'mp_lang', value: lng, url: page.url() }]);
    await page.goto('/dashboard');
    await expect(page.getByText(tr(lng, 'dashboard', 'calendar.title'))).toBeVisible();
    await expect(page.locator('.report-table thead th', { hasText: tr(lng, 'report', 'col.releaseAmount') }).first()).toBeVisible();
    await expect(page.locator('.report-pager').getByText(tr(lng, 'report', 'pager.next'))).toBeVisible();
  }
  await shot(page, 'report-dashboard-ja');
  await page.context().addCookies([{ name: 'mp_lang', value: 'en', url: page.url() }]);
});
