import { expect, type Locator, type Page } from '@playwright/test';
import { EMAIL, PASSWORD, codeFromMailbox } from './support';

/**
 * Signs in through the API (the same calls the login form makes) and hands the token pair to the
 * browser as the app's cookies; waits out the 60-second resend window when another spec has just
 * asked for a code for the same user.
 */
export async function signInQuick(page: Page, username: string, base: string): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const since = Date.now();
    const sent = await (await page.request.post('/api/user/getEmailCode', { form: { username } })).json();
    if (sent.code === 1007) {
      const s = Number(/(\d+)/.exec(sent.msg)?.[1] ?? 60);
      console.log(`signInQuick: ${username}'s last code was asked for less than a minute ago: waiting ${s + 1} s (docs/testing.md)`);
      await page.waitForTimeout((s + 1) * 1000);
      continue;
    }
    expect(sent.code, sent.msg).toBe(0);
    const verifyCode = await codeFromMailbox(page.request, EMAIL[username], since);
    const login = await (await page.request.post('/api/user/login', { form: { username, password: PASSWORD, verifyCode } })).json();
    expect(login.code, login.msg).toBe(0);
    const host = new URL(base).hostname;
    await page.context().addCookies([
      { name: 'mp_token', value: login.data.token, domain: host, path: '/' },
      { name: 'mp_refresh', value: login.data.refreshToken, domain: host, path: '/' },
    ]);
    return;
  }
  throw new Error(`could not sign in ${username}`);
}

/** The data rows of the report table (not the totals). */
export const dataRows = (table: Locator) => table.locator('tbody tr.ant-table-row');

/** Column index (0-based) of a header cell by its text. */
export async function columnIndex(table: Locator, title: string): Promise<number> {
  const heads = await table.locator('thead th').allInnerTexts();
  const i = heads.findIndex((h) => h.replace(/\s+/g, ' ').trim() === title);
  if (i < 0) throw new Error(`no column ${title} in ${heads.join(' | ')}`);
  return i;
}

/** The texts of one column over the visible data rows. */
export async function columnTexts(table: Locator, title: string): Promise<string[]> {
  const i = await columnIndex(table, title);
  return dataRows(table).evaluateAll((rows, idx) => rows.map((r) => (r.children[idx] as HTMLElement).innerText.trim()), i);
}

/** Decimal string of a formatted amount ('1,234.50' → 1234.50 as minor-unit integer with `exp` decimals). */
export function minorOf(text: string, exp = 2): number {
  const clean = text.replace(/[^\d.-]/g, '');
  const [w, f = ''] = clean.split('.');
  const sign = clean.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(w)) * 10 ** exp + Number((f + '000').slice(0, exp) || 0));
}

/** Picks an option of an antd Select (by its visible label), typing to filter first. */
export async function pickOption(page: Page, select: Locator, label: string, type?: string) {
  await select.click();
  if (type) await page.keyboard.type(type);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: label }).first().click();
}

/** Pages forward with 'Next Page': the URL's page goes up by one and the rows change. */
export async function nextPage(page: Page, table: Locator) {
  const rowsText = async () => (await dataRows(table).allInnerTexts()).join('\n');
  const before = await rowsText();
  const current = Number(new URL(page.url()).searchParams.get('page') ?? '1');
  await page.locator('.report-pager').getByText('Next Page').click();
  await expect(page).toHaveURL(new RegExp(`page=${current + 1}`));
  await expect.poll(rowsText).not.toBe(before);
}

/**
 * A merchant access token fresh for the next API calls, handed back to the browser: the refresh token
 * rotated. In e2e access tokens last 5 seconds, so the page's own (its cookie) may have run out on a
 * slow machine between the page's last call and the test's (CI, 2026-12-03: "Token expired").
 */
export async function freshToken(page: Page): Promise<string> {
  const refresh = (await page.context().cookies()).find((c) => c.name === 'mp_refresh')!;
  const pair = await (await page.request.post('/api/user/refreshToken', { form: { refreshToken: refresh.value } })).json();
  expect(pair.code, pair.msg).toBe(0);
  await page.context().addCookies([
    { name: 'mp_token', value: pair.data.token, domain: refresh.domain, path: '/' },
    { name: 'mp_refresh', value: pair.data.refreshToken, domain: refresh.domain, path: '/' },
  ]);
  return pair.data.token as string;
}
