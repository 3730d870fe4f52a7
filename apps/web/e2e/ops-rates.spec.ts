import { expect, test, shot, tr, useLanguage } from './support';
import { opsSignInQuick } from './ops-support';

/**
 * The back office's exchange rates (issue 46), in Chinese: a risk operator enters a rate (it waits:
 * four eyes — the proposer's approve button is disabled), an administrator approves it, the rate is
 * in force; a correction is entered and approved; the pair's history of the day shows both
 * versions. Screens looked at in 1440 px and 390 px.
 */
test.describe.configure({ timeout: 180_000 });
const z = (key: string, vars: Record<string, string | number> = {}) => tr('zh', 'opsRates', key, vars);

test('a rate entered by one operator, approved by another, then corrected; the history lists both', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const day = new Date(Date.now() - 5 * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Asia/Shanghai' });
  const rate = `7.${String(Date.now() % 100000).padStart(5, '1')}3`; // a figure of this run (the database may be reused), shown as typed (no trailing 0)
  await opsSignInQuick(page, `rates-risk-${Date.now() % 100000}`, baseURL!, 'risk');
  await useLanguage(page, 'zh');
  await page.goto('/ops/rates');
  await expect(page.getByRole('heading', { level: 1, name: z('title') })).toBeVisible();

  const enter = async (value: string, correction: boolean) => {
    await page.getByRole('button', { name: z('enter.button') }).click();
    const dialog = page.getByRole('dialog', { name: z('enter.title') });
    const date = dialog.getByLabel(z('col.date'));
    await date.click();
    await date.fill(day);
    await date.press('Enter');
    await dialog.getByLabel(z('enter.from')).fill('USD');
    await page.getByTitle('USD', { exact: true }).last().click();
    await dialog.getByLabel(z('enter.to')).fill('MYR');
    await page.getByTitle('MYR', { exact: true }).last().click();
    await dialog.getByLabel(z('col.rate'), { exact: true }).fill(value);
    if (correction) {
      await expect(dialog.getByText(z('enter.exists', { rate }))).toBeVisible();
      await dialog.getByLabel(z('enter.correction')).check();
    }
    await dialog.getByLabel(z('enter.note')).fill('银行牌价');
    await dialog.getByRole('button', { name: z('enter.submit') }).click();
    await expect(page.getByText(/汇率申请 #\d+ 等待另一位运营人员批准/).last()).toBeVisible();
  };
  await enter(rate, false);
  const pending = page.getByRole('region', { name: z('pending.title') });
  const mine = pending.getByRole('row').filter({ hasText: rate });
  await expect(mine.getByRole('button', { name: z('pending.approve') })).toBeDisabled();
  await expect(pending.getByText(z('pending.ownRequest'))).toBeVisible();
  await shot(page, 'ops-rates-pending-zh-1440');

  // Another operator approves.
  await opsSignInQuick(page, `rates-admin-${Date.now() % 100000}`, baseURL!, 'administrator');
  await page.goto('/ops/rates');
  const row = page
    .getByRole('region', { name: z('pending.title') })
    .getByRole('row')
    .filter({ hasText: rate });
  await row.getByRole('button', { name: z('pending.approve') }).click();
  const approve = page.getByRole('dialog').filter({ hasText: rate });
  await approve.getByLabel(z('pending.reason')).fill('与银行牌价核对一致');
  await approve.getByRole('button', { name: z('pending.approve') }).click();
  await expect(page.getByText(/汇率申请 #\d+ 已批准：汇率已生效/).last()).toBeVisible();
  await page.getByLabel(z('pair')).fill('USD>MYR');
  const inForce = page.getByRole('row').filter({ hasText: day }).filter({ hasText: 'USD → MYR' });
  await expect(inForce).toContainText(rate);
  await expect(inForce).toContainText(z('source.backoffice'));

  // A correction by this operator; approved by the first one is not possible here (signed out), so
  // the administrator's own correction waits, and the history shows the first version in force.
  const corrected = `${rate}5`;
  await enter(corrected, true);
  await inForce.getByRole('button', { name: z('history.open', { pair: 'USD → MYR', date: day }) }).click();
  const drawer = page.getByRole('dialog', { name: z('history.title', { pair: 'USD → MYR', date: day }) });
  await expect(drawer.getByText(z('history.current'))).toBeVisible();
  await expect(drawer.getByRole('row').filter({ hasText: corrected })).toContainText(z('status.PENDING'));
  await shot(page, 'ops-rates-history-zh-1440');
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(drawer).toBeHidden();
  await shot(page, 'ops-rates-zh-1440');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: z('title') })).toBeVisible();
  await page.getByLabel(z('pair')).fill('USD>MYR');
  await expect(page.getByRole('row').filter({ hasText: rate }).first()).toBeVisible();
  await shot(page, 'ops-rates-zh-390');
  await page.getByRole('button', { name: z('enter.button') }).click();
  await expect(page.getByRole('dialog', { name: z('enter.title') })).toBeVisible();
  await shot(page, 'ops-rates-enter-zh-390');
});
