import { type Page } from '@playwright/test';
import { EMAIL, PASSWORD, expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * Four eyes on a refund (issue 28), in Chinese: the administrator sets a refund limit for a
 * purchase's currency, adds a second refunder, and asks for a refund above the limit — it waits;
 * the second user approves it from the approvals screen with the password, and the refund is made
 * once (exactly-once under parallel approvals, expiry, rejection: approvals.test.ts).
 */
test.describe.configure({ mode: 'serial' });

const L = 'zh' as const;
const APPROVER = 'appr-e2e';
EMAIL[APPROVER] = 'appr-e2e@demo-group.example';

let a: Page;
let b: Page;
let detailUrl = '';
let currency = '';
let orderNo = '';

test.beforeAll(async ({ browser, baseURL }) => {
  a = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await a.goto('/login');
  await useLanguage(a, L);
  await signInQuick(a, 'demo', baseURL!);
});
test.afterAll(async () => {
  await a.context().close();
  await b?.context().close();
});

test('the administrator sets a refund limit and adds a second refunder', async () => {
  // A refundable purchase: its currency is the one limited.
  await a.goto('/txn/list?gwTranType=PURC&gwResponse=00');
  const links = a.locator('.txn-order-link');
  await expect(links.first()).toBeVisible();
  for (let i = 0; i < Math.min(await links.count(), 10) && !detailUrl; i++) {
    // its successful answer (the first may meet the 5-second access token's expiry and be refreshed)
    const detail = a.waitForResponse(async (r) => /\/api\/txn\/\d+(\?|$)/.test(r.url()) && (await r.json().catch(() => null))?.code === 0);
    const no = (await links.nth(i).textContent())!.trim();
    await links.nth(i).click();
    const d = (await (await detail).json()).data as { gwCurrency: string; refundable: string };
    if (Number(d.refundable) >= 1) {
      detailUrl = a.url();
      currency = d.gwCurrency;
      orderNo = no;
    } else await a.goBack();
  }
  expect(detailUrl, 'a refundable purchase').toBeTruthy();

  await a.goto('/merchant/user');
  await a.getByRole('tab', { name: tr(L, 'roles', 'tab.fourEyes') }).click();
  await a.getByRole('button', { name: tr(L, 'approvals', 'policy.addLimit') }).click();
  await a.getByRole('combobox', { name: tr(L, 'approvals', 'policy.currency') }).click();
  await a.locator('.ant-select-dropdown').getByTitle(currency, { exact: true }).click();
  await a.getByRole('textbox', { name: tr(L, 'approvals', 'policy.amount') }).fill('0');
  await a.getByRole('button', { name: tr(L, 'team', 'form.save') }).click();
  await expect(a.getByText(tr(L, 'approvals', 'policy.saved'))).toBeVisible();
  await shot(a, 'team-four-eyes-policy-zh');
  await expectAccessible(a, 'four-eyes tab (zh)');

  await a.getByRole('tab', { name: tr(L, 'roles', 'tab.users') }).click();
  await a.getByRole('button', { name: tr(L, 'team', 'addUser') }).click();
  const add = a.getByRole('dialog', { name: tr(L, 'team', 'addUser') });
  await add.getByLabel(tr(L, 'team', 'form.userName')).fill(APPROVER);
  await add.getByLabel(tr(L, 'team', 'form.email')).fill(EMAIL[APPROVER]);
  await add.getByRole('radio', { name: new RegExp(`^${tr(L, 'team', 'role.REFUNDS.name')}`) }).check();
  await add.getByRole('button', { name: tr(L, 'team', 'form.submit') }).click();
  await expect(a.getByText(tr(L, 'team', 'added', { name: APPROVER, email: EMAIL[APPROVER] }))).toBeVisible();
  let link = '';
  await expect
    .poll(async () => {
      const body = (await (await a.request.get('/api/dev/mailbox')).json()) as { data: { to: string; text: string }[] };
      link = /https?:\/\/\S+\/user\/active\?\S+/.exec(body.data.find((m) => m.to.includes(EMAIL[APPROVER]))?.text ?? '')?.[0] ?? '';
      return link;
    })
    .toBeTruthy();
  const token = new URL(link).searchParams.get('token')!;
  expect((await (await a.request.post('/api/user/active', { form: { token, newPassword: PASSWORD, confirmPassword: PASSWORD } })).json()).code).toBe(0);
});

test('a refund above the limit waits; the second user approves it and it is made once', async ({ browser, baseURL }) => {
  await a.goto(detailUrl);
  await a.getByRole('button', { name: tr(L, 'txn', 'action.refund') }).click();
  const amount = a.getByRole('dialog', { name: tr(L, 'txn', 'refund.amountTitle') }).getByRole('spinbutton', { name: tr(L, 'txn', 'refund.amount') });
  await amount.fill('1');
  await amount.press('Enter');
  const pw = a.getByRole('dialog', { name: tr(L, 'txn', 'refund.passwordTitle') });
  await pw.getByRole('textbox', { name: tr(L, 'txn', 'refund.password') }).fill(PASSWORD);
  const answer = a.waitForResponse(async (r) => r.url().includes('/api/txn/refund') && (await r.json().catch(() => null))?.code === 0);
  await pw.getByRole('button', { name: tr(L, 'txn', 'refund.confirm') }).click();
  const res = (await (await answer).json()).data as { code: number; approvalId: number; msg: string };
  expect(res.code).toBe(5);
  await expect(a.getByText(res.msg)).toBeVisible();

  b = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await b.goto('/login');
  await useLanguage(b, L);
  await signInQuick(b, APPROVER, baseURL!);
  await b.goto('/merchant/approvals');
  const row = b.getByRole('row', { name: new RegExp(`#${res.approvalId}`) });
  await expect(row).toContainText(orderNo);
  await expect(row).toContainText(tr(L, 'approvals', 'status.PENDING'));
  await shot(b, 'team-approvals-zh');
  await expectAccessible(b, 'approvals (zh)');
  await row.getByRole('button', { name: `${tr(L, 'approvals', 'approve')} #${res.approvalId}` }).click();
  const dialog = b.getByRole('dialog', { name: tr(L, 'approvals', 'approveTitle', { id: res.approvalId }) });
  await dialog.getByLabel(tr(L, 'approvals', 'password')).fill(PASSWORD);
  await dialog.getByRole('button', { name: tr(L, 'approvals', 'approve') }).click();
  await expect(b.getByText(tr(L, 'approvals', 'approved', { id: res.approvalId }))).toBeVisible();
  await b.getByRole('combobox', { name: tr(L, 'approvals', 'filter.status') }).click();
  await b.locator('.ant-select-dropdown').getByTitle(tr(L, 'approvals', 'filter.all'), { exact: true }).click();
  await expect(row).toContainText(tr(L, 'approvals', 'status.APPROVED'));
  await b.setViewportSize({ width: 390, height: 844 });
  await shot(b, 'team-approvals-zh-390');
  // The purchase's detail shows the one refund.
  await a.reload();
  await expect(a.getByText(`${orderNo}-R`).first()).toBeVisible();
});
