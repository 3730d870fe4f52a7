import type { Page } from '@playwright/test';
import { expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { pickOption, signInQuick } from './report-support';

/**
 * The time zone a user chooses (user info page): every shown time moves to it — the audit log's
 * times, the transaction list's default zone — it survives a reload (kept on the server), and
 * choosing the browser's zone again brings the browser's times back. The browser here is in
 * Asia/Shanghai (playwright.config.ts); the chosen zone is Asia/Tokyo, one hour ahead.
 */
test.describe.configure({ mode: 'serial' });

const U = (key: string, vars?: Record<string, string | number>) => tr('en', 'user', key, vars);
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const zoneSelect = (p: Page) => p.getByTestId('time-zone');
const tzFilter = (p: Page) => p.locator('form .ant-select').filter({ has: p.getByLabel(tr('en', 'txn', 'filter.timeZone'), { exact: true }) });
/** 'YYYY-MM-DD HH:mm' of now in `zone`. */
const nowIn = (zone: string, at = new Date()) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

async function chooseZone(p: Page, label: string, typed: string) {
  await p.goto('/user/info');
  await pickOption(p, zoneSelect(p), label, typed);
}

test('choose Asia/Tokyo: the audit log and the transaction list show Tokyo time, after a reload too', async () => {
  await page.goto('/txn/list?page=1'); // ?page=1: not the bare list, which opens the user's default view (saved-views.spec sets one)
  await expect(tzFilter(page)).toContainText('UTC+8');

  const before = new Date();
  await chooseZone(page, 'Asia/Tokyo (UTC+9)', 'Asia/Tokyo');
  await expect(page.getByText(U('info.timeZoneSaved', { zone: 'Asia/Tokyo' }))).toBeVisible();
  await expect(zoneSelect(page)).toContainText('Asia/Tokyo (UTC+9)');

  // The change itself is the newest audit entry; its time is shown in Tokyo time.
  await page.goto('/merchant/audit');
  const row = page
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: tr('en', 'team', 'auditAction.account_timezone_changed') })
    .first();
  await expect(row).toBeVisible();
  const shown = (await row.innerText()).match(/\d{4}-\d\d-\d\d \d\d:\d\d/)![0];
  expect([nowIn('Asia/Tokyo', before), nowIn('Asia/Tokyo')]).toContain(shown);
  expect(shown).not.toBe(nowIn('Asia/Shanghai', before));

  await page.goto('/txn/list?page=1'); // ?page=1: not the bare list, which opens the user's default view (saved-views.spec sets one)
  await expect(tzFilter(page)).toContainText('UTC+9');
  await page.reload();
  await expect(tzFilter(page)).toContainText('UTC+9');
});

test("the browser's zone again: times go back to Shanghai", async () => {
  await chooseZone(page, U('info.timeZoneBrowser', { zone: 'Asia/Shanghai (UTC+8)' }), 'Shanghai');
  await expect(page.getByText(U('info.timeZoneSaved', { zone: 'Asia/Shanghai' }))).toBeVisible();
  await page.goto('/txn/list?page=1'); // ?page=1: not the bare list, which opens the user's default view (saved-views.spec sets one)
  await expect(tzFilter(page)).toContainText('UTC+8');
  await page.goto('/merchant/audit');
  const row = page
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: tr('en', 'team', 'auditAction.account_timezone_changed') })
    .first();
  const shown = (await row.innerText()).match(/\d{4}-\d\d-\d\d \d\d:\d\d/)![0];
  const now = new Date();
  expect([nowIn('Asia/Shanghai', new Date(now.getTime() - 60_000)), nowIn('Asia/Shanghai', now)]).toContain(shown);
});

test('the setting in Korean and Japanese at 390 and 1440 px', async () => {
  for (const lng of ['ko', 'ja'] as const) {
    await useLanguage(page, lng);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      await page.goto('/user/info');
      await expect(zoneSelect(page)).toContainText(tr(lng, 'user', 'info.timeZoneBrowser', { zone: 'Asia/Shanghai (UTC+8)' }));
      await expectAccessible(page, `user info with the time zone (${lng}, ${width})`, '.user-info');
      await shot(page, `time-zone-${lng}-${width}`);
    }
  }
  await useLanguage(page, 'en');
});
