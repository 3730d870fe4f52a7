import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { toMinor, type TransferRow } from '@portal/contract';
import { camtStatement, type CamtEntry } from '../../api/src/modules/bankrec/bankrec.fixtures';
import { expect, expectAccessible, shot, test, tr } from './support';
import { freshToken, pickOption, signInQuick } from './report-support';

/**
 * Bank statements (issue 49 §2), in Japanese: a finance user uploads a camt.053 statement of the
 * demo merchant's transfers — one credit short by a bank fee, two exact, one stray —, accepts the
 * proposed fee match, confirms another, undoes it and confirms it again; the stray credit shows why
 * it matched nothing. Screens at 1440 and 390 px, axe on each.
 */
test.describe.configure({ mode: 'serial' });

const J = (key: string, vars: Record<string, string | number> = {}) => tr('ja', 'bankrec', key, vars);
let page: Page;
let token = '';
let transfers: TransferRow[] = [];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const RANGE = `beginDate=${day(-20)}&endDate=${day(3)}`;

test.beforeAll(async ({ browser, baseURL }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInQuick(page, 'demo', baseURL!);
  const host = new URL(baseURL!).hostname;
  await page.context().addCookies([{ name: 'mp_lang', value: 'ja', domain: host, path: '/' }]);
  token = await freshToken(page);
  // The demo merchant's transfers of the last days (the seed's settlement run made them).
  const res = await page.request.get('/api/report/transfer/list', { headers: { 'x-token': token }, params: { beginDate: day(-14), endDate: day(0), page: 0, size: 100 } });
  const body = await res.json();
  expect(body.code, body.msg).toBe(0);
  const paid = (body.data.content as TransferRow[]).filter((t) => t.remitDate && toMinor(t.realTransAmount, t.merTxnSet) >= 1_000_00);
  // Three transfers of one currency, of different amounts.
  const byCur = new Map<string, TransferRow[]>();
  for (const t of paid)
    byCur.set(
      t.merTxnSet,
      [...(byCur.get(t.merTxnSet) ?? []), t].filter((x, i, a) => a.findIndex((y) => y.realTransAmount === x.realTransAmount) === i),
    );
  transfers = [...byCur.values()].sort((a, b) => b.length - a.length)[0]?.slice(0, 3) ?? [];
  expect(transfers.length, 'three transfers of one currency in the demo data').toBe(3);
});
test.afterAll(async () => page.context().close());

test('a finance user uploads a camt.053 statement; the matcher proposes a bank-fee match and two exact ones', async () => {
  const [fee, a, b] = transfers;
  const cur = fee.merTxnSet;
  const m = (t: TransferRow) => toMinor(t.realTransAmount, cur);
  const entries: CamtEntry[] = [
    { amount: m(fee) - 250, currency: cur, date: fee.remitDate!, bankRef: 'E2E-FEE', debtor: 'Acquirer Settlement Ltd' },
    { amount: m(a), currency: cur, date: a.remitDate!, bankRef: 'E2E-A' },
    { amount: m(b), currency: cur, date: b.remitDate!, bankRef: 'E2E-B' },
    { amount: 4_321, currency: cur, date: day(-2), bankRef: 'E2E-STRAY', reference: 'REFUND FROM SUPPLIER' },
  ];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bankrec-e2e-')), 'statement-camt053.xml');
  fs.writeFileSync(file, camtStatement({ id: `E2E-${Date.now()}`, account: 'HK12E2E0000000001', currency: cur, opening: 100_000, entries }));

  await page.goto(`/bankrec?${RANGE}`);
  await expect(page.getByRole('heading', { name: tr('ja', 'menu', 'bankrec') })).toBeVisible();
  await page.getByRole('button', { name: J('upload.open') }).click();
  const dialog = page.getByRole('dialog', { name: J('upload.title') });
  await dialog.locator('input[type=file]').setInputFiles(file);
  await shot(page, 'bankrec-upload-ja-1440');
  await expectAccessible(page, 'bankrec upload dialog', '.ant-modal');
  await dialog.getByRole('button', { name: J('upload.run') }).click();
  await expect(page.getByText(J('upload.done', { statements: 1, duplicates: 0, added: 4, proposed: 3 }))).toBeVisible();

  const matches = page.locator('.ant-card-small', { has: page.getByRole('heading', { name: J('section.matches') }) });
  await expect(matches.locator('tbody tr.ant-table-row')).toHaveCount(3);
  const feeRow = matches.locator('tr.ant-table-row', { hasText: J('kind.fee') });
  await expect(feeRow).toContainText(J('state.proposed'));
  await expect(feeRow).toContainText('2.50');
  const unmatched = page.locator('.ant-card-small', { has: page.getByRole('heading', { name: J('section.unmatched') }) });
  await expect(unmatched).toContainText('REFUND FROM SUPPLIER');
  await expect(unmatched.locator('.ant-tag')).not.toHaveCount(0);
  await shot(page, 'bankrec-matching-proposed-ja-1440');
  await expectAccessible(page, 'bankrec matching (proposed)');
});

test('accepts the proposed fee match; undoes and redoes another', async () => {
  const matches = page.locator('.ant-card-small', { has: page.getByRole('heading', { name: J('section.matches') }) });
  const feeRow = matches.locator('tr.ant-table-row', { hasText: J('kind.fee') });
  await feeRow.getByRole('button', { name: new RegExp(`^${J('confirm')} #`) }).click();
  await expect(page.getByText(J('done.confirmed'))).toBeVisible();
  await expect(feeRow).toContainText(J('state.confirmed'));
  await expect(feeRow).toContainText(J('confirmedBy', { name: 'demo', at: '' }).trim().slice(0, 4));

  const exact = matches.locator('tr.ant-table-row', { hasText: J('kind.exact') }).first();
  const key = await exact.getAttribute('data-row-key');
  const row = () => matches.locator(`tr.ant-table-row[data-row-key="${key}"]`);
  await row()
    .getByRole('button', { name: new RegExp(`^${J('confirm')} #`) })
    .click();
  await expect(row()).toContainText(J('state.confirmed'));
  await row()
    .getByRole('button', { name: new RegExp(`^${J('undo')} #`) })
    .click();
  await expect(page.getByText(J('done.undone'))).toBeVisible();
  await expect(row()).toContainText(J('state.proposed'));
  await row()
    .getByRole('button', { name: new RegExp(`^${J('confirm')} #`) })
    .click();
  await expect(row()).toContainText(J('state.confirmed'));
  await expect(matches.locator('tr.ant-table-row', { hasText: J('state.confirmed') })).toHaveCount(2);
  await shot(page, 'bankrec-matching-confirmed-ja-1440');

  // The audit log has each step, by the demo user.
  await page.reload();
  await expect(matches.locator('tr.ant-table-row', { hasText: J('state.confirmed') })).toHaveCount(2);
  const fresh = await freshToken(page);
  const audit = await (await page.request.get('/api/audit/list', { headers: { 'x-token': fresh }, params: { page: 0, size: 50, beginDate: day(-1), endDate: day(1) } })).json();
  const actions = JSON.stringify(audit.data ?? audit);
  for (const a of ['bankrec.statement.import', 'bankrec.match.confirm', 'bankrec.match.undo']) expect(actions).toContain(a);
});

test('a CSV export: its column mapping asked for once, saved, then the file imports', async () => {
  const cur = transfers[0].merTxnSet;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bankrec-e2e-')), 'bank-export.csv');
  fs.writeFileSync(file, `Buchungstag;Betrag;Verwendungszweck;Auftraggeber\n${day(-3).split('-').reverse().join('.')};1.234,50;CSV-E2E-1;Bank A\n`);
  await page.goto(`/bankrec?${RANGE}&tab=statements`);
  await page.getByRole('button', { name: J('upload.open') }).click();
  await page
    .getByRole('dialog', { name: J('upload.title') })
    .locator('input[type=file]')
    .setInputFiles(file);
  await page
    .getByRole('dialog', { name: J('upload.title') })
    .getByRole('button', { name: J('upload.run') })
    .click();
  const dialog = page.getByRole('dialog', { name: J('csv.title') });
  await expect(dialog.getByText(J('csv.hint', { file: 'bank-export.csv' }))).toBeVisible();
  await pickOption(page, dialog.getByLabel(J('csv.col.date')), 'Buchungstag');
  await pickOption(page, dialog.getByLabel(J('csv.col.amount')), 'Betrag');
  await pickOption(page, dialog.getByLabel(J('csv.col.reference')), 'Verwendungszweck');
  await pickOption(page, dialog.getByLabel(J('csv.col.counterparty')), 'Auftraggeber');
  await dialog.getByLabel(J('csv.defaultCurrency')).fill(cur);
  await pickOption(page, dialog.getByLabel(J('csv.dateFormat')), 'DD.MM.YYYY');
  await dialog.getByLabel(J('csv.account')).fill('HK12E2E0000000001');
  await shot(page, 'bankrec-csv-mapping-ja-1440');
  await expectAccessible(page, 'bankrec CSV mapping dialog', '.ant-modal');
  await dialog.getByRole('button', { name: J('csv.saveAndUpload') }).click();
  await expect(page.getByText(J('upload.done', { statements: 1, duplicates: 0, added: 1, proposed: 0 }))).toBeVisible();
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await expect(page.locator('tbody tr.ant-table-row').first()).toContainText(J('noBalances'));
});

test('the statements list, and both screens at 390 px', async () => {
  await page.goto(`/bankrec?${RANGE}&tab=statements`);
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await expect(page.locator('tbody tr.ant-table-row').last()).toContainText('HK12E2E0000000001');
  await shot(page, 'bankrec-statements-ja-1440');
  await expectAccessible(page, 'bankrec statements');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await shot(page, 'bankrec-statements-ja-390');
  await page.goto(`/bankrec?${RANGE}`);
  await expect(page.getByRole('heading', { name: J('section.matches') })).toBeVisible();
  await expect(page.locator('.ant-card-small', { has: page.getByRole('heading', { name: J('section.matches') }) }).locator('tbody tr.ant-table-row')).toHaveCount(3);
  await shot(page, 'bankrec-matching-ja-390');
  await expectAccessible(page, 'bankrec matching 390');
});
