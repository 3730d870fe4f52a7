import fs from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, shot, test, tr, type Lang } from './support';
import { columnTexts, dataRows, signInQuick } from './report-support';
import { pdfText } from '../../api/test/pdf-text';

/**
 * Settlement detail and merchant screens as a merchant uses them: open a settlement batch, download
 * its statement (the PDF's text is read back and its totals compared with the batch row), open its
 * transactions; the merchant list and detail tabs; a bank-account change request with a document
 * that stays pending. Screens looked at in English and Japanese at 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial' });

const t = (ns: string, key: string, lng: Lang = 'en') => tr(lng, ns, key);
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

async function setLang(lng: Lang, baseURL: string) {
  await page.context().addCookies([{ name: 'mp_lang', value: lng, domain: new URL(baseURL).hostname, path: '/' }]);
}

test("settlement detail: a batch's statement PDF carries the batch totals; its transactions sum to the batch", async ({ baseURL }) => {
  await setLang('en', baseURL!);
  await page.goto('/txn/settleDetail');
  await expect(page.getByRole('heading', { name: t('menu', 'settleDetail') })).toBeVisible();
  const table = page.locator('.ant-table');
  await expect(dataRows(table).first()).toBeVisible();
  const recon = (await columnTexts(table, t('settleDetail', 'col.reconSetAmount')))[0];
  const real = (await columnTexts(table, t('settleDetail', 'col.realTrans')))[0];
  const served = (await columnTexts(table, t('settleDetail', 'col.servAmount')))[0];
  await shot(page, 'settle-detail-en-1440');

  const first = dataRows(table).first();
  await first.getByRole('button', { name: new RegExp(`^${t('settleDetail', 'statement')}`) }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: t('settleDetail', 'statementPdf') }).click();
  const file = await (await download).path();
  const text = await pdfText(fs.readFileSync(file));
  expect(text).toContain('Settlement statement');
  // the table shows '1,234.50 HKD': the number part must be in the PDF's totals
  for (const v of [recon, real, served]) expect(text).toContain(/-?[\d,]+(\.\d+)?/.exec(v)![0]);

  await first.getByRole('link', { name: t('settleDetail', 'transactions') }).click();
  await expect(page).toHaveURL(/\/txn\/settleList\?/);
  await expect(page.getByTestId('settle-sum')).not.toHaveText('—');
  expect((await page.getByTestId('settle-sum').innerText()).replace(/\s+/g, '')).toBe(recon.replace(/\s+/g, ''));
});

test('merchant list and detail: group and sub-merchants, tabs, bank change request stays pending', async ({ baseURL }) => {
  await setLang('en', baseURL!);
  await page.goto('/merchant/list');
  const table = page.locator('.ant-table');
  await expect(dataRows(table)).toHaveCount(3);
  await expect(table.getByText('Demo Online Shop')).toBeVisible();
  await page.getByLabel(t('merchant', 'filter.keyword')).fill('Shanghai');
  await page.getByRole('button', { name: t('merchant', 'search') }).click();
  await expect(dataRows(table)).toHaveCount(1);
  await shot(page, 'merchant-list-en-1440');
  await table.getByRole('link', { name: '100000000000002' }).click();
  await expect(page).toHaveURL(/\/merchant\/detail\/100000000000002/);
  await expect(page.getByText('Demo Trading (Shanghai) Co., Ltd').first()).toBeVisible();
  await shot(page, 'merchant-detail-business-en-1440');
  await page.getByRole('tab', { name: t('merchant', 'tab.fees') }).click();
  await page.getByRole('tab', { name: t('merchant', 'tab.deposit') }).click();
  await expect(page.getByText(t('merchant', 'deposit.next'))).toBeVisible();
  await page.getByRole('tab', { name: t('merchant', 'tab.bank') }).click();
  await expect(page.getByText('•••• 6587')).toBeVisible();
  await expect(page.getByText('6216610200016587')).toHaveCount(0);

  await page.getByRole('button', { name: t('merchant', 'bank.request') }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t('merchant', 'bank.beneficiaryBank')).fill('China Merchants Bank');
  await dialog.getByLabel(t('merchant', 'bank.swiftCode')).fill('cmbccnbs');
  await dialog.getByLabel(t('merchant', 'bank.accountName')).fill('Demo Trading (Shanghai) Co., Ltd');
  await dialog.getByLabel(t('merchant', 'bank.accountNumber')).fill('6225880212345678');
  await dialog.getByLabel(t('merchant', 'field.country')).fill('cn');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'bank-letter.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await shot(page, 'merchant-bank-request-en-1440');
  await dialog.getByRole('button', { name: t('merchant', 'bank.submit') }).click();
  await expect(page.getByText(t('merchant', 'bank.submitted'))).toBeVisible();
  await expect(page.getByText(t('merchant', 'bank.status.PENDING'), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: t('merchant', 'bank.request') })).toBeDisabled();
});

test('screens in Japanese and at 390 px', async ({ baseURL }) => {
  await setLang('ja', baseURL!);
  await page.goto('/merchant/detail/100000000000001');
  await expect(page.getByRole('tab', { name: t('merchant', 'tab.business', 'ja') })).toBeVisible();
  await shot(page, 'merchant-detail-ja-1440');
  await page.goto('/txn/settleDetail');
  await expect(dataRows(page.locator('.ant-table')).first()).toBeVisible();
  await shot(page, 'settle-detail-ja-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'settle-detail-ja-390');
  await page.goto('/merchant/list');
  await expect(dataRows(page.locator('.ant-table')).first()).toBeVisible();
  await shot(page, 'merchant-list-ja-390');
  await page.goto('/merchant/detail/100000000000002');
  await page.getByRole('tab', { name: t('merchant', 'tab.bank', 'ja') }).click();
  await shot(page, 'merchant-detail-bank-ja-390');
  await setLang('en', baseURL!);
  await page.setViewportSize({ width: 1440, height: 900 });
});
