import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, type TestCtx } from '../../test/helpers';
import { scratchDatabase, tmpDir } from '../../test/ops/spawn';
import { openDb, type Db } from '../db/db';
import { migrate } from '../db/migrate';
import { seedFoundation } from '../seed/foundation.seed';
import { addTxn } from '../modules/txn/txn.fixtures';
import { backup, restore, RestoreRefused } from './backup';

/** Every table of the schema, each as an md5 of its rows in order: equal fingerprints, equal data. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    const r = await db.query<{ h: string | null; n: number }>(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h, count(*)::int AS n FROM "${t}" x`);
    out[t] = `${r.rows[0].n}:${r.rows[0].h ?? ''}`;
  }
  return out;
}

/** Files under DATA_DIR (PGlite's own directory apart) with their contents. */
function files(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dataDir, p);
      if (rel === 'pg') continue;
      if (e.isDirectory()) walk(p);
      else out[rel] = fs.readFileSync(p, 'utf8');
    }
  };
  if (fs.existsSync(dataDir)) walk(dataDir);
  return out;
}

describe.each(DB_KINDS)('backup and restore drill (%s)', (kind) => {
  it('seed → backup → more writes → restore: the database and the files are those of the backup point; a non-empty target needs --force', async () => {
    const dataDir = tmpDir('portal-drill-');
    const out = tmpDir('portal-backup-');
    const scratch = kind === 'postgres' ? await scratchDatabase('ops_drill') : null;
    const fresh = kind === 'postgres' ? await scratchDatabase('ops_drill_fresh') : null;
    const config = { databaseUrl: scratch?.url, dataDir };
    const open = () => openDb(config);
    const txn = (db: Db, orderNo: string, amount: number) => addTxn({ db, config: { platformTz: 'Asia/Shanghai' } } as unknown as TestCtx, { orderNo, amount });
    try {
      // Seed: the foundation, transactions, an export file and an attachment.
      let db = await open();
      await migrate(db);
      await seedFoundation(db, { env: 'test' });
      const p1 = await txn(db, 'DRILL-1', 10000);
      await txn(db, 'DRILL-2', 2500);
      fs.mkdirSync(path.join(dataDir, 'exports'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'exports', '1-aa.csv'), 'order,amount\nDRILL-1,100.00\n');
      fs.mkdirSync(path.join(dataDir, 'files', 'notice'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'files', 'notice', 'a.pdf'), '%PDF-1.4 drill');
      const atBackup = await fingerprint(db);
      const filesAtBackup = files(dataDir);
      await db.close();

      const m = await backup(config, out);
      expect(m).toMatchObject({ engine: kind, files: { count: 2 } });
      expect(m.rows.txn).toBe(2);
      expect(m.migrations.length).toBeGreaterThan(10);
      await expect(backup(config, out)).rejects.toThrow(/not empty/);
      await expect(backup(config, path.join(dataDir, 'inside'))).rejects.toThrow(/outside DATA_DIR/);

      // More writes after the backup: a transaction, a change, a deletion, a new and a changed file.
      db = await open();
      await txn(db, 'DRILL-3', 700);
      await db.query(`UPDATE txn SET resp_msg = 'changed after backup' WHERE id = $1`, [p1.id]);
      await db.query(`DELETE FROM app_user WHERE username = 'demo-sub'`).catch(() => db.query(`UPDATE app_user SET email = 'after@backup' WHERE username = 'demo-sub'`));
      fs.writeFileSync(path.join(dataDir, 'exports', '2-bb.csv'), 'later\n');
      fs.writeFileSync(path.join(dataDir, 'exports', '1-aa.csv'), 'overwritten\n');
      const afterWrites = await fingerprint(db);
      expect(afterWrites).not.toEqual(atBackup);
      await db.close();

      // Into a database that holds data: refused without --force, nothing touched.
      await expect(restore(config, out)).rejects.toBeInstanceOf(RestoreRefused);
      db = await open();
      expect(await fingerprint(db)).toEqual(afterWrites);
      await db.close();
      expect(files(dataDir)['exports/2-bb.csv']).toBe('later\n');

      // With --force: the backup point, rows and files.
      const r = await restore(config, out, { force: true });
      expect(r.manifest.rows.txn).toBe(2);
      db = await open();
      expect(await fingerprint(db)).toEqual(atBackup);
      // Invariant: every refund's purchase exists and no purchase is refunded beyond its amount.
      const bad = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn WHERE return_amount > amount OR (origin_txn_id IS NOT NULL AND origin_txn_id NOT IN (SELECT id FROM txn))`);
      expect(bad.rows[0].n).toBe(0);
      // The restored database is usable: migrations are all there, writes work.
      expect(await migrate(db)).toEqual([]);
      await txn(db, 'DRILL-4', 100);
      await db.close();
      expect(files(dataDir)).toEqual(filesAtBackup);

      // PostgreSQL: into a fresh, empty database, no --force needed.
      if (fresh) {
        const other = tmpDir('portal-drill-other-');
        await restore({ databaseUrl: fresh.url, dataDir: other }, out);
        const f = await openDb({ databaseUrl: fresh.url });
        expect(await fingerprint(f)).toEqual(atBackup);
        await f.close();
        expect(files(other)).toEqual(filesAtBackup);
        fs.rmSync(other, { recursive: true, force: true });
      }
    } finally {
      await scratch?.drop();
      await fresh?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
