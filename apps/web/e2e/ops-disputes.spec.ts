import { expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/**
 * Disputes in the back office (issue 48), in Japanese: the demo seed's disputes of every merchant
 * (merchant column, days left); a risk operator opens one under review and enters the outcome the
 * gateway sent by e-mail; a support operator reads the same drawer without the form. 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const j = (key: string, vars: Record<string, string> = {}) => tr('ja', 'opsDisputes', key, vars);
const d = (key: string, vars: Record<string, string | number> = {}) => tr('ja', 'disputes', key, vars);

test('a risk operator lists every merchant’s disputes and enters an outcome; support reads only', async ({ browser, baseURL }) => {
  const ops = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await ops.goto('/ops/login');
  await opsSignInQuick(ops, 'e2e-disputes-risk', baseURL!, 'risk');
  await useLanguage(ops, 'ja');
  await ops.goto('/ops/merchants');
  await ops
    .getByRole('navigation')
    .getByText(tr('ja', 'ops', 'menu.disputes'), { exact: true })
    .click();
  await expect(ops).toHaveURL(/\/ops\/disputes$/);
  await expect(ops.getByRole('heading', { level: 1, name: j('title') })).toBeVisible();
  // The seed's: more than one merchant, one due tomorrow.
  const rows = ops.locator('.ant-table-tbody .ant-table-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasText: '200000000000001' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: '100000000000002' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: d('days.left', { count: 1 }) }).first()).toBeVisible();
  await expectAccessible(ops, 'ops disputes (ja)');
  await shot(ops, 'ops-disputes-ja-1440');
  await ops.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => ops.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(ops, 'ops-disputes-ja-390');
  await ops.setViewportSize({ width: 1440, height: 900 });

  // Filter to one merchant's disputes under review; open one; enter "won".
  await ops.getByLabel(d('filter.merchant'), { exact: true }).fill('100000000000002');
  await ops.getByRole('combobox', { name: d('filter.state') }).click();
  await ops
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: d('state.under_review') })
    .click();
  await ops.keyboard.press('Escape');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('100000000000002');
  const id = (await rows.first().getByRole('button').innerText()).trim();
  await rows.first().getByRole('button', { name: id }).click();
  const drawer = ops.getByRole('dialog');
  await expect(drawer.getByText(j('detail.title', { id }))).toBeVisible();
  await expect(drawer.getByText(d('detail.settlement'))).toBeVisible();
  await expectAccessible(ops, 'ops dispute drawer (ja)', '.ant-drawer', {});
  await shot(ops, 'ops-dispute-detail-ja-1440');
  await ops.setViewportSize({ width: 390, height: 844 });
  await shot(ops, 'ops-dispute-detail-ja-390');
  await ops.setViewportSize({ width: 1440, height: 900 });
  await drawer.getByRole('combobox', { name: j('outcome.field') }).click();
  await ops
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: d('state.won') })
    .click();
  await drawer.getByLabel(j('outcome.note')).fill('ゲートウェイのメール 12/03');
  await drawer.getByRole('button', { name: j('outcome.submit') }).click();
  await expect(ops.getByText(j('outcome.saved', { state: d('state.won') }))).toBeVisible();
  await expect(drawer.getByText(j('outcome.final', { state: d('state.won') }))).toBeVisible();
  await expect(drawer.getByText(d('line.credit'))).toBeVisible();
  const url = ops.url();

  // Support: the same dispute, read only.
  const sup = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await sup.goto('/ops/login');
  await opsSignInQuick(sup, 'e2e-disputes-support', baseURL!, 'support');
  await useLanguage(sup, 'ja');
  await sup.goto('/ops/disputes');
  await sup.getByRole('combobox', { name: d('filter.state') }).click();
  await sup
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: d('state.needs_response') })
    .click();
  await sup.keyboard.press('Escape');
  await sup.locator('.ant-table-tbody .ant-table-row').first().getByRole('button').click();
  await expect(sup.getByRole('dialog').getByText(j('outcome.readOnly'))).toBeVisible();
  await expect(sup.getByRole('dialog').getByRole('button', { name: j('outcome.submit') })).toHaveCount(0);
  expect(url).toMatch(/\/ops\/disputes\?id=\d+$/);
  await ops.context().close();
  await sup.context().close();
});
