import { type Page } from '@playwright/test';
import { EMAIL, expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * The quarterly access review (issue 28 item 3, decision 048), in Chinese: an administrator adds a
 * user, opens the review from the team page's banner, revokes that user (disable), confirms the
 * rest and completes the review; the record is listed with its decisions. (The inactivity job,
 * grant end dates, scope and permission rules: access.*.test.ts.)
 */
test.describe.configure({ mode: 'serial' });

const L = 'zh' as const;
const LEAVER = 'leaver-e2e';
EMAIL[LEAVER] = 'leaver-e2e@demo-group.example';

let a: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  a = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await a.goto('/login');
  await useLanguage(a, L);
  await signInQuick(a, 'demo', baseURL!);
});
test.afterAll(async () => a.context().close());

test('an administrator revokes one user, confirms the rest and completes the review; the record is listed', async () => {
  await a.goto('/merchant/user');
  await a.getByRole('button', { name: tr(L, 'team', 'addUser') }).click();
  const add = a.getByRole('dialog', { name: tr(L, 'team', 'addUser') });
  await add.getByLabel(tr(L, 'team', 'form.userName')).fill(LEAVER);
  await add.getByLabel(tr(L, 'team', 'form.email')).fill(EMAIL[LEAVER]);
  await add.getByRole('radio', { name: new RegExp(`^${tr(L, 'team', 'role.READONLY.name')}`) }).check();
  await add.getByRole('button', { name: tr(L, 'team', 'form.submit') }).click();
  await expect(a.getByText(tr(L, 'team', 'added', { name: LEAVER, email: EMAIL[LEAVER] }))).toBeVisible();

  // The banner says the quarter's review is due and leads to it.
  await a
    .getByRole('link', { name: tr(L, 'access', 'open') })
    .first()
    .click();
  await expect(a).toHaveURL(/\/merchant\/team\/review$/);
  const table = a.getByRole('table', { name: tr(L, 'access', 'tableLabel') });
  await expect(table.getByText(LEAVER, { exact: true })).toBeVisible();
  await shot(a, 'access-review-1440-zh');
  await a.setViewportSize({ width: 390, height: 844 });
  await shot(a, 'access-review-390-zh');
  await a.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(a, 'access review (zh)');

  // Revoke the leaver (disable), then confirm everyone else.
  await table.getByRole('button', { name: `${tr(L, 'access', 'action.disable')} ${LEAVER}` }).click();
  await a
    .getByRole('dialog')
    .getByRole('button', { name: tr(L, 'access', 'action.disable') })
    .click();
  await expect(a.getByText(tr(L, 'access', 'decided.DISABLE', { name: LEAVER }))).toBeVisible();
  const confirmLabel = tr(L, 'access', 'action.confirm');
  const confirms = table.getByRole('button', { name: new RegExp(`^${confirmLabel} `) });
  // The leaver's own Confirm goes with the refreshed rows: count the rest only after it has gone
  // (counted before, on a slow engine, it made one round too many, waiting for a button never there).
  await expect(table.getByRole('button', { name: `${confirmLabel} ${LEAVER}`, exact: true })).toHaveCount(0);
  await expect(confirms.first()).toBeVisible();
  while ((await confirms.count()) > 0) {
    const name = (await confirms.first().getAttribute('aria-label'))!;
    await confirms.first().click();
    await expect(table.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(a.getByText(tr(L, 'access', 'allDecided'))).toBeVisible();
  await a.getByRole('button', { name: tr(L, 'access', 'complete') }).click();
  await expect(a.getByText(tr(L, 'access', 'completed'))).toBeVisible();

  // The record: listed with its decisions, readable in full.
  const history = a.getByRole('table', { name: tr(L, 'access', 'history.title') });
  await expect(history.getByText(new RegExp(`${tr(L, 'access', 'history.counts', { confirmed: '\\d+', disabled: 1, removed: 0 })}`))).toBeVisible();
  await history
    .getByRole('button', { name: new RegExp(`^${tr(L, 'access', 'history.view')} `) })
    .first()
    .click();
  const detail = a.getByRole('dialog');
  const leaverRow = detail.getByRole('row').filter({ hasText: LEAVER });
  await expect(leaverRow.getByText(tr(L, 'access', 'decision.DISABLED'))).toBeVisible();
  await shot(a, 'access-review-record-1440-zh');
  await a.keyboard.press('Escape');

  // The team page: the banner is gone; the Access tab holds the inactivity limit.
  await a.goto('/merchant/user');
  await a.getByRole('tab', { name: tr(L, 'roles', 'tab.access') }).click();
  await expect(a.getByLabel(tr(L, 'access', 'policy.inactiveDays'))).toHaveValue('90');
  await expect(a.getByText(tr(L, 'access', 'due', { quarter: '' }).trim())).toHaveCount(0);
  await shot(a, 'access-tab-1440-zh');
});
