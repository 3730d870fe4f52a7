import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, firstAnswer, shot, test, tr, useLanguage } from './support';
import { signInQuick } from './report-support';

/**
 * Issue 48, in Chinese: a chargeback arrives through the provider API (signed like a gateway), the
 * dashboard counts it, a finance user answers it with two files before the deadline, the gateway
 * rules it won (provider API again), the next settlement credits it back, the transaction detail
 * shows both lines, and the merchant's webhook receiver got dispute.created, dispute.updated and
 * dispute.closed. Screenshots of the inbox, detail and respond screens at 1440 and 390 px, axe clean.
 */
test.describe.configure({ mode: 'serial' });
let page: Page;
let server: http.Server;
const received: { type: string; outcome?: string | null }[] = [];
const SUB_A = '100000000000002';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001', 'hex');

test.beforeAll(async ({ browser, baseURL }) => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        const e = JSON.parse(body) as { type: string; data?: { outcome?: string | null } };
        received.push({ type: e.type, outcome: e.data?.outcome });
      } catch {
        /* not JSON */
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
});
test.afterAll(async () => {
  await page.context().close();
  await new Promise((r) => server.close(r));
});

const token = async () => (await page.context().cookies()).find((c) => c.name === 'mp_token')!.value;
/** A portal call as the signed-in user (the 5-second access token refreshed by a page load when stale). */
async function api(method: 'GET' | 'POST', url: string, data?: unknown) {
  for (let i = 0; i < 3; i++) {
    const res = await (method === 'GET' ? page.request.get(url, { headers: { 'x-token': await token() } }) : page.request.post(url, { headers: { 'x-token': await token() }, data }));
    const body = await res.json();
    if (body.code !== 3 && body.code !== -1) return body;
    await page.reload();
  }
  throw new Error(`${url}: session`);
}
/** A signed provider call (the gateway's side): hex HMAC-SHA256 of `timestamp.METHOD.path.body`. */
async function provider(key: { keyId: string; secret: string }, path: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHmac('sha256', key.secret).update(`${ts}.POST.${path}.${body}`).digest('hex');
  const res = await page.request.post(path, { headers: { 'content-type': 'application/json', 'x-gateway-key-id': key.keyId, 'x-gateway-timestamp': ts, 'x-gateway-signature': sig }, data: body });
  return res.json();
}

test('a chargeback arrives, is answered with two files, won, credited back; the receiver got the three events (zh)', async () => {
  test.setTimeout(90_000);
  await useLanguage(page, 'zh');
  const port = (server.address() as AddressInfo).port;
  const ep = await api('POST', '/api/webhooks/endpoint/create', { merId: SUB_A, url: `http://127.0.0.1:${port}/hook`, events: ['dispute.created', 'dispute.updated', 'dispute.closed'] });
  expect(ep.code, ep.msg).toBe(0);
  const dev = await (await page.request.post('/api/dev/disputes', { data: { key: true, purchase: SUB_A } })).json();
  expect(dev.code, dev.msg).toBe(0);
  const { key, purchase } = dev.data as { key: { keyId: string; secret: string }; purchase: { id: string; gw_trans_id: string; amount: string; currency: string } };
  const amount = (Math.floor(Number(purchase.amount) / 2) / 100).toFixed(2);
  const row = {
    gwDisputeId: `E2E-${Date.now()}`,
    gwGTransId: purchase.gw_trans_id,
    kind: 'chargeback',
    status: 'needs_response',
    reasonCode: '13.1',
    amount,
    currency: purchase.currency.trim(),
    deadline: new Date(Date.now() + 10 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
  };
  const arrived = await provider(key, '/provider/v1/disputes', { disputes: [row] });
  expect(arrived.data.results[0], JSON.stringify(arrived)).toMatchObject({ status: 'accepted' });
  const id = arrived.data.results[0].disputeId as number;

  // The dashboard counts it.
  await page.goto('/dashboard');
  const counts = page.getByTestId('dispute-counts');
  await expect(counts).toContainText(tr('zh', 'disputes', 'state.needs_response'));
  await expect(counts.getByRole('link', { name: new RegExp(`^${tr('zh', 'disputes', 'state.needs_response')}\\s*[1-9]`) })).toBeVisible();

  // The inbox, sorted by deadline with days left — its first page rendered on the server when the session is fresh.
  const first = await firstAnswer<{ content: { gwDisputeId: string }[] }>(page, '/api/disputes/list', ['disputes', 'list'], () => page.goto('/disputes/list'));
  expect(first.data.content.map((d) => d.gwDisputeId)).toContain(row.gwDisputeId);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/disputes/list');
    await expect(page.getByRole('link', { name: row.gwDisputeId })).toBeVisible();
    await shot(page, `disputes-inbox-zh-${width}`);
    if (width === 1440) await expectAccessible(page, 'disputes inbox (zh)');
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('link', { name: row.gwDisputeId }).click();
  await expect(page.getByText(tr('zh', 'disputes', 'detail.helps'))).toBeVisible();
  await expect(page.getByText(tr('zh', 'disputes', 'detail.unknownReason')).or(page.getByText('13.1 · 未收到商品或服务'))).toBeVisible();

  // A finance user answers with two files and a statement.
  const input = page.locator('input[type=file]');
  await input.setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: PDF });
  const dl = (name: string) => page.getByRole('button', { name: `${tr('zh', 'disputes', 'respond.download')} ${name}` });
  await expect(dl('receipt.pdf')).toBeVisible();
  await page.getByRole('combobox', { name: tr('zh', 'disputes', 'respond.category') }).click();
  await page.locator('.ant-select-item-option-content', { hasText: tr('zh', 'disputes', 'category.proof_of_delivery') }).click();
  await input.setInputFiles({ name: 'delivery.png', mimeType: 'image/png', buffer: PNG });
  await expect(dl('delivery.png')).toBeVisible();
  await page.getByLabel(tr('zh', 'disputes', 'detail.statement')).fill('买家已于 11 月 3 日签收，附签收照片与收据。');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByText(tr('zh', 'disputes', 'respond.title'), { exact: true }).evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await shot(page, `disputes-respond-zh-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, 'dispute respond (zh)');
  await page.getByRole('button', { name: tr('zh', 'disputes', 'respond.submit') }).click();
  await page.getByRole('button', { name: tr('zh', 'disputes', 'respond.ok') }).click();
  await expect(page.getByText(tr('zh', 'disputes', 'state.under_review')).first()).toBeVisible();
  await expect(page.getByText(tr('zh', 'disputes', 'send.sent')).first()).toBeVisible();

  // The gateway rules it won; the next settlement credits it back.
  const won = await provider(key, '/provider/v1/disputes', { disputes: [{ ...row, status: 'won' }] });
  expect(won.data.results[0]).toMatchObject({ status: 'accepted', state: 'won' });
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  expect((await (await page.request.post('/api/dev/runJob', { data: { job: 'monthEnd', at } })).json()).code).toBe(0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/disputes/detail/${id}`);
    await expect(page.getByText(tr('zh', 'disputes', 'state.won')).first()).toBeVisible();
    await expect(page.getByText(tr('zh', 'disputes', 'line.credit'))).toBeVisible();
    await shot(page, `disputes-detail-zh-${width}`);
  }
  await expectAccessible(page, 'dispute detail (zh)');
  // The transaction detail shows the debit and the credit back.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/txn/detail/${purchase.id}`);
  await expect(page.getByText(tr('zh', 'txn', 'type.DISPUTE')).first()).toBeVisible();
  await expect(page.getByText(tr('zh', 'txn', 'type.DISPUTE_REVERSAL')).first()).toBeVisible();
  // The receiver got the three events (the job runner delivers within seconds).
  await expect.poll(() => [...new Set(received.map((e) => e.type))].sort(), { timeout: 30_000 }).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  expect(received.find((e) => e.type === 'dispute.closed')?.outcome).toBe('won');
});
