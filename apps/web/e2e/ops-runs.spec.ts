import { expect, test, shot, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/**
 * The back office's runs screen (issue 26, decision 045), in Japanese: an administrator re-runs a
 * settlement date (run now, or — already settled — nothing changes) and sees it in the list with
 * its operator; sees a failed job with its error and retries it (queued again, the same row).
 * Screens looked at in 1440 px and 390 px.
 */
test.describe.configure({ timeout: 180_000 });
const j = (key: string, vars: Record<string, string | number> = {}) => tr('ja', 'opsRuns', key, vars);

test('an administrator re-runs a settlement date and retries a failed job', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await opsSignInQuick(page, 'runs-admin', baseURL!);
  const failed = await (await page.request.post('/api/dev/failedJob')).json();
  expect(failed.code, failed.msg).toBe(0);
  await useLanguage(page, 'ja');
  await page.goto('/ops/runs');
  await expect(page.getByRole('heading', { level: 1, name: j('title') })).toBeVisible();

  // Settlement: run yesterday (the daily job may have done it already: then nothing changes).
  const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Asia/Shanghai' });
  const picker = page.getByLabel(j('settlement.pickDate'));
  await picker.click();
  await picker.fill(yesterday);
  await picker.press('Enter');
  await page.getByRole('button', { name: j('settlement.runDate') }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: j('settlement.rerun') })
    .click();
  await expect(page.getByText(new RegExp(`${yesterday} (は精算済み|を精算しました)`)).first()).toBeVisible({ timeout: 120_000 });
  const row = page.getByRole('row').filter({ hasText: yesterday }).first();
  await expect(row).toContainText(j('state.done'));
  // Again from the row: settled already, nothing changes; the attempt is listed with the operator.
  await row.getByRole('button', { name: j('settlement.rerunDate', { date: yesterday }) }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: j('settlement.rerun') })
    .click();
  await expect(page.getByText(j('settlement.skipped', { date: yesterday })).last()).toBeVisible();
  await row.locator('.ant-table-row-expand-icon').click();
  await expect(page.getByText(`${j('trigger.operator')} · runs-admin`).first()).toBeVisible();
  await shot(page, 'ops-runs-settlement-ja-1440');

  // Jobs: the failed one with its error; retry queues it again.
  await page.getByRole('tab', { name: j('tabs.jobs') }).click();
  const jobRow = page.getByRole('row').filter({ hasText: `#${failed.data.id} · dev.example` });
  await expect(jobRow).toContainText('Example failure');
  await shot(page, 'ops-runs-jobs-ja-1440');
  await jobRow.getByRole('button', { name: j('jobs.retryJob', { id: failed.data.id }) }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: j('jobs.retry') })
    .click();
  await expect(page.getByText(j('jobs.retried'))).toBeVisible();
  await expect(jobRow).toHaveCount(0); // no longer failed
  await page.getByLabel(j('col.state')).click();
  await page.getByTitle(j('state.queued')).click();
  await expect(page.getByRole('row').filter({ hasText: `#${failed.data.id} · dev.example` })).toContainText(j('state.queued'));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: j('tabs.settlement') }).click();
  await expect(page.getByRole('row').filter({ hasText: yesterday }).first()).toBeVisible();
  await shot(page, 'ops-runs-settlement-ja-390');
  await page.getByRole('tab', { name: j('tabs.gateways') }).click();
  await shot(page, 'ops-runs-gateways-ja-390');
});
