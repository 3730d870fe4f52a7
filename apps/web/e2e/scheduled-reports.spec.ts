import { type Page } from '@playwright/test';
import { expect as expectBase, expectAccessible, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * Scheduled reports (issue 13): schedule the bill report from its screen with its filters, 'send
 * now', the e-mail with the file attached in the dev mailbox and the run in the file report, pause,
 * delete. Screens at 1440 and 390 px in en and ja, axe on the screen and the dialog.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });
const expect = expectBase.configure({ timeout: 30_000 });
const en = (key: string, vars?: Record<string, string | number>) => tr('en', 'schedule', key, vars);
let page: Page;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

const rowOf = (p: Page, text: string) => p.locator('tbody tr.ant-table-row').filter({ hasText: text });
const settle = (p: Page) => expect(p.locator('.ant-spin-spinning, .full-page-spin')).toHaveCount(0);

interface Mail {
  to: string;
  subject: string;
  attachments: { filename: string; size: number; contentType: string }[];
}

test('schedule the bill report from its screen, with its filters', async () => {
  await page.goto('/report/bill?beginDate=2026-11-01&endDate=2026-11-07');
  await page.getByRole('button', { name: en('button') }).click();
  const dialog = page.getByRole('dialog', { name: en('dialog.createTitle') });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('schedule-filters')).toHaveText('2026-11-01 ~ 2026-11-07');
  await expect(dialog.locator('.ant-select-selection-item').filter({ hasText: 'demo@demo-group.example' })).toBeVisible();
  await dialog.getByText(en('frequency.weekly')).click();
  await dialog.getByRole('combobox', { name: en('field.weekday') }).click();
  await page.locator('.ant-select-dropdown:visible').getByText(en('weekday.5'), { exact: true }).click();
  await expectAccessible(page, 'schedule dialog (en)', '.ant-modal');
  await shot(page, 'schedule-dialog-en-1440');
  await dialog.getByRole('button', { name: en('dialog.save') }).click();
  await expect(page.getByText(en('msg.saved'))).toBeVisible();
  await expect(dialog).toBeHidden();
});

test("the schedules screen lists it; 'send now' mails the file and records the run in the file report", async () => {
  await page.goto('/report/schedules');
  await settle(page);
  const row = rowOf(page, en('kind.report.bill'));
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(en('when.weekly', { day: en('weekday.5'), time: '08:00' }));
  await expect(row).toContainText('2026-11-01 ~ 2026-11-07');
  await expectAccessible(page, '/report/schedules (en)');
  await shot(page, 'schedules-en-1440');

  const since = Date.now();
  await row.getByRole('button', { name: en('action.sendNow') }).click();
  await expect(page.getByText(en('msg.sending'))).toBeVisible();
  let mail: Mail | undefined;
  await expect
    .poll(
      async () => {
        const box = (await (await page.request.get('/api/dev/mailbox')).json()).data as (Mail & { date: string })[];
        mail = box.find((m) => m.subject.startsWith('Scheduled report') && Date.parse(m.date) >= since - 5000);
        return !!mail;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(mail!.to).toBe('demo@demo-group.example');
  expect(mail!.attachments).toHaveLength(1);
  expect(mail!.attachments[0].filename).toMatch(/\.xlsx$/);
  expect(mail!.attachments[0].size).toBeGreaterThan(1000);

  await page.reload();
  await expect(rowOf(page, en('kind.report.bill'))).toContainText(en('result.sent'));
  await rowOf(page, en('kind.report.bill'))
    .getByRole('link', { name: en('action.openFile') })
    .click();
  await expect(page).toHaveURL(/\/report\/file/);
  const file = page.locator('tbody tr.ant-table-row').filter({ hasText: mail!.attachments[0].filename });
  await expect(file).toHaveCount(1);
  await expect(file).toContainText(tr('en', 'files', 'status.ready'));
});

test('pause, then the screens at 390 px and in Japanese, then delete', async () => {
  await page.goto('/report/schedules');
  await settle(page);
  const row = rowOf(page, en('kind.report.bill'));
  await row.getByRole('button', { name: en('action.pause') }).click();
  await expect(page.getByText(en('msg.paused'))).toBeVisible();
  await expect(row).toContainText(en('paused'));
  await expect(row.getByRole('button', { name: en('action.resume') })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await shot(page, 'schedules-en-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await useLanguage(page, 'ja');
  await page.reload();
  await settle(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('ja', 'menu', 'reportSchedules'));
  await shot(page, 'schedules-ja-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await settle(page);
  await expectAccessible(page, '/report/schedules (ja)');
  await shot(page, 'schedules-ja-1440');
  await page.goto('/report/bill?beginDate=2026-11-01&endDate=2026-11-07');
  await page.getByRole('button', { name: tr('ja', 'schedule', 'button') }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'schedule dialog (ja)', '.ant-modal');
  await shot(page, 'schedule-dialog-ja-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'schedule-dialog-ja-390');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1440, height: 900 });

  await useLanguage(page, 'en');
  await page.goto('/report/schedules');
  await settle(page);
  await rowOf(page, en('kind.report.bill'))
    .getByRole('button', { name: en('action.delete') })
    .click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: en('action.delete') })
    .click();
  await expect(page.getByText(en('msg.deleted'))).toBeVisible();
  await expect(rowOf(page, en('kind.report.bill'))).toHaveCount(0);
  await expect(page.getByText(en('empty'))).toBeVisible();
  await expectAccessible(page, '/report/schedules, empty (en)');
});

test('the transaction list offers Schedule with its filters (1440 and 390 px)', async () => {
  await page.goto('/txn/list');
  await settle(page);
  const button = page.getByRole('button', { name: en('button') });
  await expect(button).toBeVisible();
  await shot(page, 'txn-list-schedule-en-1440');
  await button.click();
  const dialog = page.getByRole('dialog', { name: en('dialog.createTitle') });
  await expect(dialog).toContainText(en('kind.txn'));
  await expect(dialog.getByTestId('schedule-filters')).toContainText(' ~ ');
  await dialog.getByRole('button', { name: en('dialog.cancel') }).click();
  await expect(dialog).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await shot(page, 'txn-list-schedule-en-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});
