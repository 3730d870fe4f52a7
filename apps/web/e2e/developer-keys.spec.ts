import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, type Page } from '@playwright/test';
import { Perm } from '@portal/contract';
import { expect, test, openMenu, shot, sideMenu, signIn, tr, useLanguage } from './support';

/**
 * Developers (issue 31's whole flow), in Japanese: the main user creates an API key in the browser
 * and copies its secret (shown once), and adds a webhook endpoint (a receiver on loopback started
 * here); a script with that key finds a purchase and refunds part of it through the merchant API
 * (/v1); the receiver gets `refund.succeeded`, signed, and the endpoint's delivery log shows it;
 * the key's row shows its last use. Screens at 1440 and 390 px.
 */
test.describe.configure({ mode: 'serial' });

let ctx: BrowserContext;
let a: Page;
let secret = '';
let server: http.Server;
let hookUrl = '';
const got: { type: string; data: Record<string, unknown>; signature: string }[] = [];
const W = (key: string) => tr('ja', 'webhooks', key);

test.beforeAll(async ({ browser }) => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const e = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      got.push({ type: e.type, data: e.data, signature: String(req.headers['portal-signature']) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/erp-hook`;
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  a = await ctx.newPage();
});
test.afterAll(async () => {
  await ctx.close();
  await new Promise((r) => server.close(r));
});

const perm = (p: string) => tr('ja', 'team', `perm.${p.replace(/:/g, '_')}`);

test('the main user creates an API key and sees its secret once', async () => {
  await a.goto('/');
  const session = await signIn(a, 'demo');
  await useLanguage(a, 'ja');
  await a.reload();
  await openMenu(a, session.user.routers, 'developerKeys', 'ja');
  await expect(a).toHaveURL(/\/developers\/keys/);
  await expect(sideMenu(a, 'ja').getByRole('menuitem', { name: tr('ja', 'menu', 'developerWebhooks') })).toBeVisible();

  await a.getByRole('button', { name: tr('ja', 'developer', 'create') }).click();
  const dialog = a.getByRole('dialog', { name: tr('ja', 'developer', 'form.title') });
  await dialog.getByLabel(tr('ja', 'developer', 'form.name')).fill('ERP 連携');
  await dialog.getByRole('checkbox', { name: perm(Perm.txnList), exact: true }).check();
  await dialog.getByRole('checkbox', { name: perm(Perm.txnRefund), exact: true }).check();
  await dialog.getByLabel(tr('ja', 'developer', 'form.ipAllow')).fill('not-an-ip');
  await expect(dialog.getByText(tr('ja', 'developer', 'form.ipRule', { value: 'not-an-ip' }))).toBeVisible();
  await dialog.getByLabel(tr('ja', 'developer', 'form.ipAllow')).fill('127.0.0.1\n::1');
  await shot(a, 'developer-keys-create-ja-1440');
  await dialog.getByRole('button', { name: tr('ja', 'developer', 'form.submit') }).click();

  const shown = a.getByRole('dialog', { name: tr('ja', 'developer', 'secret.title') });
  await expect(shown.getByText(tr('ja', 'developer', 'secret.warning'))).toBeVisible();
  secret = (await shown.getByTestId('new-key-secret').innerText()).trim();
  expect(secret).toMatch(/^mpk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
  await shot(a, 'developer-keys-secret-ja-1440');
  await shown.getByRole('button', { name: tr('ja', 'developer', 'secret.done') }).click();
  const row = a.locator('.ant-table-row', { hasText: secret.slice(0, 16) });
  await expect(row).toContainText('ERP 連携');
  await expect(row).toContainText(tr('ja', 'developer', 'status.active'));
  await expect(row).toContainText(tr('ja', 'developer', 'never'));
  // The secret is not in the list.
  await expect(a.getByText(secret)).toHaveCount(0);
});

test('the main user adds a webhook endpoint for refunds', async () => {
  await sideMenu(a, 'ja')
    .getByRole('menuitem', { name: tr('ja', 'menu', 'developerWebhooks') })
    .click();
  await expect(a).toHaveURL(/\/developers\/webhooks/);
  await a.getByRole('button', { name: W('add') }).click();
  const dialog = a.getByRole('dialog', { name: W('form.titleAdd') });
  await dialog.getByLabel(W('form.url')).fill(hookUrl);
  await dialog.getByRole('button', { name: W('action.save') }).click();
  const shown = a.getByRole('dialog', { name: W('secret.title') });
  await expect(shown).toContainText(/whsec_[\w-]{20,}/);
  await shown
    .locator('.ant-modal-footer')
    .getByRole('button', { name: W('action.close') })
    .click();
  await expect(a.locator('.ant-table-tbody').first()).toContainText(hookUrl);
  await a.goto('/developers/keys');
});

test('a script with the key refunds a purchase through /v1; the list shows the key was used', async () => {
  const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    a.request.fetch(path, { method: init.method ?? 'GET', headers: { authorization: `Bearer ${secret}`, ...init.headers }, data: init.body });
  const list = await api('/v1/transactions?gwTranType=PURC&gwResponse=00&limit=20');
  expect(list.status()).toBe(200);
  const purchase = ((await list.json()) as { data: { id: number; amount: string; refunded_amount: string; currency: string }[] }).data.find(
    (t) => t.refunded_amount === '0' || Number(t.refunded_amount) === 0,
  );
  expect(purchase, 'a purchase not yet refunded').toBeTruthy();
  const amount = purchase!.currency === 'JPY' || purchase!.currency === 'KRW' ? '1' : '0.01';
  const body = { transaction_id: purchase!.id, amount };
  const refund = await api('/v1/refunds', { method: 'POST', body, headers: { 'idempotency-key': 'e2e-refund-0001' } });
  expect(refund.status(), await refund.text()).toBe(201);
  const made = (await refund.json()) as { id: number; type: string; origin_transaction_id: number };
  expect(made).toMatchObject({ type: 'REFD', origin_transaction_id: purchase!.id });
  // A retry of the same request answers the same refund.
  const again = await api('/v1/refunds', { method: 'POST', body, headers: { 'idempotency-key': 'e2e-refund-0001' } });
  expect(((await again.json()) as { id: number }).id).toBe(made.id);

  // The receiver gets the refund's event, signed; the endpoint's delivery log shows it delivered.
  await expect.poll(() => got.filter((g) => g.type === 'refund.succeeded').length, { timeout: 30_000 }).toBeGreaterThan(0);
  const event = got.find((g) => g.type === 'refund.succeeded')!;
  expect(event.data).toMatchObject({ type: 'REFD', currency: purchase!.currency });
  expect(event.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  await a.goto('/developers/webhooks');
  await a
    .getByRole('row')
    .filter({ hasText: hookUrl })
    .getByRole('button', { name: W('action.deliveries') })
    .click();
  await expect(
    a
      .locator('.ant-table-row')
      .filter({ hasText: W('event.refund_succeeded') })
      .first(),
  ).toContainText(W('state.succeeded'));
  await a.goto('/developers/keys');

  await a.getByRole('button', { name: tr('ja', 'developer', 'refresh') }).click();
  const row = a.locator('.ant-table-row', { hasText: secret.slice(0, 16) });
  await expect(row).not.toContainText(tr('ja', 'developer', 'never'));
  await shot(a, 'developer-keys-list-ja-1440');
  await a.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await shot(a, 'developer-keys-list-ja-390');
});
