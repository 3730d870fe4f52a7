import { MENU } from '@portal/contract';
import { expect, test, openMenu, recordNetwork, shot, sideMenu, signIn, tr, visibleTree } from './support';

test('the read-only sub-user sees fewer entries; an unknown token brings the Confirm logout box', async ({ page, context }) => {
  recordNetwork(page, 'sub-user');
  await page.goto('/login');
  const { user } = await signIn(page, 'demo-sub');
  const { top, leaves } = visibleTree(user.routers);
  const all = visibleTree(MENU);
  expect(leaves.length).toBeLessThan(all.leaves.length);

  const menu = sideMenu(page);
  for (const r of top) await expect(menu.getByRole('menuitem', { name: tr('en', 'menu', r.name), exact: true })).toBeVisible();
  await menu.getByRole('menuitem', { name: tr('en', 'menu', 'merchant'), exact: true }).click();
  await expect(menu.getByRole('menuitem', { name: tr('en', 'menu', 'merchantList'), exact: true })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: tr('en', 'menu', 'merchantUser'), exact: true })).toHaveCount(0);
  // The sub-merchant is contractor 1: one logo only.
  await expect(page.getByTestId('partner-logo')).toHaveCount(0);
  // A screen the user is not granted is not the screen, and not "page does not exist" either: access
  // is missing and the merchant's main user grants it (issue 29 §7) — a menu page and one reached by link.
  await page.goto('/merchant/user');
  await expect(page.getByText(tr('en', 'common', 'noAccess.title'))).toBeVisible();
  await expect(page.getByText(tr('en', 'common', 'noAccess.text'))).toBeVisible();
  await expect(page.getByText(tr('en', 'common', 'notFound.text'))).toHaveCount(0);
  // The page's heading (issue 53: it had no h1).
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'common', 'noAccess.title') })).toBeVisible();
  await shot(page, 'no-access-en');
  await page.goto('/payInStore/cashier');
  await expect(page.getByText(tr('en', 'common', 'noAccess.text'))).toBeVisible();
  // …in the page's language (each of the four has the text).
  const host = new URL(page.url()).hostname;
  for (const lng of ['zh', 'ko', 'ja', 'en'] as const) {
    await context.addCookies([{ name: 'mp_lang', value: lng, domain: host, path: '/' }]);
    await page.goto('/merchant/user');
    await expect(page.getByText(tr(lng, 'common', 'noAccess.text'))).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lng, 'common', 'noAccess.title'));
    if (lng === 'ja') await shot(page, 'no-access-ja');
  }
  // A path that is no page at all still says so.
  await page.goto('/no/such/page');
  await expect(page.getByText(tr('en', 'common', 'notFound.text'))).toBeVisible();

  await openMenu(page, user.routers, 'notice');
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();

  // No answer at all (the network drops this one call): a closable message that stays until dismissed.
  await page.route('**/api/notice/list?*', (route) => route.abort('internetdisconnected'), { times: 1 });
  // The page's clock from here on: time still flows, and can be run forward instead of waited for.
  await page.clock.install();
  await page.locator('.ant-pagination-options .ant-select').click();
  await page.getByRole('option', { name: '30 / page' }).click();
  const transport = page.locator('.ant-message-notice').filter({ hasText: tr('en', 'common', 'error.network') });
  await expect(transport).toBeVisible();
  await shot(page, 'transport-error');
  await page.clock.runFor(31_000); // past the 30 s of every timed message (spec §8)
  await expect(transport).toBeVisible();
  await transport.getByRole('button', { name: tr('en', 'common', 'close') }).click();
  await expect(transport).toHaveCount(0);
  // Back to the first page; its data comes again (after a silent refresh when the 5 s token has run out).
  const listed = page.waitForResponse(async (r) => r.url().includes('/api/notice/list') && (await r.json()).code === 0);
  await page.goBack();
  await listed;

  // A token the server does not know (code 50012) → 'Confirm logout'; Cancel stays, Re-Login clears it and reloads.
  const [token] = (await context.cookies()).filter((c) => c.name === 'mp_token');
  await context.addCookies([{ ...token, value: 'not-a-real-token' }]);
  await page.locator('.ant-pagination-options .ant-select').click();
  await page.getByRole('option', { name: '5 / page' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Confirm logout');
  await expect(dialog).toContainText('You have been logged out, you can cancel to stay on this page, or log in again');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/notice\/list\?page=1&size=5$/);
  await page.goBack(); // the first page again: its data is refetched with the same unknown token
  await expect(page).toHaveURL(/\/notice\/list$/);
  // Re-Login clears the token and reloads the page: wait for that reload itself, or the next
  // navigation of this test races with it.
  await Promise.all([page.waitForEvent('load'), page.getByRole('dialog').getByRole('button', { name: 'Re-Login' }).click()]);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fnotice%2Flist/);
  expect((await context.cookies()).map((c) => c.name)).not.toContain('mp_token');

  // Entering with a token the server refuses: token cleared, the error shown, back to sign-in.
  await context.addCookies([{ ...token, value: 'not-a-real-token' }]);
  await page.goto('/user/info');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fuser%2Finfo$/);
  // The server's reason, shown by the sign-in page once it is up (handed over by the guard).
  await expect(page.getByRole('alert')).toHaveText('You have been logged out');
  expect((await context.cookies()).map((c) => c.name)).not.toContain('mp_token');
});
