import { type Page } from '@playwright/test';
import { expect, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * Issue 53, the third four-language walk's findings on the merchant screens, in Chinese, in a
 * browser whose zone is UTC (the walk's "UTC+0"; the other specs run in Asia/Shanghai, the
 * platform's zone, where a time never converted looks right):
 * - the merchant's approval time and a bank-change request's time are in the user's zone, labelled;
 * - the users list at 1440 px shows status, two-factor, last sign-in and created beside the actions;
 * - the pay-by-link list at 390 px shows each whole order number with its status and amount.
 */
test.describe.configure({ mode: 'serial' });

const z = (ns: string, key: string) => tr('zh', ns, key);
let page: Page;

/** GET/POST `url` with the page's token (the app keeps it fresh); a form is sent multipart with a PDF. */
async function api(p: Page, url: string, form?: Record<string, string>) {
  for (let i = 0; ; i++) {
    const r = await p.evaluate(
      async ({ url, form }) => {
        const token = document.cookie.match(/mp_token=([^;]+)/)?.[1] ?? '';
        let body: FormData | undefined;
        if (form) {
          body = new FormData();
          for (const [k, v] of Object.entries(form)) body.set(k, v);
          body.set('document', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'bank-letter.pdf');
        }
        return (await (await fetch(url, { method: form ? 'POST' : 'GET', headers: { 'x-token': token }, body })).json()) as { code: number; msg: string; data: any };
      },
      { url, form },
    );
    if (r.data !== null || i >= 3) return r;
    await p.reload(); // the e2e access token lasts seconds: the app refreshes it
  }
}

/** A platform-zone (UTC+8) wire time as UTC, labelled as the portal shows it. */
const inUtc = (wire: string) => `${new Date(`${wire.replace(' ', 'T')}+08:00`).toISOString().slice(0, 19).replace('T', ' ')} UTC+0`;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC' })).newPage();
  await signInQuick(page, 'demo', baseURL!);
  await useLanguage(page, 'zh');
});
test.afterAll(async () => page.context().close());

test("times of the merchant screens are in the user's zone with its label (UTC+0 here)", async () => {
  await page.goto('/merchant/list');
  const list = await api(page, '/api/merchant/list?page=0&size=10');
  const group = (list.data.content as { merId: string; approvedAt: string | null }[]).find((m) => m.merId === '100000000000001')!;
  expect(group.approvedAt).toBeTruthy();
  const row = page.locator('.ant-table-row').filter({ hasText: '100000000000001' }).first();
  await expect(row).toContainText(inUtc(group.approvedAt!));
  await shot(page, 'walk3-merchant-list-zh-1440');

  await page.goto('/merchant/detail/100000000000001');
  await expect(page.getByText(inUtc(group.approvedAt!))).toBeVisible();

  const asked = await api(page, '/api/merchant/bankChangeRequest', {
    merId: '100000000000001',
    beneficiaryBank: 'Bank of China Hong Kong',
    swiftCode: 'BKCHHKHH',
    accountName: 'Demo Group Ltd',
    accountNumber: '012345678901',
    country: 'HK',
    currency: 'HKD',
  });
  expect(asked.code, asked.msg).toBe(0);
  const banks = await api(page, '/api/merchant/listMerchantBank?merId=100000000000001');
  const req = (banks.data.requests as { id: number; requestedAt: string }[])[0];
  await page.reload();
  await page.getByRole('tab', { name: z('merchant', 'tab.bank') }).click();
  const reqRow = page.getByRole('row').filter({ hasText: 'Bank of China Hong Kong' }).first();
  await expect(reqRow).toContainText(inUtc(req.requestedAt));
  await shot(page, 'walk3-merchant-bank-zh-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'walk3-merchant-bank-zh-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The notices' times carry the zone too.
  await page.goto('/notice/list');
  await expect(page.locator('.ant-table-row').first()).toContainText('UTC+0');
});

test('the users list at 1440 px: status, two-factor, last sign-in and created in view beside the actions', async () => {
  await page.goto('/merchant/user');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const actions = (await page.getByRole('columnheader', { name: z('team', 'column.actions') }).boundingBox())!;
  for (const key of ['column.status', 'column.twoFactor', 'column.lastLogin', 'column.createTime']) {
    const box = (await page.getByRole('columnheader', { name: z('team', key), exact: true }).boundingBox())!;
    expect(box.x + box.width, key).toBeLessThanOrEqual(actions.x + 1);
  }
  await shot(page, 'walk3-users-zh-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'walk3-users-zh-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('the pay-by-link list at 390 px: whole order numbers, each with its status and amount', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/payByLink/list');
  const rows = page.locator('.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const listed = await api(page, '/api/payByLink/list?page=0&size=10');
  const first = listed.data.content[0] as { orderno: string; totalAmount: string };
  const cell = rows.first().locator('td').first();
  await expect(cell).toContainText(first.orderno);
  const no = (await cell.locator('.pbl-orderno').boundingBox())!;
  expect(no.x + no.width).toBeLessThanOrEqual(390);
  const meta = cell.locator('.pbl-narrow-meta');
  await expect(meta.locator('.ant-tag')).toBeVisible();
  const m = (await meta.boundingBox())!;
  expect(m.x + m.width).toBeLessThanOrEqual(390);
  // Nothing covers the order number: the element at its middle is the number's own.
  const covered = await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest('.pbl-orderno'), { x: no.x + no.width - 4, y: no.y + no.height / 2 });
  expect(covered, 'the order number is not covered by the operations column').toBe(true);
  await shot(page, 'walk3-pbl-zh-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(meta).toBeHidden();
  await shot(page, 'walk3-pbl-zh-1440');
});

test('pay-by-link and pay-in-store exports confirm the file downloaded', async () => {
  for (const [path, ns] of [
    ['/payByLink/list', 'payByLink'],
    ['/payInStore/list', 'payInStore'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('.ant-table').first()).toBeVisible();
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: z(ns, 'action.export') }).click();
    const file = (await download).suggestedFilename();
    expect(file).toMatch(/\.xlsx$/);
    await expect(page.locator('.ant-message-notice').filter({ hasText: tr('zh', ns, 'exported', { file }) })).toBeVisible();
  }
  await shot(page, 'walk3-pis-export-zh-1440');
});
