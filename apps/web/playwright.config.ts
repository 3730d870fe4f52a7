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
 * Specs of what the screens look like and how they are reached — axe on every screen, the figures
 * in view at 1440 px, the sign-in page's weight, the console guard, the keyboard through every
 * filter form — do not depend on the database engine: each runs once. Both suites run every flow.
 * When the two suites run side by side (`E2E_SHARE`, set by scripts/test.ts), these specs are
 * shared out so both end at about the same time (axe on the portal's screens, the longest, in the
 * PGlite suite; axe on the back office and the rest in the PostgreSQL suite, which is otherwise shorter); a suite run alone runs them all on PGlite and
 * none on PostgreSQL
 * (docs/testing.md: it keeps CI under 45 minutes on two cores).
 */
export const ENGINE_INDEPENDENT = ['a11y.spec.ts', 'a11y-backoffice.spec.ts', 'layout.spec.ts', 'login-size.spec.ts', 'console-guard.spec.ts', 'keyboard-filters.spec.ts'];
export const ENGINE_INDEPENDENT_SHARE: Record<'pglite' | 'postgres', string[]> = {
  pglite: ['a11y.spec.ts'],
  postgres: ['a11y-backoffice.spec.ts', 'layout.spec.ts', 'login-size.spec.ts', 'console-guard.spec.ts', 'keyboard-filters.spec.ts'],
};
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
  reporter: [['list'], ['json', { outputFile: `${path.resolve(import.meta.dirname, '../../test-results')}/${process.env.E2E_REPORT ?? (process.env.E2E_DATABASE_URL ? 'e2e-postgres' : 'e2e-pglite')}.json` }]],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 820 },
    // The app turns antd's animations off for reduced motion: clicks never land on a moving popup.
    contextOptions: { reducedMotion: 'reduce' },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
