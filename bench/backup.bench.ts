/**
 * npx tsx bench/backup.bench.ts [-- --txns 1000000 --days 120 --skip-pglite --skip-pg], or
 * `npm run bench -- backup` (env BENCH_BACKUP_TXNS, BENCH_BACKUP_DAYS; never part of a bare
 * `npm run bench`: it creates and drops PostgreSQL databases).
 *
 * Times `backup` and `restore` (apps/api/src/ops/backup.ts) on a database of --txns demo
 * transactions (generated as bench/seed.bench.ts does), for PostgreSQL (a scratch database on
 * BENCH_DATABASE_URL or TEST_DATABASE_URL, restored into a second one; skipped when neither is set) and for
 * PGlite (a data directory, restored over itself with --force). Prints seconds and seconds per
 * million txn rows (docs/operations.md quotes the result).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { generateDemoData } from '../apps/api/src/seed/demo-data';
import { backup, restore } from '../apps/api/src/ops/backup';
import { intArg, parseArgs } from '../apps/api/src/cli/args';
import { scratchDatabase } from '../apps/api/test/loopback';
import { BENCH_PG_URL, check, finishCalls, pgAnswers } from './check';

const standalone = import.meta.url === `file://${process.argv[1]}`;
// Flags when run on its own; under run.ts (argv holds bench names) the environment.
const args = standalone ? parseArgs(process.argv.slice(2)) : {};
const env = process.env;
const TARGET = standalone ? intArg(args, 'txns', 1_000_000, 1000) : Number(env.BENCH_BACKUP_TXNS ?? 1_000_000);
const DAYS = standalone ? intArg(args, 'days', 120, 1, 1000) : Number(env.BENCH_BACKUP_DAYS ?? 120);
const ADMIN = BENCH_PG_URL;

function dirSize(d: string): number {
  let n = 0;
  for (const e of fs.readdirSync(d, { withFileTypes: true })) n += e.isDirectory() ? dirSize(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size;
  return n;
}

async function one(kind: 'pglite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-backup-data-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-backup-out-'));
  const src = kind === 'postgres' ? await scratchDatabase('bench_backup', ADMIN) : null;
  const dst = kind === 'postgres' ? await scratchDatabase('bench_backup', ADMIN) : null;
  try {
    const db = await openDb({ databaseUrl: src?.url, dataDir });
    await migrate(db);
    await seedFoundation(db, { env: 'test' });
    const merchants = Math.max(0, Math.round(TARGET / DAYS / 100) - 4);
    const perDay = Math.max(1, Math.round(TARGET / ((merchants + 4) * DAYS * 1.1)));
    const g = await generateDemoData(db, { merchants, days: DAYS, perDay, seed: 'bench', platformTz: 'Asia/Shanghai', now: new Date('2026-06-30T12:00:00Z') });
    const rows = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
    await db.close();
    const b0 = performance.now();
    const m = await backup({ databaseUrl: src?.url, dataDir }, out);
    const bs = (performance.now() - b0) / 1000;
    const r0 = performance.now();
    await restore({ databaseUrl: dst?.url ?? undefined, dataDir }, out, { force: true });
    const rs = (performance.now() - r0) / 1000;
    // The restored copy holds what was backed up.
    const back = await openDb({ databaseUrl: dst?.url, dataDir });
    const again = (await back.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
    await back.close();
    check(rows > 0 && again === rows && (m.rows.txn ?? rows) === rows, () => `${kind}: ${rows} txn rows backed up, ${again} restored (manifest ${m.rows.txn})`);
    const perM = (s: number) => (s / rows) * 1e6;
    console.log(
      `${kind}: ${rows.toLocaleString('en-US')} txn rows (generated in ${(g.ms.total / 1000).toFixed(0)} s), ${Object.values(m.rows)
        .reduce((a, b) => a + b, 0)
        .toLocaleString('en-US')} rows in all; ` +
        `backup ${bs.toFixed(1)} s (${perM(bs).toFixed(1)} s per million txn rows, ${(dirSize(out) / 1e6).toFixed(1)} MB); restore ${rs.toFixed(1)} s (${perM(rs).toFixed(1)} s per million)`,
    );
  } finally {
    await src?.drop();
    await dst?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  }
}

export default async function run() {
  if (!args['skip-pg']) {
    const missing = await pgAnswers(ADMIN);
    if (!missing) await one('postgres');
    else console.log(`  postgres: skipped — ${missing}`);
  }
  if (!args['skip-pglite']) await one('pglite');
}

if (standalone) {
  await run();
  finishCalls('backup');
}
