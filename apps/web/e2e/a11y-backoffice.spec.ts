import { expect as expectBase, expectAccessible, test, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/** This machine is shared and slow at times: generous waits (a real defect still fails, only later). */
const expect = expectBase.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 600000 });

/**
 * Issue 13 and 26, accessibility (WCAG 2.2 AA) of the provider's back office: axe-core finds no
 * serious or critical violation. Its own file (a11y.spec.ts holds the merchant portal's screens) so
 * the two engine-independent halves can run in different e2e suites (playwright.config.ts).
 */

/** Every screen and dialog is checked before the test fails: one run names every finding. */
const SOFT = { soft: true };

/** No spinner or skeleton left: checked every frame (an expect's retries back off to 0.5 s). */
async function settle(p: import('@playwright/test').Page) {
  await p.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .full-page-spin, .ant-skeleton-active'), undefined, { timeout: 20_000, polling: 'raf' });
}

/** The provider's back office (issue 26): its sign-in and activation pages, and every screen of an administrator, with the new-merchant drawer. */
test('the back office screens and the new-merchant drawer, en and zh', async ({ browser, baseURL }) => {
  const p = await (await browser.newContext()).newPage();
  for (const lng of ['en', 'zh'] as const) {
    await useLanguage(p, lng);
    for (const path of ['/ops/login', '/ops/activate?token=not-a-valid-token-000000000']) {
      await p.goto(path);
      await expect(p.locator('html')).toHaveAttribute('lang', lng);
      await settle(p);
      await expectAccessible(p, `${path} (${lng})`, undefined, SOFT);
    }
  }
  await opsSignInQuick(p, 'a11y-admin', baseURL!);
  for (const lng of ['en', 'zh'] as const) {
    await useLanguage(p, lng);
    for (const path of ['/ops/merchants', '/ops/approvals', '/ops/notices', '/ops/audit', '/ops/operators', '/ops/sessions', '/ops/runs', '/ops/disputes']) {
      await p.goto(path);
      await expect(p.locator('html')).toHaveAttribute('lang', lng);
      await expect.soft(p.getByRole('heading', { level: 1 }), `one h1 on ${path}`).toHaveCount(1);
      await settle(p);
      await expectAccessible(p, `${path} (${lng})`, undefined, SOFT);
    }
    await p.goto('/ops/merchants');
    await p.getByRole('button', { name: tr(lng, 'ops', 'merchants.new') }).click();
    await expect(p.getByRole('dialog')).toBeVisible();
    await expectAccessible(p, `new merchant drawer (${lng})`, '.ant-drawer', SOFT);
    await p.goto('/ops/notices');
    await p.getByRole('button', { name: tr(lng, 'opsNotices', 'write') }).click();
    await expect(p.getByRole('dialog')).toBeVisible();
    await expectAccessible(p, `notice drawer (${lng})`, '.ant-drawer', SOFT);
  }
  await p.context().close();
});
