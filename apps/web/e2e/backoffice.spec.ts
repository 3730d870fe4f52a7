import { EMAIL, PASSWORD, expect, test, shot, signIn, tr, useLanguage } from './support';
import { OPS_PASSWORD, addOperatorLink, opsSignInQuick, totpCode } from './ops-support';
import type { Page } from '@playwright/test';
import { columnTexts, dataRows, freshToken } from './report-support';

/**
 * The provider's back office (issue 26), as its first operator would use it, in Chinese: made by
 * `npm run ops -- add-operator` → activates (authenticator + password) → signs in with the
 * authenticator's code → creates a group merchant with fees and a bank account (and, through the ops
 * API, two sub-merchants) → the group's main user activates from the e-mail and signs in to the
 * merchant portal → sandbox transactions for it (a pay-by-link order paid on the hosted checkout,
 * the sandbox acquirer) settle in the settlement run with the fees entered (the figure computed here
 * from the MDR and fixed fee typed into the form) and the merchant's settlement screen shows them →
 * asks for a bank-account change → a second operator (risk) approves it with a reason → the notice
 * reaches the merchant. Screens looked at in 1440 px and 390 px.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const OP = 'ops-first';
const MAIN = 'e2e-group-main';
const MAIN_EMAIL = 'main@e2e-group.example';
EMAIL[MAIN] = MAIN_EMAIL;
let merchant: Page;
const z = (key: string, vars: Record<string, string> = {}) => tr('zh', 'ops', key, vars);
/** The group's fee line as the operator types it: MDR in percent, fixed fee in HKD. */
const MDR_PERCENT = '3';
const FIXED_FEE = '2.00';

test('first operator: activation link from the CLI, authenticator and password, sign-in with TOTP, a group merchant created', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const link = await addOperatorLink(page, OP);
  await useLanguage(page, 'zh');
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole('heading', { level: 1, name: z('activate.title') })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  await shot(page, 'ops-activate-zh-1440');
  const first = await totpCode(secret);
  await page.getByLabel(z('activate.totpCode')).fill(first);
  await page.getByLabel(z('activate.password'), { exact: true }).fill(OPS_PASSWORD);
  await page.getByLabel(z('activate.confirm')).fill(OPS_PASSWORD);
  await page.getByRole('button', { name: z('activate.submit') }).click();
  await expect(page.getByRole('heading', { name: z('activate.doneTitle') })).toBeVisible();
  await page.getByRole('button', { name: z('activate.toLogin') }).click();

  // Sign-in: a wrong authenticator code is refused; the right one (a new 30-second step) signs in.
  await expect(page.getByRole('heading', { level: 1, name: z('login.title') })).toBeVisible();
  await page.getByLabel(z('login.username')).fill(OP);
  await page.getByLabel(z('login.password'), { exact: true }).fill(OPS_PASSWORD);
  await page.getByLabel(z('login.verifyCode')).fill('000000');
  await page.getByRole('button', { name: z('login.submit') }).click();
  await expect(page.getByRole('alert').filter({ hasText: '验证码' })).toBeVisible();
  await shot(page, 'ops-login-zh-1440');
  await page.getByLabel(z('login.verifyCode')).fill(await totpCode(secret));
  await page.getByRole('button', { name: z('login.submit') }).click();
  await expect(page.getByRole('heading', { level: 1, name: z('merchants.title') })).toBeVisible();
  await expect(page.locator('.ant-table')).toContainText('Demo Group Ltd');

  // A group merchant with its fee line (the default CARD line), bank account and main user.
  await page.getByRole('button', { name: z('merchants.new') }).click();
  const drawer = page.getByRole('dialog');
  const pick = async (label: string, ...values: string[]) => {
    await drawer.getByLabel(label, { exact: true }).click();
    for (const v of values) {
      await drawer.getByLabel(label, { exact: true }).fill(v);
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: new RegExp(`^${v}$`) })
        .first()
        .click();
    }
    // Close the option list without Escape (which would close the drawer).
    await drawer.locator('.ant-drawer-title').click();
    await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  };
  await drawer.getByLabel(z('field.name'), { exact: true }).fill('E2E Group');
  await drawer.getByLabel(z('field.corporationName'), { exact: true }).fill('E2E Group Holdings Ltd');
  await drawer.getByLabel(z('field.country'), { exact: true }).fill('HK');
  await drawer.getByLabel(z('field.mcc'), { exact: true }).fill('5999');
  await pick(z('field.defaultCurrency'), 'HKD');
  await pick(z('field.settleCurrency'), 'HKD');
  await pick(z('field.channels'), 'CARD');
  await pick(z('field.currencies'), 'HKD');
  await drawer.getByLabel(z('fee.mdr'), { exact: true }).fill(MDR_PERCENT);
  await drawer.getByLabel(z('fee.fixedFee'), { exact: true }).fill(FIXED_FEE);
  // Issue 48: the dispute fee is part of the fee line.
  await drawer.getByLabel(z('fee.disputeFee')).fill('15.00');
  await drawer.getByLabel(z('bank.beneficiaryBank'), { exact: true }).fill('Example Bank Ltd');
  await drawer.getByLabel(z('bank.swiftCode'), { exact: true }).fill('EXAMHKHH');
  await drawer.getByLabel(z('bank.accountName'), { exact: true }).fill('E2E Group Holdings Ltd');
  await drawer.getByLabel(z('bank.accountNumber'), { exact: true }).fill('123456789012');
  await drawer.getByLabel(z('bank.country'), { exact: true }).fill('HK');
  await pick(z('bank.currency'), 'HKD');
  await drawer.getByLabel(z('operators.username'), { exact: true }).fill(MAIN);
  await drawer.getByLabel(z('operators.email'), { exact: true }).fill(MAIN_EMAIL);
  await shot(page, 'ops-merchant-new-zh-1440');
  // Access tokens last 5 seconds in e2e: the first answer may be "expired", then the replay after the refresh.
  const created = page.waitForResponse(async (r) => r.url().endsWith('/api/ops/merchants') && r.request().method() === 'POST' && (await r.json().catch(() => null))?.code !== 3);
  await drawer.getByRole('button', { name: z('merchants.save') }).click();
  const body = (await (await created).json()) as { code: number; msg: string; data: { merId: string; mailed: boolean } };
  expect(body.code, body.msg).toBe(0);
  expect(body.data.mailed).toBe(true);
  expect(((await created).request().postDataJSON() as { fees: { disputeFee: number }[] }).fees[0].disputeFee).toBe(1500);
  const groupId = body.data.merId;

  // Two sub-merchants of the group, through the ops API (the same service; the form was shown above).
  // A fresh pair for the API calls (the page's access token lives 5 seconds here).
  const refreshToken = (await page.context().cookies()).find((c) => c.name === 'mp_ops_refresh')!.value;
  const pair = await (await page.request.post('/api/ops/auth/refreshToken', { form: { refreshToken } })).json();
  expect(pair.code, pair.msg).toBe(0);
  const host = new URL(page.url()).hostname;
  await page.context().addCookies([
    { name: 'mp_ops_token', value: pair.data.token, domain: host, path: '/' },
    { name: 'mp_ops_refresh', value: pair.data.refreshToken, domain: host, path: '/' },
  ]);
  for (const name of ['E2E Sub One', 'E2E Sub Two']) {
    const sub = await (
      await page.request.post('/api/ops/merchants', {
        headers: { 'x-token': pair.data.token },
        data: {
          attribute: 'SUB',
          parentId: groupId,
          name,
          corporationName: `${name} Ltd`,
          country: 'HK',
          mcc: '5999',
          defaultCurrency: 'HKD',
          settleCurrency: 'HKD',
          channels: ['CARD'],
          currencies: ['HKD'],
          fees: [{ busLine: 'CARD', mdrBp: 300, fixedFee: 200, cycleDays: 1, reserveBp: 0, reserveHoldDays: 0, tranThreshold: 0, tranFee: 0, transferPeriod: 'D' }],
          bankAccount: { beneficiaryBank: 'Example Bank Ltd', swiftCode: 'EXAMHKHH', accountName: `${name} Ltd`, accountNumber: '998877665544', country: 'HK', currency: 'HKD' },
        },
      })
    ).json();
    expect(sub.code, sub.msg).toBe(0);
  }
  await page.getByRole('combobox', { name: z('merchants.group') }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'E2E Group' }).click();
  await expect(page.locator('.ant-table-tbody .ant-table-row')).toHaveCount(3);
  await page.getByRole('button', { name: groupId }).click();
  await expect(page.getByRole('dialog')).toContainText('T+1');
  await expect(page.getByRole('dialog')).toContainText('3.00%');
  await shot(page, 'ops-merchant-detail-zh-1440');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'ops-merchants-zh-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'ops-merchants-zh-1440');
  void baseURL;
});

test("the group's main user activates from the e-mail and signs in to the merchant portal", async ({ browser }) => {
  merchant = await (await browser.newContext()).newPage();
  const page = merchant;
  let link: string | undefined;
  await expect
    .poll(async () => {
      const box = (await (await page.request.get('/api/dev/mailbox')).json()) as { data: { to: string; text: string }[] };
      link = box.data.map((m) => (m.to.includes(MAIN_EMAIL) ? /\/user\/active\?token=[A-Za-z0-9_-]+/.exec(m.text)?.[0] : undefined)).find(Boolean);
      return link;
    })
    .toBeTruthy();
  const token = new URL(`http://x${link}`).searchParams.get('token')!;
  const act = await (await page.request.post('/api/user/active', { form: { token, newPassword: PASSWORD, confirmPassword: PASSWORD } })).json();
  expect(act.code, act.msg).toBe(0);
  await page.goto('/login');
  const session = await signIn(page, MAIN);
  expect(session.user.merName).toBe('E2E Group');
  groupOf.id = session.user.merId;
});

test('sandbox transactions for it settle in the settlement run with the fees the operator entered', async ({ browser }) => {
  const page = merchant;
  // Two purchases through the system's own sandbox path: the merchant makes pay-by-link orders, the
  // buyer pays each on the hosted checkout (sandbox acquirer: these amounts are approved).
  const amounts = ['123.45', '80.10'];
  const buyer = await (await browser.newContext()).newPage();
  for (const amount of amounts) {
    const order = await (
      await page.request.post('/api/payByLink/add', {
        headers: { 'x-token': await freshToken(page) },
        form: {
          reconId: `E2E-SETTLE-${amount}`,
          orderCurrency: 'HKD',
          totalAmount: amount,
          goodsName: 'Widget',
          goodsPrice: amount,
          goodsQuantity: '1',
          logFee: '0',
          remarks: '',
          buyerEmail: '',
          sendEmailChecked: 'false',
        },
      })
    ).json();
    expect(order.code, order.msg).toBe(0);
    const linkToken = (order.data.payByLink as string).split('/pay/')[1];
    const paid = await (await buyer.request.post(`/api/checkout/${linkToken}/pay`, { form: { method: 'visa', cardNumber: '4111111111111111' } })).json();
    expect(paid.code, paid.msg).toBe(0);
  }
  await buyer.context().close();
  // The settlement run (the same service as the daily job; the development route runs it as of an
  // instant, loopback only, never in production): two days on, today's transactions are due (T+1).
  const run = await (await page.request.post('/api/dev/runJob', { data: { job: 'monthEnd', at: new Date(Date.now() + 2 * 86_400_000).toISOString() } })).json();
  expect(run.code, run.msg).toBe(0);
  // The fee each purchase carries: MDR (half-even, in minor units) plus the fixed fee, from the form's figures.
  const minor = (d: string) => Math.round(Number(d) * 100);
  const mdrBp = Math.round(Number(MDR_PERCENT) * 100);
  const halfEven = (n: number, d: number) => {
    const q = Math.floor(n / d);
    const r = n - q * d;
    return r * 2 > d || (r * 2 === d && q % 2 === 1) ? q + 1 : q;
  };
  const fee = amounts.reduce((sum, a) => sum + halfEven(minor(a) * mdrBp, 10000) + minor(FIXED_FEE), 0);
  const settled = amounts.reduce((sum, a) => sum + minor(a), 0);
  const money = (m: number) => (m / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // In Chinese, the batch's every column shown (as the column chooser keeps it), settlement days around today.
  await useLanguage(page, 'zh');
  await page.evaluate(([key]) => localStorage.setItem(key, '[]'), [`mp_columns:${groupOf.id}:${MAIN}:settleDetail`]);
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/txn/settleDetail?beginDate=${day(-1)}&endDate=${day(3)}`);
  const table = page.locator('.ant-table');
  await expect(dataRows(table).first()).toBeVisible();
  const s = (key: string) => tr('zh', 'settleDetail', key);
  const fees = (await columnTexts(table, s('col.fee'))).map((x) => x.replace(/[^\d.,-]/g, ''));
  const amountsShown = (await columnTexts(table, s('col.settleAmount'))).map((x) => x.replace(/[^\d.,-]/g, ''));
  expect(fees).toContain(money(fee));
  expect(amountsShown).toContain(money(settled));
  await shot(page, 'backoffice-merchant-settled-zh-1440');
});

test('the merchant asks for a bank-account change', async () => {
  const page = merchant;
  // The merchant asks for a bank-account change (the detail screen's form posts this).
  const merchantToken = await freshToken(page);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const asked = await (
    await page.request.post('/api/merchant/bankChangeRequest', {
      headers: { 'x-token': merchantToken },
      multipart: {
        merId: groupOf.id,
        beneficiaryBank: 'Second Bank Ltd',
        swiftCode: 'SECOHKHH',
        accountName: 'E2E Group Holdings Ltd',
        accountNumber: '556677889900',
        country: 'HK',
        currency: 'HKD',
        document: { name: 'letter.pdf', mimeType: 'application/pdf', buffer: pdf },
      },
    })
  ).json();
  expect(asked.code, asked.msg).toBe(0);
});

test('a second operator approves the bank change with a reason, and the notice reaches the merchant', async ({ browser, baseURL }) => {
  const page = merchant;
  const ops = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await useLanguage(ops, 'zh');
  await opsSignInQuick(ops, 'ops-second-risk', baseURL!, 'risk');
  await ops.goto('/ops/approvals');
  await expect(ops.getByRole('heading', { level: 1, name: z('approvals.title') })).toBeVisible();
  const row = ops.locator('.ant-table-row').filter({ hasText: 'SECOHKHH' });
  await row.getByRole('button', { name: z('approvals.approve') }).click();
  await ops.getByLabel(z('approvals.reason')).fill('Bank letter checked');
  await shot(ops, 'ops-approvals-zh-1440');
  const decided = ops.waitForResponse(async (r) => r.url().includes('/approve') && (await r.json().catch(() => null))?.code !== 3);
  await ops
    .getByRole('dialog')
    .getByRole('button', { name: z('approvals.approve') })
    .click();
  expect(((await (await decided).json()) as { code: number }).code).toBe(0);
  await expect(row).toHaveCount(0);
  await ops.context().close();
  // The merchant's notices (its session still open): the decision, with the reason.
  const token = await freshToken(page);
  const list = await (await page.request.get('/api/notice/list', { headers: { 'x-token': token, 'accept-language': 'en' }, params: { page: 0, size: 10 } })).json();
  expect(JSON.stringify(list.data.content)).toContain('Bank letter checked');
  await page.context().close();
});

const groupOf = { id: '' };
