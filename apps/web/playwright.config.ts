import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end specs in Debian's Chromium against the real server. Run them with
 * `npm run test:e2e` — apps/web/e2e/run.ts builds nothing itself but starts the server on a free
 * port with a fresh DATA_DIR (and a fresh PostgreSQL database when E2E_DATABASE_URL is set),
 * passes its URL in E2E_BASE_URL, runs these specs with one worker and cleans up.
 */
const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) throw new Error('E2E_BASE_URL is not set: run the suite with `npm run test:e2e` (apps/web/e2e/run.ts starts the server)');

export const ARTIFACTS = path.resolve(import.meta.dirname, '../../e2e-artifacts');

/**
 * Specs run by one of the two suites only (the rest — refunds, pay-by-link, settlement, reports,
 * files, webhooks, keys — run in both):
 * - what the screens look like and how they are reached — axe on every screen (`a11y`, and the
 *   back office's), the figures in view at 1440 px in four languages (`layout`), the sign-in page's
 *   weight, the console guard, the keyboard through every filter form — which no engine changes;
 * - flows of the browser more than of the database — the account pages (activation, password,
 *   authenticator, phone, WeChat), saved views, the global search box, the UX fixes, the sign-in
 *   page, time zones, the phone layout, server rendering, redirects, keyboard use, passkeys, the
 *   read-only sub-user — whose server side the API tests prove on both engines (session fifteen,
 *   docs/testing.md: CI under 45 minutes on two cores).
 * - since session eighteen (CI near its 45-minute limit on a slower machine), most other flows too:
 *   the session and language switch, pay-in-store, the team, four-eyes, roles and access review,
 *   schedules, the dashboard, the feed's differences and the back office. Every one of their calls
 *   is proven on both engines by the API tests (locks, races, partitions); what the browser adds —
 *   the screens, the words, the clicks — no engine changes. Both suites still run the flows of
 *   money and reports: refunds (`txn-flows`), pay-by-link, settlement, reports, files, webhooks and
 *   API keys.
 * When the two suites run side by side (`E2E_SHARE`, set by scripts/test.ts) these are shared out
 * so both end at about the same time; a suite run alone on PGlite runs them all, on PostgreSQL
 * alone none.
 */
export const ENGINE_INDEPENDENT_SHARE: Record<'pglite' | 'postgres', string[]> = {
  pglite: [
    'a11y.spec.ts',
    'account.spec.ts',
    'ssr.spec.ts',
    'redirect.spec.ts',
    'keyboard.spec.ts',
    // Session eighteen: flows whose engine-dependent parts the API tests hold on both engines.
    'session.spec.ts',
    'payinstore-flow.spec.ts',
    'team-flow.spec.ts',
    'access-review.spec.ts',
    'error-boundary.spec.ts',
    'walk-three.spec.ts', // issue 53: screens in a UTC browser, 1440 and 390 px
  ],
  postgres: [
    'a11y-backoffice.spec.ts',
    'layout.spec.ts',
    'login-size.spec.ts',
    'console-guard.spec.ts',
    'keyboard-filters.spec.ts',
    'saved-views.spec.ts',
    'global-search.spec.ts',
    'ux-fixes.spec.ts',
    'login-page.spec.ts',
    'time-zone.spec.ts',
    'phone-home.spec.ts',
    'passkeys.spec.ts',
    'sub-user.spec.ts',
    // Session eighteen: the back office (its first operator comes from the CLI on PostgreSQL) and more flows.
    'backoffice.spec.ts',
    'ops-view-as.spec.ts',
    'ops-notices.spec.ts',
    'ops-runs.spec.ts',
    'team-roles.spec.ts',
    'feed-reconciliation.spec.ts',
    'report-dashboard.spec.ts',
    'pbl-slow-options.spec.ts',
    'team-four-eyes.spec.ts',
    'scheduled-reports.spec.ts',
    'ops-disputes.spec.ts',
  ],
};
export const ENGINE_INDEPENDENT = [...ENGINE_INDEPENDENT_SHARE.pglite, ...ENGINE_INDEPENDENT_SHARE.postgres];
const share = process.env.E2E_SHARE === 'pglite' || process.env.E2E_SHARE === 'postgres' ? process.env.E2E_SHARE : undefined;

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  testIgnore: share ? ENGINE_INDEPENDENT.filter((s) => !ENGINE_INDEPENDENT_SHARE[share].includes(s)) : process.env.E2E_DATABASE_URL ? ENGINE_INDEPENDENT : [],
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  outputDir: path.join(process.env.E2E_RUN_DIR ?? ARTIFACTS, 'test-results'),
  // The JSON report feeds the one-line summary CI prints (scripts/test-summary.ts).
  reporter: [
    ['list'],
    ['json', { outputFile: `${path.resolve(import.meta.dirname, '../../test-results')}/${process.env.E2E_REPORT ?? (process.env.E2E_DATABASE_URL ? 'e2e-postgres' : 'e2e-pglite')}.json` }],
  ],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 820 },
    // The app turns antd's animations off for reduced motion: clicks never land on a moving popup.
    contextOptions: { reducedMotion: 'reduce' },
    // A step that waits for something never there fails with that step's name in well under the
    // test's timeout (before, an absent button held the test to its end: "Test timeout exceeded").
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
