import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../db/db';
import { scratchDatabase } from '../../test/loopback';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
let databaseUrl: string | undefined;
const run = (dataDir: string, args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development', PLATFORM_TZ: 'Asia/Shanghai' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/publish-notice.ts', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
};

/** `npm run publish-notice` writes through the back office's service (createNotice): same checks, same audit, --at scheduling. */
describe('publish-notice CLI', () => {
  it('publishes now or at --at (platform zone), with files checked and named safely; audited as cli; refuses a non-PDF', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-cli-'));
    // On PostgreSQL when the run has one (a scratch database: quick to open); else the PGlite data directory.
    const scratch = process.env.TEST_DATABASE_URL ? await scratchDatabase('notice_cli') : null;
    databaseUrl = scratch?.url;
    try {
      const pdf = path.join(dir, 'terms.pdf');
      fs.writeFileSync(pdf, '%PDF-1.4\n%%EOF\n');
      const exe = path.join(dir, 'x.pdf');
      fs.writeFileSync(exe, 'MZ\u0000');
      const now = run(dir, ['--title', 'Now', '--file', pdf, '--level', 'important']);
      expect(now.status, now.stderr + now.stdout + String(now.error)).toBe(0);
      expect(now.stdout).toMatch(/notice \d+ published .* with 1 attachment/);
      const later = run(dir, ['--title', 'Later', '--at', '2999-01-01 09:00:00']);
      expect(later.status, later.stderr).toBe(0);
      expect(later.stdout).toContain('scheduled (2999-01-01T01:00:00.000Z)');
      const bad = run(dir, ['--title', 'Bad', '--file', exe]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('x.pdf: only PDF, CSV, PNG or JPG files can be attached');
      const badAt = run(dir, ['--title', 'Bad', '--at', '2999-02-30 09:00:00']);
      expect(badAt.status).toBe(2);
      const db = await openDb({ dataDir: dir, databaseUrl });
      try {
        const n = await db.query<{ title: { en: string }; level: string; created_by: string; att: number }>(
          `SELECT title, level, created_by, (SELECT count(*)::int FROM notice_attachment a WHERE a.notice_id = n.id) AS att FROM notice n WHERE created_by = 'cli' ORDER BY id`,
        );
        expect(n.rows.map((r) => [r.title.en, r.level, r.att])).toEqual([
          ['Now', 'important', 1],
          ['Later', 'info', 0],
        ]);
        const a = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'ops.notice.create' AND username = 'cli'`);
        expect(a.rows[0].n).toBe(2);
      } finally {
        await db.close();
      }
    } finally {
      await scratch?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
