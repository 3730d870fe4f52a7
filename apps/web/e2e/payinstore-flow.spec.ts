import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, recordNetwork, shot, test, tr, type Lang } from './support';
import { signInQuick } from './report-support';
import { startFakeWechat, type FakeWechat } from '../../api/test/fake-wechat';

/**
 * Pay in store: the merchant creates an in-store order and shows its dynamic QR; the buyer opens
 * the link on a phone and pays with AlipayHK; the QR dialog turns to 'Payment Successful' within
 * a poll, the order shows Paid and its transaction carries the store. Then a cashier is bound by
 * the WeChat QR (the local fake provider stands in for WeChat), sees the store's orders in the
 * cashier view, and is unbound. Screens in four languages at 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial' });
// A shared 2-core machine under heavy load renders a first screen slowly: generous waits for the first paint.
test.setTimeout(600_000);
const SLOW = { timeout: 120_000 };

const P = (key: string, vars?: Record<string, string | number>, lng: Lang = 'en') => tr(lng, 'payInStore', key, vars);
let merchant: Page;
// WeChat's OAuth2 provider: the local fake (a real HTTP server) on the port the runner told the server (E2E_WECHAT_PORT).
let wechat: FakeWechat;

test.beforeAll(async ({ browser, baseURL }) => {
  wechat = await startFakeWechat({ port: Number(process.env.E2E_WECHAT_PORT) });
  merchant = await (await browser.newContext({ acceptDownloads: true })).newPage();
  recordNetwork(merchant, 'payinstore-merchant');
  await signInQuick(merchant, 'demo', baseURL!);
});
test.afterAll(async () => {
  await merchant.context().close();
  await wechat.close();
});

test('an in-store order is paid through its QR link and its transaction carries the store', async ({ browser }) => {
  await merchant.goto('/payInStore/list');
  await expect(merchant.getByRole('columnheader', { name: P('column.store') })).toBeVisible(SLOW);
  await merchant.getByRole('button', { name: P('action.newOrder') }).click();
  const dialog = merchant.getByRole('dialog', { name: P('form.title') });
  await expect(dialog.getByLabel(P('form.store'))).toBeVisible(SLOW);
  await expect(dialog.locator('.ant-select-content, .ant-select-selection-item').first()).toContainText('Causeway Bay Store');
  // bad input stays in the dialog with the rule's message
  await dialog.getByRole('button', { name: P('form.submit') }).click();
  await expect(dialog.getByText(P('rule.goodsNameTips'))).toBeVisible();
  await dialog.getByLabel(P('form.amount')).fill('58.00');
  await dialog.getByLabel(P('form.goods')).fill('Milk tea ×2');
  await shot(merchant, 'payinstore-create');
  await dialog.getByRole('button', { name: P('form.submit') }).click();

  const qr = merchant.getByTestId('qr-dialog');
  await expect(qr.getByTestId('qr-merchant')).toHaveText('Demo Group Ltd', SLOW);
  await expect(qr.getByTestId('qr-subtitle')).toHaveText('Causeway Bay Store');
  await expect(qr.getByTestId('qr-amount')).toContainText('58.00');
  await expect(qr.getByTestId('qr-logos').locator('img')).toHaveCount(6);
  // The other-language hint says which language it is in (issue 53): Chinese on an English page.
  await expect(qr.getByTestId('qr-hint-other')).toHaveText(tr('en', 'payByLink', 'qr.scanHintOther'));
  await expect(qr.getByTestId('qr-hint-other')).toHaveAttribute('lang', 'zh-Hans');
  const link = (await qr.getByTestId('qr-link').textContent())!.trim();
  expect(link).toMatch(/\/pay\/[A-Za-z0-9_-]{43}$/);
  await shot(merchant, 'payinstore-qr');

  const buyer = await (await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 } })).newPage();
  recordNetwork(buyer, 'payinstore-buyer');
  await buyer.goto(link);
  await expect(buyer.getByTestId('co-store')).toHaveText('Causeway Bay Store', SLOW);
  await buyer.getByRole('radio', { name: 'AlipayHK' }).check();
  await shot(buyer, 'payinstore-checkout-zh-390');
  await buyer.getByRole('button', { name: /支付/ }).last().click();
  await expect(buyer.getByTestId('co-result')).toBeVisible();
  await buyer.context().close();

  const success = merchant.getByRole('dialog').filter({ hasText: tr('en', 'payByLink', 'result.successTitle') });
  await expect(success).toBeVisible({ timeout: 30_000 }); // one 3-second poll (plus the machine's load)
  await shot(merchant, 'payinstore-success');
  await success.getByRole('button', { name: tr('en', 'payByLink', 'result.done') }).click();
  const row = merchant.getByRole('row').filter({ hasText: 'Causeway Bay Store' }).first();
  await expect(row.getByTestId('pbl-status')).toHaveText(tr('en', 'payByLink', 'status.paid'));
  await row.getByRole('link', { name: P('action.details') }).click();
  await expect(merchant.getByTestId('pis-descriptions')).toContainText('Causeway Bay Store (S10000001)', SLOW);
  await expect(merchant.getByTestId('pis-descriptions')).toContainText('AlipayHK');
  await shot(merchant, 'payinstore-detail');
  await merchant.getByRole('link', { name: P('action.viewTxn') }).click();
  await expect(merchant.getByText('S10000001')).toBeVisible(SLOW);
  await expect(merchant.getByText('Causeway Bay Store')).toBeVisible();
  await shot(merchant, 'payinstore-txn-detail');
});

test("a store without the function gets 'You have not enabled this function, please contact sales'", async () => {
  await merchant.goto('/payInStore/store');
  const row = merchant.getByRole('row').filter({ hasText: 'Pudong Airport Counter' });
  await expect(row.getByText(P('notEnabled'))).toBeVisible(SLOW);
  await expect(row.getByRole('button', { name: P('stores.staticQr') })).toBeDisabled();
  await merchant
    .getByRole('row')
    .filter({ hasText: 'Causeway Bay Store' })
    .getByRole('button', { name: P('stores.staticQr') })
    .click();
  await expect(merchant.getByTestId('static-qr')).toContainText('/pay/store/');
  await shot(merchant, 'payinstore-stores');
});

test('a cashier is bound by the WeChat QR, sees the store orders, and is unbound', async ({ browser }) => {
  await merchant.goto('/payInStore/cashier?storeId=S10000001');
  await merchant
    .getByRole('button', { name: P('cashier.bind') })
    .first()
    .click();
  const bind = merchant.getByTestId('bind-qr');
  await expect(bind.locator('canvas')).toBeVisible(SLOW);
  const url = await bind.getByTestId('bind-link').getAttribute('href');
  await shot(merchant, 'payinstore-cashier-bind');

  // the cashier's phone: WeChat's authorisation (the fake agrees at once) → the cashier view
  const phone = await (await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 } })).newPage();
  recordNetwork(phone, 'payinstore-cashier');
  await phone.goto(url!);
  await expect(phone).toHaveURL(/\/pay\/cashier(#.*)?$/, SLOW); // WeChat's '#wechat_redirect' fragment stays through the redirects
  await expect(phone.getByTestId('cashier-store')).toHaveText('Causeway Bay Store', SLOW);
  await expect(phone.getByTestId('cashier-orders')).toContainText('58.00');
  await shot(phone, 'payinstore-cashier-view-zh-390');

  // the manager's dialog notices the new cashier, the list shows it
  await expect(merchant.getByText(P('cashier.bound', { name: '微信用户 Fake' }))).toBeVisible(SLOW);
  const row = merchant.getByRole('row').filter({ hasText: '微信用户 Fake' });
  await expect(row).toContainText(/C\d{8}/);
  await shot(merchant, 'payinstore-cashier-list');
  await row.getByRole('button', { name: P('cashier.unbind') }).click();
  await merchant
    .getByRole('dialog')
    .getByRole('button', { name: P('cashier.unbind') })
    .click();
  await expect(merchant.getByText(P('cashier.unbound', { name: '微信用户 Fake' }))).toBeVisible();
  await expect(merchant.getByRole('row').filter({ hasText: '微信用户 Fake' })).toHaveCount(0);

  // the cashier's view asks to sign in again
  await phone.reload();
  await expect(phone.getByRole('link', { name: tr('zh', 'checkout', 'cashier.signIn') })).toBeVisible(SLOW);
  await phone.context().close();
});

for (const lng of ['en', 'zh', 'ko', 'ja'] as const) {
  test(`pay-in-store screens in ${lng} at 1440 and 390 px`, async ({ baseURL }) => {
    await merchant.context().addCookies([{ name: 'mp_lang', value: lng, domain: new URL(baseURL!).hostname, path: '/' }]);
    for (const width of [1440, 390]) {
      await merchant.setViewportSize({ width, height: 900 });
      for (const [path, name, check] of [
        ['/payInStore/list', 'list', P('column.store', {}, lng)],
        ['/payInStore/store', 'stores', P('stores.storeName', {}, lng)],
        ['/payInStore/cashier', 'cashier', P('cashier.wechatName', {}, lng)],
      ] as const) {
        await merchant.goto(path);
        await expect(merchant.getByRole('columnheader', { name: check, exact: true }).first()).toBeVisible(SLOW);
        await shot(merchant, `payinstore-${name}-${lng}-${width}`);
        if (lng === 'en' && width === 1440) {
          const axe = await new AxeBuilder({ page: merchant }).withTags(['wcag2a', 'wcag2aa']).analyze();
          const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(
            bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
            `axe on ${path}`,
          ).toEqual([]);
        }
      }
    }
    await merchant.context().addCookies([{ name: 'mp_lang', value: 'en', domain: new URL(baseURL!).hostname, path: '/' }]);
    await merchant.setViewportSize({ width: 1366, height: 820 });
  });
}
