import { type Page } from '@playwright/test';
import { toMinor, type BankMatching } from '@portal/contract';
import type { Timeline } from '../src/features/trail/api';
import { camtStatement } from '../../api/src/modules/bankrec/bankrec.fixtures';
import { expect, expectAccessible, recordNetwork, shot, test, tr, useLanguage } from './support';
import { freshToken, signInQuick } from './report-support';

/**
 * The money trail in Japanese (issue 49 §1, §3): a finance user opens a transfer's payout proof from
 * the transfer report, drills from a line to its rows and back, exports the proof; then finds a
 * pay-by-link order by its buyer's e-mail and sees its timeline; once the order is settled, paid
 * out and the bank's credit for that transfer matched, its timeline reaches the bank credit; the
 * cash calendar opens a scheduled transfer's proof. (bankrec.spec.ts: the statement upload, the
 * fee match accepted, another undone and redone.) Screenshots at 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial' });

const ja = (key: string) => tr('ja', 'trail', key);
let page: Page;
let order: { merId: string; orderNo: string; email: string } | null = null;

const apiToken = () => freshToken(page);

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  recordNetwork(page, 'trail');
  await page.goto('/');
  await useLanguage(page, 'ja');
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => page.context().close());

test("a transfer's proof: from the transfer report, drill into a line and back, export it", async () => {
  await page.goto('/report/transfer');
  const link = page.getByRole('link', { name: new RegExp(`^${ja('proofLink')} `) }).first();
  await expect(link).toBeVisible({ timeout: 30_000 });
  await link.click();
  await expect(page).toHaveURL(/\/report\/transfer\/proof\//);
  await expect(page.getByText(ja('balanced'), { exact: true })).toBeVisible();
  await expect(page.getByText(ja('sentTotal'))).toBeVisible();
  await shot(page, 'trail-proof-ja-1440');
  await expectAccessible(page, 'payout proof');
  // Drill: the first line with rows opens them, with their total; back returns to the equation.
  const lineButtons = page.getByRole('button', { name: new RegExp(`^${ja('openLine')}`) });
  await lineButtons.first().click();
  await expect(page).toHaveURL(/line=/);
  await expect(page.getByText(new RegExp(ja('rowsTotal').replace('{{n}}', '\\d+')))).toBeVisible();
  await expect(page.getByText(ja('rowsDiffer'))).toHaveCount(0);
  await shot(page, 'trail-proof-rows-ja-1440');
  await page.getByRole('button', { name: ja('back') }).click();
  await expect(page).not.toHaveURL(/line=/);
  await expect(page.getByText(ja('sentTotal'))).toBeVisible();
  // Export: the CSV arrives as a file.
  await page.getByRole('button', { name: ja('export') }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: ja('exportCsv') }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'trail-proof-ja-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("an order found by its buyer's e-mail: its timeline", async () => {
  const token = await apiToken();
  const email = `trail.${Date.now()}@example.com`;
  const created = await (
    await page.request.post('/api/payByLink/add', {
      headers: { 'x-token': token },
      form: {
        reconId: `E2E-TRAIL-${Date.now()}`,
        orderCurrency: 'HKD',
        totalAmount: '88.00',
        goodsName: 'Widget',
        goodsPrice: '88.00',
        goodsQuantity: '1',
        logFee: '0',
        remarks: '',
        buyerEmail: email,
        sendEmailChecked: 'false',
      },
    })
  ).json();
  expect(created.code, created.msg).toBe(0);
  const linkToken = (created.data.payByLink as string).split('/pay/')[1];
  const paid = await (await page.request.post(`/api/checkout/${linkToken}/pay`, { form: { method: 'visa', cardNumber: '4111111111111111' } })).json();
  expect(paid.code, paid.msg).toBe(0);
  await page.goto('/trail/order');
  await page.getByRole('textbox', { name: ja('timeline.search') }).fill(email);
  await page.getByRole('button', { name: ja('timeline.find') }).click();
  const hit = page.getByRole('link', { name: created.data.orderNo });
  await hit.click();
  await expect(page).toHaveURL(/merId=\d{15}/);
  order = { merId: new URL(page.url()).searchParams.get('merId')!, orderNo: created.data.orderNo, email };
  await expect(page.getByText(ja('timeline.kind.attemptLink'))).toBeVisible();
  await expect(page.getByText(tr('ja', 'trail', 'timeline.kind.link', { what: ja('timeline.link.created') }))).toBeVisible();
  await shot(page, 'trail-timeline-ja-1440');
  await expectAccessible(page, 'order timeline');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'trail-timeline-ja-390');
});

test("the order settled and paid out, the bank's credit matched: its timeline down to the bank credit; the cash calendar opens a proof", async () => {
  expect(order, 'the order of the test before').toBeTruthy();
  await page.setViewportSize({ width: 1440, height: 900 });
  // The settlement run as of a few days into next month (the development route; files.spec.ts may have run
  // the month end already): the order's transaction settles — late, if its day had run — and is paid out.
  const shanghai = new Date(Date.now() + 8 * 3_600_000);
  const at = `${new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth() + 1, 4)).toISOString().slice(0, 10)}T01:00:00+08:00`;
  const run = await (await page.request.post('/api/dev/runJob', { data: { job: 'monthEnd', at }, timeout: 240_000 })).json();
  expect(run.code, run.msg).toBe(0);
  let token = await apiToken();
  const tl = await (await page.request.get('/api/trail/order/timeline', { headers: { 'x-token': token }, params: { merId: order!.merId, no: order!.orderNo } })).json();
  expect(tl.code, tl.msg).toBe(0);
  const transfer = (tl.data as Timeline).events.find((e) => e.kind === 'transfer');
  expect(transfer?.transferId, 'the transfer that paid the order').toBeTruthy();
  const cur = transfer!.currency!;
  // The bank's statement: the transfer's credit on its remit date; matched (proposed, confirmed) or, failing that, by hand.
  const xml = camtStatement({
    id: `E2E-TL-${Date.now()}`,
    account: 'HK12E2E0000000002',
    currency: cur,
    opening: 0,
    entries: [{ amount: toMinor(transfer!.amount!, cur), currency: cur, date: transfer!.day!, bankRef: 'E2E-TL-CREDIT', debtor: 'Acquirer Settlement Ltd' }],
  });
  const up = await (
    await page.request.post('/api/bankrec/statements', {
      headers: { 'x-token': token },
      multipart: { merId: order!.merId, file: { name: 'timeline-camt053.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) } },
    })
  ).json();
  expect(up.code, up.msg).toBe(0);
  token = await apiToken();
  const view = (await (await page.request.get('/api/bankrec/matching', { headers: { 'x-token': token }, params: { merId: order!.merId, beginDate: transfer!.day!, endDate: transfer!.day! } })).json())
    .data as BankMatching;
  const match = view.matches.find((m) => m.transfers.some((x) => x.id === transfer!.transferId));
  const done = match
    ? match.state === 'confirmed'
      ? { code: 0 }
      : await (await page.request.post(`/api/bankrec/matches/${match.id}/confirm`, { headers: { 'x-token': token } })).json()
    : await (
        await page.request.post('/api/bankrec/matches', {
          headers: { 'x-token': token },
          data: {
            entryIds: view.unmatchedCredits
              .filter((c) => c.entry.amount === transfer!.amount)
              .map((c) => c.entry.id)
              .slice(0, 1),
            transferIds: [transfer!.transferId],
          },
        })
      ).json();
  expect(done.code, done.msg).toBe(0);

  await page.goto('/trail/order');
  await page.getByRole('textbox', { name: ja('timeline.search') }).fill(order!.email);
  await page.getByRole('button', { name: ja('timeline.find') }).click();
  await page.getByRole('link', { name: order!.orderNo }).click();
  for (const k of ['attemptLink', 'settled', 'transfer', 'bankCredit']) await expect(page.getByText(ja(`timeline.kind.${k}`), { exact: true }).first()).toBeVisible();
  await shot(page, 'trail-timeline-bank-ja-1440');

  // The cash calendar's scheduled transfers open their proofs.
  await page.goto('/dashboard');
  const calendar = page.locator('.ant-card', { has: page.getByText(tr('ja', 'dashboard', 'calendar.title')) });
  await expect(calendar.getByText(tr('ja', 'dashboard', 'calendar.scheduled'))).toBeVisible({ timeout: 30_000 });
  await shot(page, 'trail-cash-calendar-ja-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'trail-cash-calendar-ja-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await calendar
    .getByRole('link', { name: new RegExp(`^${ja('proofLink')} `) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/report\/transfer\/proof\//);
  await expect(page.getByText(ja('balanced'), { exact: true })).toBeVisible();
});
