import fs from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, expectAccessible, shot, test, tr, type Lang } from './support';
import { columnTexts, dataRows, signInQuick } from './report-support';
import { pdfText } from '../../api/test/pdf-text';

/**
 * /files: documents the provider publishes. The month-end job is reached by moving its clock: the
 * development-only POST /api/dev/runJob runs the settlement and statement jobs as of 01:00 on the
 * next 1st (platform zone, Asia/Shanghai), and the month's statement appears; its PDF's text and its
 * CSV carry the closing balance the list shows. Screens in English and Chinese at 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial' });

const t = (key: string, lng: Lang = 'en') => tr(lng, 'files', key);
let page: Page;
/** The current month in the platform zone (UTC+8) and the instant of its month-end run. */
const shanghai = new Date(Date.now() + 8 * 3_600_000);
const month = shanghai.toISOString().slice(0, 7);
const next = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth() + 1, 1));
const monthEnd = `${next.toISOString().slice(0, 10)}T01:00:00+08:00`;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

async function setLang(lng: Lang, baseURL: string) {
  await page.context().addCookies([{ name: 'mp_lang', value: lng, domain: new URL(baseURL).hostname, path: '/' }]);
}

test('a monthly statement appears in /files after the month-end job; its PDF and CSV show the closing balance', async ({ baseURL, request }) => {
  test.setTimeout(300_000);
  await setLang('en', baseURL!);
  const url = `/files?kind=MONTHLY_STATEMENT&periodFrom=${month}&periodTo=${month}`;
  await page.goto(url);
  await expect(page.getByRole('heading', { name: tr('en', 'menu', 'files') })).toBeVisible();
  await expect(page.getByText(tr('en', 'files', 'docs.hint'), { exact: false })).toBeVisible();
  const table = page.locator('.ant-table');
  await expect(table.locator('.ant-empty')).toBeVisible();

  const run = await request.post('/api/dev/runJob', { data: { job: 'monthEnd', at: monthEnd }, timeout: 240_000 });
  const body = await run.json();
  expect(body.code, JSON.stringify(body)).toBe(0);
  expect(body.data.statements.months).toContain(month);

  await page.reload();
  await expect(dataRows(table).first()).toBeVisible();
  const periods = await columnTexts(table, t('docs.col.period'));
  expect(new Set(periods)).toEqual(new Set([month]));
  await shot(page, 'files-en-1440');
  await expectAccessible(page, 'files (en)');

  // The first PDF row: its closing balance on screen, then in the PDF's text and the CSV.
  const rows = dataRows(table);
  const formats = await columnTexts(table, t('docs.col.format'));
  const merchants = await columnTexts(table, t('docs.col.merchant'));
  const currencies = await columnTexts(table, t('docs.col.currency'));
  const closings = await columnTexts(table, t('docs.col.closing'));
  const i = formats.indexOf('PDF');
  expect(i).toBeGreaterThanOrEqual(0);
  const closing = /-?[\d,]+(\.\d+)?/.exec(closings[i])![0];
  let download = page.waitForEvent('download');
  await rows
    .nth(i)
    .getByRole('button', { name: new RegExp(`^${t('download')}`) })
    .click();
  let file = await (await download).path();
  const text = await pdfText(fs.readFileSync(file));
  expect(text).toContain('Monthly statement');
  expect(text).toContain(`Closing pending balance`);
  expect(text).toContain(closing);
  const j = formats.findIndex((f, k) => f === 'CSV' && merchants[k] === merchants[i] && currencies[k] === currencies[i]);
  expect(j).toBeGreaterThanOrEqual(0);
  download = page.waitForEvent('download');
  await rows
    .nth(j)
    .getByRole('button', { name: new RegExp(`^${t('download')}`) })
    .click();
  file = await (await download).path();
  const csv = fs.readFileSync(file, 'utf8');
  expect(csv).toContain(`Closing pending balance,${closing.replace(/,/g, '')}\r\n`);

  // A second run changes nothing: no duplicates.
  const again = await (await request.post('/api/dev/runJob', { data: { job: 'monthEnd', at: monthEnd }, timeout: 240_000 })).json();
  expect(again.data.statements.added).toBe(0);
  await page.reload();
  await expect(dataRows(table)).toHaveCount(periods.length);
});

test("the fee schedule and a notice's attachment are listed; /report/file points to /files and back", async ({ baseURL }) => {
  test.setTimeout(180_000);
  await setLang('en', baseURL!);
  await page.goto('/files?kind=NOTICE_ATTACHMENT');
  const table = page.locator('.ant-table');
  await expect(dataRows(table)).toHaveCount(1);
  await dataRows(table)
    .first()
    .getByRole('link', { name: t('docs.kind.NOTICE_ATTACHMENT') })
    .click();
  await expect(page).toHaveURL(/\/notice\/detail\/\d+$/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Service terms - summary of changes\.pdf/ }).click();
  expect((await download).suggestedFilename()).toBe('Service terms - summary of changes.pdf');
  await shot(page, 'notice-attachment-en-1440');
  await page.goto('/files?kind=FEE_SCHEDULE');
  // the first visit of a language generates the fee schedules (cached afterwards)
  await expect(dataRows(table).first()).toBeVisible({ timeout: 90_000 });
  expect(new Set(await columnTexts(table, t('docs.col.kind')))).toEqual(new Set([t('docs.kind.FEE_SCHEDULE')]));
  await page.getByRole('link', { name: t('docs.hintLink') }).click();
  await expect(page).toHaveURL(/\/report\/file$/);
  await page.getByRole('link', { name: t('hintExtraLink') }).click();
  await expect(page).toHaveURL(/\/files$/);
});

test('screens in Chinese and at 390 px', async ({ baseURL }) => {
  test.setTimeout(180_000);
  await setLang('zh', baseURL!);
  await page.goto(`/files?periodFrom=${month}&periodTo=${month}`);
  const table = page.locator('.ant-table');
  await expect(dataRows(table).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(tr('zh', 'files', 'docs.kind.MONTHLY_STATEMENT')).first()).toBeVisible();
  await shot(page, 'files-zh-1440');
  await expectAccessible(page, 'files (zh)');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'files-zh-390');
  await setLang('en', baseURL!);
  await page.reload();
  await expect(dataRows(table).first()).toBeVisible();
  await shot(page, 'files-en-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});
