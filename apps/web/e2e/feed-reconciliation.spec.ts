import type { Page } from '@playwright/test';
import { expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * Issue 25 §3: the manual reconciliation screen also shows the gateway feed's reconciliation for a
 * day (the differences themselves are proven by the API tests, apps/api/test/gateway-day.test.ts
 * and the gateway module's): the card, its day picker and its empty state, in two languages, at
 * 1440 and 390 px, axe clean.
 */
test.describe.configure({ mode: 'serial' });
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

for (const lng of ['en', 'zh'] as const) {
  test(`the feed's differences for a day, ${lng}`, async () => {
    await useLanguage(page, lng);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // The first call may meet an expired 5-second access token (code 3): the app refreshes and asks again.
      const answered = page.waitForResponse(async (r) => r.url().includes('/api/gateway/differences') && (await r.json().catch(() => null))?.code === 0);
      await page.goto('/txn/manualBlend');
      await answered;
      const card = page.getByTestId('feed-differences');
      await expect(card).toContainText(tr(lng, 'settleDetail', 'feed.title'));
      const picker = card
        .getByRole('textbox', { name: tr(lng, 'settleDetail', 'feed.date') })
        .or(card.locator('.ant-picker input'))
        .first();
      const yesterday = await picker.inputValue();
      expect(yesterday).toMatch(/^\d{4}-\d\d-\d\d$/);
      await expect(card.getByText(tr(lng, 'settleDetail', 'feed.none', { date: yesterday }))).toBeVisible();
      await card.scrollIntoViewIfNeeded();
      await shot(page, `feed-reconciliation-${lng}-${width}`);
      if (width === 1440) await expectAccessible(page, `manual reconciliation (${lng})`);
    }
  });
}
