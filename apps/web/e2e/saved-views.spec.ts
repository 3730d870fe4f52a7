import type { Page } from '@playwright/test';
import { expect, expectAccessible, LANGS, recordNetwork, shot, test, tr, useLanguage, type Lang } from './support';
import { signInQuick } from './report-support';

/**
 * Saved views (issue 13), as people use them: the group's main user filters the transaction list,
 * saves the filters as a shared view, reloads, opens the bare list and then the view, makes it the
 * default (the bare list now opens with it), and copies its link; a teammate (demo-sub) opens the
 * link and gets the same filters, without the owner's edit actions. Screens in four languages at
 * 1440 and 390 px, axe on each.
 */
test.describe.configure({ mode: 'serial' });

const V = (key: string, vars?: Record<string, string | number>, lng: Lang = 'en') => tr(lng, 'views', key, vars);
const T = (key: string) => tr('en', 'txn', key);
const NAME = 'Successful payments';
let page: Page;
let link = '';

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  recordNetwork(page, 'saved-views');
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const viewsButton = (p: Page, lng: Lang = 'en') => p.getByRole('button', { name: new RegExp(`^(${V('menu.views', {}, lng)}|${V('menu.current', { name: '.+' }, lng)})$`) });

async function menuItem(p: Page, name: string, lng: Lang = 'en') {
  await viewsButton(p, lng).click();
  await p.getByRole('menuitem', { name }).click();
}

test('save the filters as a view, reload, open it from the bare list', async () => {
  await page.goto('/txn/list');
  await page.getByLabel(T('filter.result'), { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: T('resultFilter.00') })
    .first()
    .click();
  await page.getByRole('button', { name: T('action.search'), exact: true }).click();
  await expect(page).toHaveURL(/gwResponse=00/);

  await menuItem(page, V('menu.save'));
  const dialog = page.getByRole('dialog', { name: V('save.title') });
  await dialog.getByLabel(V('save.name')).fill(NAME);
  await dialog.getByRole('checkbox', { name: V('save.shared') }).check();
  await dialog.getByRole('button', { name: V('save.ok') }).click();
  await expect(page.getByText(V('save.done', { name: NAME }))).toBeVisible();
  await expect(viewsButton(page)).toHaveText(V('menu.current', { name: NAME }));
  await expect(page).toHaveURL(/view=\d+/);

  await page.reload();
  await expect(page).toHaveURL(/gwResponse=00/);
  await expect(viewsButton(page)).toHaveText(V('menu.current', { name: NAME }));

  await page.goto('/txn/list');
  await expect(page).not.toHaveURL(/gwResponse/);
  await menuItem(page, NAME);
  await expect(page).toHaveURL(/gwResponse=00/);
  await expect(page.getByLabel(T('filter.result'), { exact: true }).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]')).toContainText(T('resultFilter.00'));
});

test('set it as the default: the bare list opens with it; its link is shown', async () => {
  await menuItem(page, V('menu.manage'));
  const manage = page.getByRole('dialog', { name: V('manage.title') });
  await manage.getByRole('button', { name: V('manage.setDefault') }).click();
  await expect(page.getByText(V('manage.defaultSet', { name: NAME }))).toBeVisible();
  await expect(manage.getByText(V('tag.default'), { exact: true })).toBeVisible();
  link = (await manage.getByTestId('view-link').textContent())!.trim();
  expect(link).toMatch(/\/txn\/list\?view=\d+$/);
  await page.mouse.move(1, 1); // no hovered button in the contrast check
  await expectAccessible(page, 'manage views', '.ant-modal');
  await shot(page, 'saved-views-manage-en-1440');
  await page.keyboard.press('Escape');

  await page.goto('/txn/list');
  await expect(page).toHaveURL(/gwResponse=00.*view=\d+|view=\d+.*gwResponse=00/);
  await expect(viewsButton(page)).toHaveText(V('menu.current', { name: NAME }));
  // Clearing the filters stays cleared (the default is for a bare screen only).
  await page
    .locator('form button')
    .filter({ hasText: T('action.clear') })
    .click();
  await expect(page).not.toHaveURL(/gwResponse/);
});

test("a teammate opens the shared link and gets the same view, without the owner's actions", async ({ browser, baseURL }) => {
  const mate = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  recordNetwork(mate, 'saved-views-mate');
  await signInQuick(mate, 'demo-sub', baseURL!);
  await mate.goto(link);
  await expect(mate).toHaveURL(/gwResponse=00/);
  await expect(viewsButton(mate)).toHaveText(V('menu.current', { name: NAME }));
  await menuItem(mate, V('menu.manage'));
  const manage = mate.getByRole('dialog', { name: V('manage.title') });
  await expect(manage.getByText(V('manage.sharedBy', { name: 'demo' }))).toBeVisible();
  await expect(manage.getByRole('button', { name: V('manage.delete') })).toHaveCount(0);
  await shot(mate, 'saved-views-teammate-en-1440');
  await mate.context().close();
});

test('the other list screens keep views: merchants and settlement batches follow an opened view; logistics, documents and the settle list offer them', async () => {
  const M = (key: string) => tr('en', 'merchant', key);
  const S = (key: string) => tr('en', 'settleDetail', key);
  const keyword = page.getByLabel(M('filter.keyword'), { exact: true });
  await page.goto('/merchant/list');
  await keyword.fill('Shanghai');
  await page.getByRole('button', { name: M('search'), exact: true }).click();
  await expect(page).toHaveURL(/keyword=Shanghai/);
  await menuItem(page, V('menu.save'));
  const dialog = page.getByRole('dialog', { name: V('save.title') });
  await dialog.getByLabel(V('save.name')).fill('Shanghai merchants');
  await dialog.getByRole('button', { name: V('save.ok') }).click();
  await expect(viewsButton(page)).toHaveText(V('menu.current', { name: 'Shanghai merchants' }));
  await page.goto('/merchant/list');
  await expect(keyword).toHaveValue('');
  await menuItem(page, 'Shanghai merchants');
  await expect(page).toHaveURL(/keyword=Shanghai/);
  await expect(keyword).toHaveValue('Shanghai');

  // Settlement batches: a view saved from a URL opens with its currency in the form.
  await page.goto('/txn/settleDetail?beginDate=2026-01-01&endDate=2026-01-31&setCur=HKD&page=1&size=10');
  await menuItem(page, V('menu.save'));
  await dialog.getByLabel(V('save.name')).fill('January HKD');
  await dialog.getByRole('button', { name: V('save.ok') }).click();
  await expect(viewsButton(page)).toHaveText(V('menu.current', { name: 'January HKD' }));
  const currency = page.locator('form .ant-select').filter({ has: page.getByLabel(S('col.currency'), { exact: true }) });
  await page.goto('/txn/settleDetail');
  await expect(currency).not.toContainText('HKD');
  await menuItem(page, 'January HKD');
  await expect(page).toHaveURL(/setCur=HKD/);
  await expect(currency).toContainText('HKD');

  for (const path of ['/txn/logistics', '/files', '/txn/settleList?beginDate=2026-01-05&endDate=2026-01-05&busLine=CARD&setCur=HKD&clientid=100000000000002']) {
    await page.goto(path);
    await expect(viewsButton(page), path).toBeVisible();
  }
  // Where the button sits, in Chinese at 390 and 1440 px.
  await useLanguage(page, 'zh');
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    for (const [name, path] of [
      ['merchants', '/merchant/list'],
      ['settle-detail', '/txn/settleDetail'],
      ['logistics', '/txn/logistics'],
      ['documents', '/files'],
    ]) {
      await page.goto(path);
      await expect(viewsButton(page, 'zh')).toBeVisible();
      await expectAccessible(page, `${name} with the views button (zh, ${width})`, 'form');
      await shot(page, `saved-views-${name}-zh-${width}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await useLanguage(page, 'en');
});

test('screens in four languages at 1440 and 390 px', async () => {
  test.setTimeout(360_000);
  for (const lng of LANGS) {
    await useLanguage(page, lng);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      await page.goto('/payByLink/list');
      await expect(viewsButton(page, lng)).toBeVisible();
      await menuItem(page, V('menu.save', {}, lng), lng);
      const dialog = page.getByRole('dialog', { name: V('save.title', {}, lng) });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, `save view (${lng}, ${width})`, '.ant-modal');
      await shot(page, `saved-views-save-${lng}-${width}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await page.goto('/txn/list?page=1');
      await menuItem(page, V('menu.manage', {}, lng), lng);
      await expect(page.getByRole('dialog', { name: V('manage.title', {}, lng) })).toBeVisible();
      await page.mouse.move(1, 1);
      await expectAccessible(page, `manage views (${lng}, ${width})`, '.ant-modal');
      await shot(page, `saved-views-manage-${lng}-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: V('manage.title', {}, lng) })).toBeHidden();
      await expectAccessible(page, `list with the views button (${lng}, ${width})`, 'form');
    }
  }
  await useLanguage(page, 'en');
});
