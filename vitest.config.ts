import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/build/**/*.test.ts', 'bench/**/*.test.ts'],
    // The modules' message catalogues (issue 45 §1: lib/messages.ts names no module).
    setupFiles: ['apps/api/test/messages.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', 'json', './scripts/vitest-skipped-reporter.ts'],
    outputFile: { json: `test-results/unit${process.env.TEST_DATABASE_URL ? '-pglite-and-postgres' : '-pglite'}.json` },
  },
});
