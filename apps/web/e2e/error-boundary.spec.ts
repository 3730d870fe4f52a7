import { type Page } from '@playwright/test';
import { allowConsoleError, expect as expectBase, expectAccessible, LANGS, shot, sideMenu, test, tr, type Lang } from './support';
import { signInQuick } from './report-support';

const expect = expectBase.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 300_000 });

/**
 * Issue 45 §4, the web's safety net: a screen that throws shows a translated "something went wrong"
 * with the latest request id and a way back — inside the shell, whose menu stays usable — in four
 * languages; a chunk missing after a deploy reloads the page once, then says so (never a loop).
 */
let page: Page;
let base = '';
test.beforeAll(async ({ browser, baseURL }) => {
  base = baseURL!;
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const lang = (lng: Lang) => page.context().addCookies([{ name: 'mp_lang', value: lng, domain: new URL(base).hostname, path: '/' }]);
/** The account screen's chunk, as the build named it. */
const USER_INFO_CHUNK = /\/assets\/user-info-page-[\w-]+\.js$/;

for (const lng of LANGS) {
  test(`a screen that throws shows the boundary inside the shell, with the request id and a way back (${lng})`, async () => {
    allowConsoleError(/screen-probe|portal: a screen failed|The above error occurred|An error occurred in the/);
    await lang(lng);
    // The screen's module, as a deploy with a bug would ship it: its component throws when drawn.
    await page.route(USER_INFO_CHUNK, (r) => r.fulfill({ contentType: 'text/javascript', body: 'export const UserInfoPage = () => { throw new TypeError("screen-probe"); };' }));
    await page.goto('/user/info');
    const alert = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: tr(lng, 'common', 'crash.title') }) });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(tr(lng, 'common', 'crash.text'));
    // The latest answer's X-Request-Id, for support to find the server's log lines.
    const ref = tr(lng, 'common', 'crash.reference', { id: '' }).trim();
    await expect(alert).toContainText(ref);
    expect((await alert.textContent())!.split(ref)[1]).toMatch(/^\s*[\w-]{8,}/);
    // The shell around it still works: the menu is there and another screen opens.
    await expect(sideMenu(page, lng)).toBeVisible();
    if (lng === 'ja') {
      await shot(page, 'error-boundary-screen-1440-ja');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'error-boundary-screen-390-ja');
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await expectAccessible(page, `error boundary (${lng})`);
    await page.unroute(USER_INFO_CHUNK);
    await alert.getByRole('link', { name: tr(lng, 'common', 'crash.home') }).click();
    await expect(page).not.toHaveURL(/\/user\/info/);
    await expect(page.getByRole('heading', { name: tr(lng, 'common', 'crash.title') })).toHaveCount(0);
    await expect(page.locator('.app-shell__main')).toBeVisible();
  });
}

test('a chunk gone after a deploy reloads the page once, then says the portal was updated (zh)', async () => {
  // React's #306 (a lazy screen whose module came back empty) is logged while the page reloads.
  allowConsoleError(/Failed to fetch dynamically imported module|portal: a screen failed|The above error occurred|An error occurred in the|user-info-page|React error #306/);
  await lang('zh');
  await page.goto('/dashboard');
  await expect(page.locator('.app-shell__main')).toBeVisible();
  // The old build's chunk is no longer on the server.
  await page.route(USER_INFO_CHUNK, (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
  let loads = 0;
  page.on('load', () => void loads++);
  await page.evaluate(() => sessionStorage.removeItem('portal:chunk-reload-at'));
  await page.evaluate(() => {
    history.pushState(null, '', '/user/info');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  const alert = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: tr('zh', 'common', 'crash.chunkTitle') }) });
  await expect(alert).toBeVisible();
  // One reload, made by the guard — not a loop.
  expect(loads).toBe(1);
  await page.waitForTimeout(1500);
  expect(loads).toBe(1);
  // The chunk is back (the new build): "reload" opens the screen.
  await page.unroute(USER_INFO_CHUNK);
  await alert.getByRole('button', { name: tr('zh', 'common', 'crash.reload') }).click();
  await expect(page.getByRole('heading', { name: tr('zh', 'common', 'crash.chunkTitle') })).toHaveCount(0);
  await expect(page.locator('.app-shell__main')).toBeVisible();
  expect(loads).toBe(2);
});
