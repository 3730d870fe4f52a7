import { type Page } from '@playwright/test';
import { BRANDS, type TransferRow } from '@portal/contract';
import { expect, firstAnswer, test, recordNetwork, shot, tr } from './support';
import { columnTexts, dataRows, minorOf, nextPage, pickOption, signInQuick } from './report-support';

/**
 * The reports as a merchant uses them: bill and transfer reports filtered and paged, transfer
 * details → settle list whose total equals the row's figures, the summary report's brand filter and
 * the old / new switch, and a long export landing in the file area. One sign-in (serial).
 */
test.describe.configure({ mode: 'serial' });

const en = (key: string) => tr('en', 'report', key);
const GROUP = '100000000000001';
const SUB_A = '100000000000002';
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext()).newPage();
  recordNetwork(page, 'report-reports');
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const table = (p: Page) => p.locator('.report-table');
const pager = (p: Page) => p.locator('.report-pager');

test('bill report: preset range, paging with Last Page / Next Page, merchant filter back to page 1', async () => {
  await page.goto('/report/bill');
  await expect(page.getByRole('heading', { name: tr('en', 'menu', 'reportBill') })).toBeVisible();
  await expect(dataRows(table(page)).first()).toBeVisible();
  await expect(pager(page).getByText(en('pager.prev'))).toBeVisible();
  expect(en('pager.prev'), 'the previous-page button is not announced as the last page').toBe('Previous Page');
  await expect(pager(page).getByText(en('pager.next'))).toBeVisible();
  await pager(page).locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByText('5 / page').click();
  await expect(page).toHaveURL(/size=5/);
  await expect(dataRows(table(page))).toHaveCount(5);
  const first = await columnTexts(table(page), en('col.clientid'));
  await pager(page).getByText(en('pager.next')).click();
  await expect(page).toHaveURL(/page=2/);
  await expect.poll(() => columnTexts(table(page), en('col.clientid'))).not.toEqual(first);
  // money columns are right-aligned
  const align = await table(page)
    .locator('tbody tr.ant-table-row td.ant-table-cell')
    .nth(5)
    .evaluate((td) => getComputedStyle(td).textAlign);
  expect(align).toBe('right');
  await pickOption(page, page.getByRole('combobox', { name: en('filter.merId') }), `${SUB_A} - `, SUB_A.slice(-4));
  await page.getByRole('button', { name: en('action.search') }).click();
  await expect(page).toHaveURL(new RegExp(`merId=${SUB_A}`));
  await expect(page).toHaveURL(/page=1/);
  await expect.poll(async () => new Set(await columnTexts(table(page), en('col.clientid')))).toEqual(new Set([SUB_A]));
  await expect(table(page).locator('.report-total').first()).toContainText(en('total.page'));
  await shot(page, 'report-bill');
});

test('transfer report: settlement range cannot be cleared; details open the settle list whose total equals the row', async () => {
  await page.goto('/report/transfer');
  await expect(dataRows(table(page)).first()).toBeVisible();
  await expect(page.locator('.report-filters .ant-picker').first().locator('.ant-picker-clear')).toHaveCount(0);
  await nextPage(page, table(page));
  const q = new URL(page.url()).searchParams;
  const begin = q.get('beginDate');
  expect(begin).toBeNull(); // the preset is the default, not in the URL until a search
  // The page's own list call (as the screen asked for it) gives the rows' hidden fields.
  // (code 0: with 5-second tokens the first answer may be 'expired', then the client refreshes and replays)
  // (When the server rendered the page, decision 050, the answer came with it and the browser asks nothing.)
  const listed = await firstAnswer<{ content: TransferRow[] }>(page, '/api/report/transfer/list', ['report', 'transfer', 'list'], () =>
    page.goto(`/report/transfer?beginDate=${isoDaysAgo(30)}&endDate=${isoDaysAgo(0)}&page=1&size=100`),
  );
  expect(listed.query.size).toBe('100');
  const rows = listed.data.content;
  // A transfer whose period is one day: its settle list total is the row's settlement amount and its amount before fee.
  const row = rows.find((r) => r.remitDate && r.reconSearchDate === r.txnSetDate && r.servAmount === '0.00' && r.releasedAmount === '0.00' && r.merTxnSet !== 'JPY');
  expect(row, 'a one-day transfer without reserve in the last 30 days').toBeTruthy();
  const link = page.getByRole('link', { name: `${en('action.details')} ${row!.clientid} ${row!.reconBusiness} ${row!.txnSetDate}` });
  const tr0 = page.locator('tr.ant-table-row', { has: link });
  const cells = await tr0.locator('td').allInnerTexts();
  const total = cells.find((c) => minorOf(c) === minorOf(row!.reconSetAmount));
  expect(total, `the row shows ${row!.reconSetAmount}`).toBeTruthy();
  await shot(page, 'report-transfer');
  await link.click();
  await expect(page).toHaveURL(
    new RegExp(`/txn/settleList\\?beginDate=${row!.reconSearchDate}&endDate=${row!.txnSetDate}&busLine=${row!.reconBusiness}&setCur=${row!.merTxnSet}&clientid=${row!.clientid}`),
  );
  await expect(page.getByTestId('settle-sum')).not.toHaveText('—');
  const sum = await page.getByTestId('settle-sum').innerText();
  expect(minorOf(sum)).toBe(minorOf(row!.reconSetAmount));
  expect(minorOf(sum)).toBe(minorOf(row!.realTransAmountBeforeTransFee));
  await shot(page, 'report-transfer-settle-list');
});

test('summary report: brand filter by display name, old version and back', async () => {
  await page.goto(`/report/txn?beginDate=${isoDaysAgo(6)}&endDate=${isoDaysAgo(0)}&merId=${GROUP}`);
  await expect(page.getByRole('heading', { name: en('title.summary') })).toBeVisible();
  await expect(dataRows(table(page)).first()).toBeVisible();
  // Filter by a brand the page shows, chosen by its display name (typed to filter the options).
  const brand = (await columnTexts(table(page), en('col.paymentBrand'))).find((b) => b !== '—')!;
  const code = BRANDS.find((b) => b.name === brand)!.code;
  await pickOption(page, page.getByRole('combobox', { name: en('filter.brand') }), brand, brand.slice(0, 3));
  await page.getByRole('heading', { name: en('title.summary') }).click();
  await page.getByRole('button', { name: en('action.search') }).click();
  await expect(page).toHaveURL(new RegExp(`paymentBrand=${code}`));
  await expect.poll(async () => new Set(await columnTexts(table(page), en('col.paymentBrand')))).toEqual(new Set([brand]));
  await shot(page, 'report-summary');
  await page.getByRole('link', { name: en('action.oldVersion') }).click();
  await expect(page).toHaveURL(/version=old/);
  await expect(page).not.toHaveURL(/paymentBrand/);
  await expect(page.getByRole('heading', { name: en('title.summaryOld') })).toBeVisible();
  await expect(page.getByRole('combobox', { name: en('filter.brand') })).toHaveCount(0);
  await expect(table(page).locator('thead th', { hasText: en('col.paymentBrand') })).toHaveCount(0);
  await expect(dataRows(table(page)).first()).toBeVisible();
  await nextPage(page, table(page));
  await shot(page, 'report-summary-old');
  await page.getByRole('link', { name: en('action.newVersion') }).click();
  await expect(page).not.toHaveURL(/version=old/);
  await expect(table(page).locator('thead th', { hasText: en('col.paymentBrand') })).toHaveCount(1);
  // The seeded notice's link opens the old version.
  await page.goto('/report/txn?version=old');
  await expect(page.getByRole('heading', { name: en('title.summaryOld') })).toBeVisible();
});

test('a long export is queued and lands in the file area; the button stays locked 3 s', async () => {
  await page.goto(`/report/txn?version=old&beginDate=${isoDaysAgo(60)}&endDate=${isoDaysAgo(0)}`);
  await expect(dataRows(table(page)).first()).toBeVisible();
  const button = page.getByRole('button', { name: en('action.export') });
  await button.click();
  await expect(page).toHaveURL(/\/report\/file/);
  const file = page.locator('tr.ant-table-row').filter({ hasText: 'Daily summary report' }).first();
  await expect(file).toBeVisible();
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: tr('en', 'files', 'refresh') }).click();
        return file.innerText();
      },
      { timeout: 30_000 },
    )
    .toContain(tr('en', 'files', 'status.ready'));
  await shot(page, 'report-export-file');
  // Export lock: disabled right after a click, enabled again after 3 s.
  await page.goto(`/report/bill?beginDate=${isoDaysAgo(3)}&endDate=${isoDaysAgo(0)}`);
  const exp = page.getByRole('button', { name: en('action.export') });
  const download = page.waitForEvent('download');
  await exp.click();
  await expect(exp).toBeDisabled();
  expect((await download).suggestedFilename()).toMatch(/^Bill report_.*\.xlsx$/);
  await expect(exp).toBeEnabled({ timeout: 5000 });
});

function isoDaysAgo(n: number): string {
  const d = new Date(Date.now() + 8 * 3_600_000 - n * 86_400_000);
  return d.toISOString().slice(0, 10);
}
