import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, platformDate } from '../modules/payments/time';
import { t } from '../lib/messages';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * `npm run settle` keeps the back office's rule (issue 46): a settlement date is run once its day
 * is over in the platform zone. Today is refused before any database is opened, with the same
 * message the back office's re-run answers.
 */
describe('settle CLI: the day-over rule', () => {
  const run = (args: string[], tz: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'settle-cli-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development', PLATFORM_TZ: tz };
    delete env.DATABASE_URL;
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/settle.ts', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
      return { ...r, dbCreated: fs.existsSync(path.join(dataDir, 'pg')) };
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it('refuses --to today (a day not over yet) and a later date, with the shared message; no database is created', () => {
    for (const tz of ['Asia/Shanghai', 'America/New_York']) {
      // America/New_York: a zone with DST, behind UTC (its today differs from Shanghai's for hours each day).
      const today = platformDate(new Date(), tz);
      const yesterday = addDays(today, -1);
      for (const to of [today, addDays(today, 1)]) {
        const r = run(['--to', to], tz);
        expect(r.status, r.stderr).toBe(2);
        expect(r.dbCreated).toBe(false);
        // The run may straddle a midnight of the zone: the message names the date the CLI saw.
        const seen = /up to yesterday \((\d{4}-\d{2}-\d{2})\)/.exec(r.stderr)?.[1];
        expect([yesterday, today]).toContain(seen);
        expect(r.stderr.trim()).toBe(t('en', 'paySettleDayNotOver', { date: to, last: seen!, tz }));
      }
      const from = run(['--from', addDays(today, -2), '--to', today], tz);
      expect(from.status).toBe(2);
    }
  });
});
