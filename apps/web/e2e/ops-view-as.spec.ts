import { expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/**
 * Support "view as" (issue 26, decision 046), in Japanese: a support operator opens the demo
 * group's portal read-only with a reason → a new tab shows the banner on every page and the
 * merchant's transactions → a change is refused by the server (and the refund button is absent) →
 * End returns to the back office and the view's token is refused. 1440 px and 390 px; axe on the
 * banner and the reason dialog.
 */
test.describe.configure({ timeout: 120_000 });
const j = (ns: string, key: string, vars: Record<string, string> = {}) => tr('ja', ns, key, vars);

test('a support operator views a merchant read-only, with a banner, and ends it', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await opsSignInQuick(page, 'e2e-support', baseURL!, 'support');
  await useLanguage(page, 'ja');
  await page.goto('/ops/merchants');
  await page.getByRole('button', { name: '100000000000001' }).click();
  await page.getByRole('button', { name: j('ops', 'viewAs.button') }).click();
  const dialog = page.getByRole('dialog', { name: j('ops', 'viewAs.title', { merchant: 'Demo Group Ltd' }) });
  await expect(dialog).toBeVisible();
  // The reason is required.
  await dialog.getByRole('button', { name: j('ops', 'viewAs.open') }).click();
  await expect(dialog.getByText(j('ops', 'viewAs.reasonRequired'))).toBeVisible();
  await expectAccessible(page, 'view-as reason dialog (ja)', '.ant-modal');
  await dialog.getByLabel(j('ops', 'viewAs.reason')).fill('チケット 4711：精算の問い合わせ');
  const [tab] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('button', { name: j('ops', 'viewAs.open') }).click()]);

  // The merchant's portal, read-only, with the banner.
  await tab.setViewportSize({ width: 1440, height: 900 });
  const banner = tab.getByRole('region', { name: j('layout', 'viewAs.region') });
  await expect(banner).toContainText('Demo Group Ltd');
  await expect(banner).toContainText(j('layout', 'viewAs.readOnly'));
  await expect(tab).not.toHaveURL(/token=/);
  await tab.goto('/txn/list');
  await expect(banner).toBeVisible();
  await expect(tab.locator('.ant-table-row').first()).toBeVisible();
  await expect(tab.getByRole('button', { name: /^返金/ })).toHaveCount(0);
  await shot(tab, 'ops-view-as-ja-1440');
  // Read-only means every report reads (issue 53: Bill and Reserve were refused, the dashboard's reserve card toasted "read-only").
  const errorToast = tab.locator('.ant-message-notice').filter({ has: tab.locator('.ant-message-error') });
  for (const path of ['/dashboard', '/report/bill', '/report/reserve', '/report/transfer', '/report/txn']) {
    await tab.goto(path);
    await expect(banner).toBeVisible();
    await expect(tab.locator('.ant-spin-spinning')).toHaveCount(0);
    await tab.waitForTimeout(800); // an error toast shows after 500 ms
    await expect(errorToast, path).toHaveCount(0);
  }
  await tab.goto('/report/bill');
  await expect(tab.locator('.ant-table-row').first()).toBeVisible();
  await shot(tab, 'ops-view-as-bill-ja-1440');
  await expectAccessible(tab, 'view-as banner (ja)', '.view-as-banner');
  // The server refuses a change whatever the screen shows.
  const token = (await tab.context().cookies()).find((c) => c.name === 'mp_token')!.value;
  expect(token).toMatch(/^va_/);
  const refused = await tab.request.post('/api/user/add', {
    headers: { 'x-token': token, 'accept-language': 'ja' },
    form: { userName: 'x', email: 'x@x.example', merIds: '100000000000002', role: 'FINANCE' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).msg).toContain('読み取り専用');

  await tab.setViewportSize({ width: 390, height: 844 });
  await expect(banner).toBeVisible();
  const box = (await banner.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(390);
  expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(tab, 'ops-view-as-ja-390');

  // End: back to the back office; the view's token is refused from now on.
  await banner.getByRole('button', { name: j('layout', 'viewAs.end') }).click();
  await expect(tab).toHaveURL(/\/ops\/merchants/);
  const after = await tab.request.get('/api/user/info', { headers: { 'x-token': token } });
  expect(after.status()).toBe(401);
});
