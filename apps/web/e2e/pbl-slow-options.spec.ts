import { type Page } from '@playwright/test';
import { expect, test, tr } from './support';
import { signInQuick } from './report-support';

/**
 * A slow answer for the order form's options (currencies, validity) must not wipe what the
 * person has already typed: the defaults fill in around it. (It did: the form reset on every
 * render until the options came — seen when a token refresh delayed them.)
 */
const P = (key: string) => tr('en', 'payByLink', key);
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext()).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(() => page.context().close());

test('typing in the new-order form before its options arrive: nothing typed is lost, the defaults fill in', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/payByLink/options', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/payByLink/list');
  await page.getByRole('button', { name: P('action.newOrder') }).click();
  const dialog = page.getByRole('dialog', { name: P('form.createTitle') });
  await dialog.getByLabel(P('form.reconId')).fill('SLOW-OPTIONS-1');
  await dialog.getByLabel(P('form.totalAmount')).fill('12.30');
  await dialog.getByLabel(P('form.goodsName')).fill('Typed while waiting');
  release();
  // The currency select shows the first currency (the demo's: HKD) once the options are in.
  await expect(dialog).toContainText('HKD');
  await expect(dialog.getByLabel(P('form.reconId'))).toHaveValue('SLOW-OPTIONS-1');
  await expect(dialog.getByLabel(P('form.totalAmount'))).toHaveValue('12.30');
  await expect(dialog.getByLabel(P('form.goodsName'))).toHaveValue('Typed while waiting');
  await dialog.getByRole('button', { name: P('form.submit') }).click();
  await expect(page.getByRole('dialog', { name: P('confirm.title') })).toBeVisible();
  await page.unroute('**/api/payByLink/options');
});
