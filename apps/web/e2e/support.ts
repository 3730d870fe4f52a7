import fs from 'node:fs';
import path from 'node:path';
import { expect, test as base, type APIRequestContext, type Browser, type BrowserContext, type ConsoleMessage, type Page, type Response } from '@playwright/test';
import type { RouterItem, UserInfo } from '@portal/contract';
import { waitForTakeover } from './ssr-support';
import { MESSAGES } from '../../api/src/lib/messages';

export { firstAnswer, noScript, takenOver } from './ssr-support';

/*
 * Console guard (issue 13, fix 10). Every spec imports `test` and `expect` from this file (not from
 * '@playwright/test'; console-guard.spec.ts checks that): any uncaught page error or console.error in
 * any page the spec opens — through the `page` fixture or `browser.newContext()` in a beforeAll —
 * fails the test that was running (errors raised in a beforeAll fail the first test after it).
 * A hydration warning (a server-rendered page React had to render afresh) fails it too.
 * The browser's own "Failed to load resource" lines (an HTTP 4xx/5xx the app handles) are not
 * errors of the page. A test that provokes an error on purpose names it with `allowConsoleError`.
 */
const pageErrors: string[] = [];
let allowed: RegExp[] = [];
const watched = new WeakSet<object>();

function describeConsole(m: ConsoleMessage): string {
  const loc = m.location();
  return `console.error ${m.text().slice(0, 500)}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`;
}

/** Collects the uncaught errors of `page` (idempotent). */
const HYDRATION_GUARD = process.env.E2E_FAIL_ON_HYDRATION !== '0';

export function watchPage(page: Page) {
  if (watched.has(page)) return;
  watched.add(page);
  // A resized window writes its width cookie (mp_vw, decision 050) on its resize event; a navigation
  // right after the resize could reach the server before it, which then renders for the old width
  // and React hydrates a different tree (a warning the guard below fails on). Wait for the cookie,
  // as a person's next click would.
  const setViewportSize = page.setViewportSize.bind(page);
  page.setViewportSize = async (size) => {
    await setViewportSize(size);
    await page.waitForFunction((w) => !location.protocol.startsWith('http') || document.cookie.includes(`mp_vw=${w}`), size.width, { timeout: 3000 }).catch(() => undefined);
  };
  waitForTakeover(page);
  page.on('pageerror', (e) => pageErrors.push(`pageerror ${e.name}: ${e.message.slice(0, 500)}\n${(e.stack ?? '').split('\n').slice(1, 4).join('\n')}`));
  page.on('console', (m) => {
    // A hydration difference (React renders the server's markup afresh; main.tsx logs it as a warning)
    // is a defect of the page too (issue 53: seven went unnoticed on server-rendered lists; after
    // 16:00 UTC many more, "today" computed in the server machine's zone — now the display zone's,
    // lib/time.ts zoneNow — and a stale width cookie). On by default; E2E_FAIL_ON_HYDRATION=0 turns it off.
    if (HYDRATION_GUARD && m.type() === 'warning' && /^ssr: rendered afresh|hydrat/i.test(m.text())) {
      pageErrors.push(`hydration ${describeConsole(m).replace(/^console\.error /, '')}`);
      return;
    }
    if (m.type() !== 'error' || m.text().startsWith('Failed to load resource')) return;
    pageErrors.push(describeConsole(m));
  });
}

function watchContext(context: BrowserContext) {
  if (watched.has(context)) return;
  watched.add(context);
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

function watchBrowser(browser: Browser) {
  if (watched.has(browser)) return;
  watched.add(browser);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    watchContext(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const page = await newPage(...args);
    watchContext(page.context());
    watchPage(page);
    return page;
  };
}

/** The errors collected since the last test ended (and forgets them). */
export function takePageErrors(): string[] {
  return pageErrors.splice(0).filter((e) => !allowed.some((re) => re.test(e)));
}
/** The errors collected so far, without forgetting them. */
takePageErrors.peek = (): readonly string[] => pageErrors;

/** Lets the current test provoke a console error matching `re` (on purpose). */
export function allowConsoleError(re: RegExp) {
  allowed.push(re);
}

export const test = base.extend<{ consoleGuard: void }, { browserGuard: void }>({
  browserGuard: [
    async ({ browser }, use) => {
      watchBrowser(browser);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  context: async ({ context }, use) => {
    watchContext(context);
    await use(context);
  },
  consoleGuard: [
    async ({}, use, testInfo) => {
      await use();
      const errors = takePageErrors();
      allowed = [];
      if (errors.length && testInfo.status !== 'skipped') {
        throw new Error(`${errors.length} uncaught error(s) in the page during "${testInfo.title}":\n${errors.join('\n')}`);
      }
    },
    { auto: true },
  ],
});
export { expect };

export const ARTIFACTS = path.resolve(import.meta.dirname, '../../../e2e-artifacts');
export const PASSWORD = 'Demo1234';
/** The seeded users' e-mail addresses (apps/api/src/seed/foundation.seed.ts). */
export const EMAIL: Record<string, string> = {
  demo: 'demo@demo-group.example',
  'demo-sub': 'demo-sub@demo-group.example',
  'other-main': 'main@other.example',
};
export const LANGS = ['en', 'zh', 'ko', 'ja'] as const;
export type Lang = (typeof LANGS)[number];
export const LANGUAGE_LABELS: Record<Lang, string> = { zh: '简体中文', en: 'English', ko: '한국어', ja: '日本語' };

const LOCALES = path.resolve(import.meta.dirname, '../src/locales');
/** A UI string as the app shows it: `tr('ja', 'menu', 'notice')`. */
export function tr(lng: Lang, ns: string, key: string, vars: Record<string, string | number> = {}): string {
  const data = JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;
  const at = (k: string) => k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)?.[p], data);
  // i18next plurals: key_one / key_other by the language's plural rules when a count is given.
  const plural = typeof vars.count === 'number' ? (at(`${key}_${new Intl.PluralRules(lng).select(vars.count)}`) ?? at(`${key}_other`)) : undefined;
  const value = plural ?? at(key);
  if (typeof value !== 'string') throw new Error(`no ${lng}/${ns}:${key}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, v: string) => String(vars[v] ?? ''));
}

const CODE_SUBJECTS = new Set(Object.values(MESSAGES.mailCodeSubject));

/** The newest sign-in code mailed to `email` after `since` (ms), read from the development outbox. */
export async function codeFromMailbox(request: APIRequestContext, email: string, since: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/dev/mailbox');
        const body = (await res.json()) as { data: { file: string; to: string; subject: string; text: string }[] };
        // The sign-in code's mail by its subject: other mail to the same user (a dispute's reminder,
        // a report) may arrive after it, and would hide it (CI, 2026-12-03: the first spec failed so).
        const mail = body.data.find((m) => m.to.includes(email) && CODE_SUBJECTS.has(m.subject) && Number(m.file.split('-')[0]) >= since - 1000);
        code = mail ? /\b(\d{6})\b/.exec(mail.text)?.[1] : undefined;
        return code;
      },
      { message: `sign-in code for ${email} in /api/dev/mailbox`, timeout: 20_000 },
    )
    .toBeTruthy();
  return code!;
}

/**
 * Clicks 'Send code'. When another spec asked for this user's code less than 60 s ago, the server
 * says how long to wait (the button counts it down): wait, then ask again, as a person would.
 * Returns the time the code was asked for.
 */
async function requestCode(page: Page): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const since = Date.now();
    const answer = page.waitForResponse((r) => r.url().includes('/api/user/getEmailCode'));
    await page.getByTestId('send-code').click();
    const body = (await (await answer).json()) as { code: number; data: { wait?: number } | null };
    if (body.code === 0) {
      await expect(page.getByText(tr('en', 'login', 'codeSent'))).toBeVisible();
      await expect(page.getByTestId('send-code')).toBeDisabled();
      // Issue 29 §6: the focus goes on to the code field (the disabled button left it on the page body).
      await expect(page.getByLabel(tr('en', 'login', 'verifyCode'))).toBeFocused();
      return since;
    }
    expect(body.code, 'getEmailCode: only "resend too soon" is waited out').toBe(1007);
    await expect(page.getByTestId('send-code')).toBeDisabled();
    await expect(page.getByTestId('send-code')).toBeEnabled({ timeout: ((body.data?.wait ?? 60) + 5) * 1000 });
  }
  throw new Error('no sign-in code after three tries');
}

export interface SignedIn {
  user: UserInfo;
  expiresIn: number;
}

const isOk = async (r: Response) => {
  try {
    return (await r.json()).code === 0;
  } catch {
    return false;
  }
};

/** Signs in through the login form as a person would: code sent by e-mail, read from the mailbox. */
export async function signIn(page: Page, username: string): Promise<SignedIn> {
  await expect(page.getByRole('heading', { name: tr('en', 'login', 'title') })).toBeVisible();
  await page.getByLabel(tr('en', 'login', 'username')).fill(username);
  await page.getByLabel(tr('en', 'login', 'password'), { exact: true }).fill(PASSWORD);
  const since = await requestCode(page);
  const code = await codeFromMailbox(page.request, EMAIL[username], since);
  await page.getByLabel(tr('en', 'login', 'verifyCode')).fill(code);
  const loginResponse = page.waitForResponse((r) => r.url().includes('/api/user/login'));
  const infoResponse = page.waitForResponse((r) => r.url().includes('/api/user/info') && isOk(r));
  await page.getByRole('button', { name: tr('en', 'login', 'submit'), exact: true }).click();
  const login = (await (await loginResponse).json()) as { code: number; data: { expiresIn: number } };
  expect(login.code, 'login answered code 0').toBe(0);
  const info = (await (await infoResponse).json()) as { data: UserInfo };
  await expect(page.getByTestId('user-menu')).toContainText(username);
  return { user: info.data, expiresIn: login.data.expiresIn };
}

/** The side menu. */
export const sideMenu = (page: Page, lng: Lang = 'en') => page.getByRole('navigation', { name: tr(lng, 'layout', 'mainMenu') });

/** The top bar's breadcrumb. */
export const breadcrumb = (page: Page) => page.locator('.top-bar__breadcrumb');

/** Top-level entries and the leaf pages of a routers tree, as the menu shows them (hidden ones left out). */
export function visibleTree(routers: RouterItem[]): { top: RouterItem[]; leaves: RouterItem[] } {
  const top = routers.filter((r) => !r.hidden);
  const leaves = top.flatMap((r) => (r.children?.length ? r.children.filter((c) => !c.hidden) : [r]));
  return { top, leaves };
}

/** Opens a menu entry (expanding its group first when it has one). */
export async function openMenu(page: Page, routers: RouterItem[], leafName: string, lng: Lang = 'en') {
  const menu = sideMenu(page, lng);
  const group = routers.find((r) => r.children?.some((c) => c.name === leafName));
  const leaf = menu.getByRole('menuitem', { name: tr(lng, 'menu', leafName), exact: true });
  if (group && !(await leaf.isVisible())) await menu.getByRole('menuitem', { name: tr(lng, 'menu', group.name), exact: true }).click();
  await leaf.click();
}

/**
 * Screenshots for people to look at (e2e-artifacts/, at 1440 and 390 px, in every language): taken
 * on every run but CI's, where no one looks at them (about a minute of the e2e stage); E2E_SHOTS=1
 * takes them there too, E2E_SHOTS=0 skips them anywhere. The page is still checked to have settled.
 */
const SHOTS = process.env.E2E_SHOTS ? process.env.E2E_SHOTS !== '0' : !process.env.CI;

export async function shot(page: Page, name: string) {
  await expect(page.locator('.ant-spin-spinning, .full-page-spin')).toHaveCount(0); // no half-faded loading overlay
  if (!SHOTS) return;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.waitForTimeout(300); // let antd's enter transitions finish
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Picks a language in the selector and waits for the success message and the reload. */
export async function switchLanguage(page: Page, lng: Lang) {
  await page.getByTestId('language-select').click();
  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  await page.getByRole('menuitem', { name: LANGUAGE_LABELS[lng] }).click();
  await expect(page.getByText(tr(lng, 'common', 'switchLanguageSuccess'))).toBeVisible();
  await reloaded;
  await expect(page.locator('html')).toHaveAttribute('lang', lng);
}

/** Writes every API call and page load of `page` to <run folder>/<name>-network.log (for diagnosing failures). */
export function recordNetwork(page: Page, name: string) {
  const dir = process.env.E2E_RUN_DIR ?? ARTIFACTS;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-network.log`);
  fs.writeFileSync(file, '');
  const at = () => new Date().toISOString().slice(11, 23);
  const write = (line: string) => fs.appendFileSync(file, `${at()} ${line}\n`);
  page.on('request', (r) => {
    if (r.url().includes('/api/')) write(`> ${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
  });
  page.on('response', async (r) => {
    if (!r.url().includes('/api/')) return;
    const body = await r.text().catch(() => '(no body)');
    write(`< ${r.status()} ${new URL(r.url()).pathname} ${body.replace(/"(token|refreshToken)":"[^"]+"/g, '"$1":"…"').slice(0, 100)}`);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('/api/')) write(`x ${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`);
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) write(`@ ${f.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') write(`! console.${m.type()} ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => write(`! pageerror ${e.message.slice(0, 300)}`));
}

/**
 * axe-core on the page as it stands (issue 13, WCAG 2.2 AA): fails on any serious or critical
 * violation, naming the rule, the element and how it fails. `include` narrows it to a dialog.
 */
export async function expectAccessible(page: Page, label: string, include?: string, { soft = false } = {}) {
  const { AxeBuilder } = await import('@axe-core/playwright');
  // One document without frames (every screen of the app): axe runs in the page itself ("legacy
  // mode"). The default mode finishes each run in a new blank tab, twice the time of the check
  // (0.87 s → 0.40 s a screen, measured); a page with frames keeps it, for frames of other origins.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(page.frames().length === 1);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 3)
          .map((n) => `   ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(0, 2).join(' ')}`)
          .join('\n')}`,
    );
  (soft ? expect.soft : expect)(bad, `axe on ${label}`).toEqual([]);
}

/** Signs in through the API as `username`, in `lng` (the language cookie), and opens the app. */
export async function useLanguage(page: Page, lng: Lang) {
  const host = new URL(page.url() === 'about:blank' ? (process.env.E2E_BASE_URL ?? 'http://127.0.0.1') : page.url()).hostname;
  await page.context().addCookies([{ name: 'mp_lang', value: lng, domain: host, path: '/' }]);
}
