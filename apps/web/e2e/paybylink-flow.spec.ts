import { type Browser, type Page } from '@playwright/test';
import { expect, test, recordNetwork, shot, tr } from './support';
import { signInQuick } from './report-support';

/**
 * Pay by link with two browsers: the merchant creates an order with the buyer's e-mail and a bill
 * file and opens the QR dialog; the buyer opens the link from the e-mail in the outbox and pays on
 * the hosted checkout (in Japanese, the buyer's browser language); the merchant's dialog turns to
 * 'Payment Successful' within one poll, and the payment is in the transaction list. A second order
 * paid with the failing test amount (…51) ends in 'Payment Failed'.
 */
test.describe.configure({ mode: 'serial' });

const P = (key: string, vars?: Record<string, string | number>) => tr('en', 'payByLink', key, vars);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
let merchant: Page;
const stamp = Date.now().toString(36);

test.beforeAll(async ({ browser, baseURL }) => {
  merchant = await (await browser.newContext({ acceptDownloads: true })).newPage();
  recordNetwork(merchant, 'paybylink-merchant');
  await signInQuick(merchant, 'demo', baseURL!);
});
test.afterAll(async () => merchant.context().close());

interface MailItem {
  file: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; size: number; contentType: string }[];
}

/** The buyer's e-mail in the development outbox. */
async function mailTo(page: Page, to: string): Promise<MailItem> {
  let mail: MailItem | undefined;
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get('/api/dev/mailbox')).json()) as { data: MailItem[] };
        mail = body.data.find((m) => m.to.includes(to));
        return !!mail;
      },
      { message: `e-mail to ${to} in the outbox`, timeout: 20_000 },
    )
    .toBe(true);
  return mail!;
}

/** Fills and sends the create dialog; returns the order number and link of the confirmation dialog. */
async function createOrder(o: { reconId: string; amount: string; goods: string; email?: string; bill?: boolean }) {
  await merchant.getByRole('button', { name: P('action.newOrder') }).click();
  const dialog = merchant.getByRole('dialog', { name: P('form.createTitle') });
  await expect(dialog.getByLabel(P('form.orderCurrency'))).toBeVisible();
  await dialog.getByLabel(P('form.reconId')).fill(o.reconId);
  await dialog.getByLabel(P('form.totalAmount')).fill(o.amount);
  await expect(dialog.getByLabel(P('form.goodsPrice'))).toHaveValue(o.amount); // the goods price follows the total
  await dialog.getByLabel(P('form.goodsName')).fill(o.goods);
  if (o.email) await dialog.getByLabel(P('form.buyerEmail')).fill(o.email);
  if (o.bill) {
    await dialog.getByRole('checkbox', { name: P('form.sendEmail') }).check();
    await dialog.locator('input[type=file]').setInputFiles({ name: `bill-${o.reconId}.pdf`, mimeType: 'application/pdf', buffer: PDF });
    await expect(dialog.getByText(`bill-${o.reconId}.pdf`)).toBeVisible();
  }
  await shot(merchant, `paybylink-create-${o.reconId.split('-')[0].toLowerCase()}`);
  await dialog.getByRole('button', { name: P('form.submit') }).click();
  const confirm = merchant.getByRole('dialog', { name: P('confirm.title') });
  await expect(confirm).toBeVisible();
  const link = (await confirm.getByTestId('confirm-link').textContent())!.trim();
  const orderNo = (await confirm.locator('.ant-descriptions-item-content').first().textContent())!.trim();
  expect(link).toMatch(/\/pay\/[A-Za-z0-9_-]{43}$/);
  return { link, orderNo, confirm };
}

/** Resolves on the merchant page's first status poll of `orderNo` that answers `status` ('00' paid, '01' ended). */
function pollAnswers(page: Page, orderNo: string, status: '00' | '01') {
  return page.waitForResponse(async (r) => r.url().includes(`/api/payByLink/orderno/${orderNo}`) && (await r.json()).data?.status === status, { timeout: 60_000 });
}

async function buyerPays(browser: Browser, link: string, method: string, card?: string) {
  const buyer = await (await browser.newContext({ locale: 'ja-JP', viewport: { width: 420, height: 900 } })).newPage();
  recordNetwork(buyer, 'paybylink-buyer');
  await buyer.goto(link);
  await expect(buyer.getByTestId('co-merchant')).toHaveText('Demo Group Ltd');
  await expect(buyer.getByRole('button', { name: /を支払う$/ })).toBeVisible();
  await buyer.getByRole('radio', { name: method }).check();
  if (card) await buyer.getByLabel('カード番号').fill(card);
  await shot(buyer, `paybylink-checkout-${method}`);
  await buyer.getByRole('button', { name: /を支払う$/ }).click();
  await expect(buyer.getByTestId('co-result')).toBeVisible();
  return buyer;
}

test('the merchant e-mails a link with a bill; the buyer pays it; the QR dialog turns to Payment Successful', async ({ browser }) => {
  await merchant.goto('/payByLink/list');
  await expect(merchant.getByRole('columnheader', { name: P('column.orderno') })).toBeVisible();
  const email = `buyer-${stamp}@shop.example`;
  const { link, orderNo, confirm } = await createOrder({ reconId: `INV-${stamp}`, amount: '88.80', goods: 'Blue widget', email, bill: true });
  await expect(merchant.getByText(P('emailSent', { email }))).toBeVisible();
  await confirm.getByRole('button', { name: P('confirm.showQr') }).click();

  const qr = merchant.getByTestId('qr-dialog');
  await expect(qr.getByTestId('qr-merchant')).toHaveText('Demo Group Ltd');
  await expect(qr.getByTestId('qr-amount')).toContainText('HKD');
  await expect(qr.getByTestId('qr-amount')).toContainText('88.80');
  await expect(qr.getByText(P('qr.scanHint'))).toBeVisible();
  await expect(qr.getByText(P('qr.scanHintOther'))).toBeVisible();
  await expect(qr.locator('.ant-qrcode')).toHaveCSS('width', '220px'); // the QR of the link at size 220
  await expect(qr.locator('.ant-qrcode canvas')).toHaveAttribute('width', '220');
  const logos = qr.getByTestId('qr-logos').locator('img');
  await expect(logos).toHaveCount(8); // HKD at the demo group: 5 on the first row, 3 on the second
  // (measured once the dialog's opening animation is over)
  await expect
    .poll(async () => {
      const [a, b, c] = await Promise.all([0, 4, 5].map(async (i) => (await logos.nth(i).boundingBox())!.y));
      return Math.abs(a - b) < 0.5 && c - b > 10;
    })
    .toBe(true);
  await shot(merchant, 'paybylink-qr');

  // The buyer finds the link (and the bill) in the e-mail.
  const mail = await mailTo(merchant, email);
  expect(mail.subject).toContain('Demo Group Ltd');
  expect(mail.text).toContain('HKD 88.80');
  expect(mail.attachments.map((a) => a.filename)).toEqual([`bill-INV-${stamp}.pdf`]);
  const mailed = /https?:\/\/\S+\/pay\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  expect(mailed).toBe(link);

  // The QR dialog's poll that first answers "paid" (waited for as an event, not a time budget).
  const paidPolled = pollAnswers(merchant, orderNo, '00');
  const buyer = await buyerPays(browser, mailed!, 'VISA', '4111 1111 1111 1111');
  await expect(buyer.getByRole('heading', { name: 'お支払いが完了しました' })).toBeVisible();
  await shot(buyer, 'paybylink-checkout-paid');

  // On that poll's answer the merchant's QR dialog gives way to the success dialog.
  await paidPolled;
  const success = merchant.getByRole('dialog').filter({ hasText: P('result.successTitle') });
  await expect(success).toBeVisible();
  await expect(success).toContainText(P('result.orderNo', { orderNo }));
  await expect(success).toContainText(P('result.reconId', { reconId: `INV-${stamp}` }));
  await expect(qr).toHaveCount(0);
  await shot(merchant, 'paybylink-success');
  await success.getByRole('button', { name: P('result.done') }).click();
  const row = merchant.getByRole('row').filter({ hasText: orderNo });
  await expect(row.getByTestId('pbl-status')).toHaveText(P('status.paid'));
  await expect(row.getByRole('button', { name: P('action.close') })).toBeDisabled();
  await buyer.context().close();

  // The payment is a transaction of the merchant.
  await merchant.goto(`/txn/list?orderNum=${orderNo}`);
  await expect(merchant.getByRole('row').filter({ hasText: orderNo })).toBeVisible();
  await shot(merchant, 'paybylink-txn-list');

  // The detail: bill file, link, timeline with the e-mail, the visit and the payment.
  await merchant.goto('/payByLink/list');
  await merchant
    .getByRole('row')
    .filter({ hasText: orderNo })
    .getByRole('link', { name: P('action.details') })
    .click();
  await expect(merchant.getByTestId('pbl-descriptions')).toContainText(`bill-INV-${stamp}.pdf`);
  await expect(merchant.getByTestId('pbl-link')).toHaveText(link);
  const activity = merchant.getByTestId('pbl-activity');
  await expect(activity).toContainText(P('activity.emailed', { to: email }));
  await expect(activity).toContainText(P('activity.opened'));
  await expect(activity).toContainText(P('activity.paymentSuccess', { method: 'VISA' }));
  const download = merchant.waitForEvent('download');
  await merchant.getByRole('button', { name: P('action.view') }).click();
  expect((await download).suggestedFilename()).toBe(`bill-INV-${stamp}.pdf`);
  await expect(merchant.getByRole('button', { name: P('action.showQr') })).toHaveCount(0); // paid: no QR
  await shot(merchant, 'paybylink-detail');
});

test('an order paid with the failing test amount ends in Payment Failed / Order close', async ({ browser }) => {
  await merchant.goto('/payByLink/list');
  const { link, orderNo, confirm } = await createOrder({ reconId: `FAIL-${stamp}`, amount: '10.51', goods: 'Red widget' });
  await confirm.getByRole('button', { name: P('confirm.showQr') }).click();
  await expect(merchant.getByTestId('qr-dialog')).toBeVisible();
  const endedPolled = pollAnswers(merchant, orderNo, '01');
  const buyer = await buyerPays(browser, link, 'WeChat Pay');
  await expect(buyer.getByRole('heading', { name: 'お支払いに失敗しました' })).toBeVisible();
  await endedPolled;
  const failure = merchant.getByRole('dialog').filter({ hasText: P('result.failureTitle') });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText(P('result.failureSub'));
  await shot(merchant, 'paybylink-failure');
  await failure.getByRole('button', { name: P('result.close') }).click();
  await expect(merchant.getByRole('row').filter({ hasText: orderNo }).getByTestId('pbl-status')).toHaveText(P('status.closed'));
  await buyer.context().close();
});

test('the detail page turns to Paid while open when the buyer pays (no reload)', async ({ browser }) => {
  await merchant.goto('/payByLink/list');
  const { link, orderNo, confirm } = await createOrder({ reconId: `LIVE-${stamp}`, amount: '7.25', goods: 'Live widget' });
  await merchant.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await merchant
    .getByRole('row')
    .filter({ hasText: orderNo })
    .getByRole('link', { name: P('action.details') })
    .click();
  const status = merchant.getByTestId('pbl-descriptions').getByTestId('pbl-status');
  await expect(status).toHaveText(P('status.notPaid'));
  await expect(merchant.getByRole('button', { name: P('action.showQr') })).toBeVisible();
  const url = merchant.url();
  const buyer = await buyerPays(browser, link, 'WeChat Pay');
  await expect(buyer.getByTestId('co-result')).toBeVisible();
  await expect(status).toHaveText(P('status.paid'), { timeout: 20_000 });
  await expect(merchant.getByRole('button', { name: P('action.showQr') })).toHaveCount(0);
  expect(merchant.url(), 'the same page, not reloaded').toBe(url);
  await buyer.context().close();
});

test('close asks first; cancelling says failed, confirming closes the order', async () => {
  await merchant.goto('/payByLink/list');
  const { orderNo, confirm } = await createOrder({ reconId: `CLOSE-${stamp}`, amount: '5.00', goods: 'Green widget' });
  await confirm.getByRole('button', { name: 'Close', exact: true }).click();
  const row = merchant.getByRole('row').filter({ hasText: orderNo });
  await row.getByRole('button', { name: P('action.close') }).click();
  await merchant
    .getByRole('dialog')
    .getByRole('button', { name: P('closeConfirm.cancel') })
    .click();
  await expect(merchant.getByText(P('failed'), { exact: true })).toBeVisible();
  await row.getByRole('button', { name: P('action.close') }).click();
  await merchant
    .getByRole('dialog')
    .getByRole('button', { name: P('closeConfirm.ok') })
    .click();
  await expect(merchant.getByText(P('closeMsg'))).toBeVisible();
  await expect(row.getByTestId('pbl-status')).toHaveText(P('status.closed'));
});
