import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, shot, signIn, test, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/**
 * Notices in the back office (decision 044), in Japanese: a support operator writes a notice with a
 * PDF to one merchant → that merchant's user reads it and downloads the file → the operator
 * withdraws it → it is gone for the merchant (list and detail). Screens at 1440 px and 390 px.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const j = (key: string, vars: Record<string, string> = {}) => tr('ja', 'opsNotices', key, vars);
const TITLE = 'メンテナンスのお知らせ e2e';
const FILE = 'メンテナンス計画.pdf';
const LONG_URL = 'https://status.example.com/maintenance/2026-12-05/card-payments-and-settlement-window-notice';
let ops: Page;
let merchant: Page;

test('an operator writes a notice with a PDF to one merchant; the merchant reads it and downloads the file', async ({ browser, baseURL }) => {
  ops = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await ops.goto('/ops/login');
  await opsSignInQuick(ops, 'e2e-notices', baseURL!, 'support');
  await useLanguage(ops, 'ja');
  await ops.goto('/ops/notices');
  await expect(ops.getByRole('heading', { level: 1, name: j('title') })).toBeVisible();
  await ops.getByRole('button', { name: j('write') }).click();
  const drawer = ops.getByRole('dialog');
  await drawer.getByLabel(j('field.title'), { exact: true }).fill(TITLE);
  // Lines of their own, and a long address (issue 53: the merchant saw one run-on line, 405 px wide at 390).
  await drawer.getByLabel(j('field.content'), { exact: true }).fill(`土曜日 2:00〜4:00 に決済画面を停止します。\n対象：カード決済\n詳細：${LONG_URL}`);
  await drawer.getByRole('radio', { name: j('target.merchants') }).check();
  await drawer.getByLabel(j('field.merchants'), { exact: true }).fill('200000000000001');
  await ops.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '200000000000001' }).first().click();
  await drawer.getByLabel(j('field.title'), { exact: true }).click(); // close the option list
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-notice-'));
  fs.writeFileSync(path.join(dir, FILE), '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  await drawer.locator('input[type=file]').setInputFiles(path.join(dir, FILE));
  await shot(ops, 'ops-notice-form-ja-1440');
  await drawer.getByRole('button', { name: j('save') }).click();
  await expect(drawer).toBeHidden();
  const row = ops.locator('.ant-table-row').filter({ hasText: TITLE });
  await expect(row).toContainText(j('status.published'));
  await expect(row).toContainText('200000000000001');
  await shot(ops, 'ops-notices-ja-1440');
  await ops.setViewportSize({ width: 390, height: 844 });
  await shot(ops, 'ops-notices-ja-390');
  await ops.setViewportSize({ width: 1440, height: 900 });

  merchant = await (await browser.newContext()).newPage();
  await merchant.goto('/login');
  await signIn(merchant, 'other-main');
  await merchant.goto('/notice/list');
  await merchant.getByText(TITLE).first().click();
  await expect(merchant).toHaveURL(/\/notice\/detail\/\d+$/);
  await expect(merchant.getByText('土曜日 2:00〜4:00')).toBeVisible();
  const para = merchant.locator('.notice-detail .ant-typography').filter({ hasText: '対象：カード決済' }).last();
  expect(await para.innerText()).toBe(`土曜日 2:00〜4:00 に決済画面を停止します。\n対象：カード決済\n詳細：${LONG_URL}`);
  await merchant.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => merchant.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(merchant, 'notice-detail-lines-390');
  await merchant.setViewportSize({ width: 1280, height: 720 });
  const download = merchant.waitForEvent('download');
  await merchant.getByRole('button', { name: new RegExp(FILE) }).click();
  const saved = await (await download).path();
  expect(fs.readFileSync(saved!).subarray(0, 5).toString()).toBe('%PDF-');
});

test('the operator withdraws it: gone for the merchant', async () => {
  const detailUrl = merchant.url();
  const row = ops.locator('.ant-table-row').filter({ hasText: TITLE });
  await row.getByRole('button', { name: j('withdraw') }).click();
  await ops
    .locator('.ant-popconfirm')
    .getByRole('button', { name: j('withdraw') })
    .click();
  await expect(row).toContainText(j('status.withdrawn'));
  await merchant.goto('/notice/list');
  await expect(merchant.locator('main')).toBeVisible();
  await expect(merchant.getByText(TITLE)).toHaveCount(0);
  // Its detail page (and with it the attachment) answers 404 now.
  await merchant.goto(new URL(detailUrl).pathname);
  await expect(merchant.locator('.ant-result-404')).toBeVisible();
  await expect(merchant.getByText('土曜日 2:00〜4:00')).toHaveCount(0);
  await ops.context().close();
  await merchant.context().close();
});
