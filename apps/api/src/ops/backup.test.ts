import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO, type TestCtx } from '../../test/helpers';
import { scratchDatabase, tmpDir } from '../../test/ops/spawn';
import { openDb, type Db } from '../db/db';
import { migrate } from '../db/migrate';
import { seedFoundation } from '../seed/foundation.seed';
import { addTxn } from '../modules/txn/txn.fixtures';
import { storeDocument } from '../modules/files/documents.service';
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
      if (rel === 'pg' || rel === 'pg.lock') continue;
      if (e.isDirectory()) walk(p);
      else out[rel] = fs.readFileSync(p, 'utf8');
    }
  };
  if (fs.existsSync(dataDir)) walk(dataDir);
  return out;
}

/** A merchant document (file written first, then its row — as the statements job does). */
const doc = (db: Db, dataDir: string, period: string) =>
  storeDocument(db, dataDir, { merId: DEMO.group, kind: 'FEE_SCHEDULE', period, currency: 'HKD', lang: 'en', format: 'pdf', fileName: `${period}.pdf`, body: `%PDF-1.4 ${period}`, data: {} });

/** Rows' file references that DATA_DIR lacks. */
async function dangling(db: Db, dataDir: string): Promise<string[]> {
  const { rows } = await db.query<{ p: string }>('SELECT file_path AS p FROM merchant_document UNION SELECT file_path FROM notice_attachment ORDER BY 1');
  return rows.map((r) => r.p).filter((p) => !fs.existsSync(path.join(dataDir, p)));
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
      // Documents the rows refer to (issue 46): one whose file is already gone from DATA_DIR.
      await doc(db, dataDir, 'R-1');
      await doc(db, dataDir, 'R-gone');
      fs.rmSync(path.join(dataDir, 'files', DEMO.group, 'FEE_SCHEDULE_R-gone_HKD_en.pdf'));
      const atBackup = await fingerprint(db);
      const filesAtBackup = files(dataDir);
      await db.close();
      // A file being written (renamed into place when complete) is not backed up.
      fs.writeFileSync(path.join(dataDir, 'files', DEMO.group, 'x.pdf.123.abc.tmp'), 'half');

      const m = await backup(config, out);
      expect(m).toMatchObject({ engine: kind, files: { count: 3 }, referencedFiles: 2, missingFiles: [`files/${DEMO.group}/FEE_SCHEDULE_R-gone_HKD_en.pdf`] });
      expect(fs.existsSync(path.join(out, 'files', 'files', DEMO.group, 'FEE_SCHEDULE_R-1_HKD_en.pdf'))).toBe(true);
      expect(fs.existsSync(path.join(out, 'files', 'files', DEMO.group, 'x.pdf.123.abc.tmp'))).toBe(false);
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

      // A backup whose files/ lost one the rows refer to: the restore says which (the one already
      // missing at the backup is not held against it).
      fs.rmSync(path.join(out, 'files', 'files', DEMO.group, 'FEE_SCHEDULE_R-1_HKD_en.pdf'));
      await expect(restore(config, out, { force: true })).rejects.toThrow(`restored rows refer to 1 file(s) the backup lacks: files/${DEMO.group}/FEE_SCHEDULE_R-1_HKD_en.pdf`);
      fs.writeFileSync(path.join(out, 'files', 'files', DEMO.group, 'FEE_SCHEDULE_R-1_HKD_en.pdf'), filesAtBackup[`files/${DEMO.group}/FEE_SCHEDULE_R-1_HKD_en.pdf`]);

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

describe.skipIf(!DB_KINDS.includes('postgres'))('backup under writes (issue 46, postgres)', () => {
  it('documents and transactions written while the backup runs: counts, dump and files are of one snapshot, and it restores cleanly', async () => {
    const dataDir = tmpDir('portal-online-');
    const out = tmpDir('portal-online-backup-');
    const other = tmpDir('portal-online-restored-');
    const scratch = await scratchDatabase('ops_online');
    const fresh = await scratchDatabase('ops_online_fresh');
    const config = { databaseUrl: scratch.url, dataDir };
    const db = await openDb(config);
    let stop = false;
    let written = 0;
    let deleted = 0;
    try {
      await migrate(db);
      await seedFoundation(db, { env: 'test' });
      // The server at work: a document and a transaction after another, and now and then a document
      // deleted (its row first, then its file — as notices and exports are).
      const writer = (async () => {
        for (let n = 1; !stop; n++) {
          await doc(db, dataDir, `W-${n}`);
          await addTxn({ db, config: { platformTz: 'Asia/Shanghai' } } as unknown as TestCtx, { orderNo: `ONLINE-${n}`, amount: 100 + n });
          written = n;
          if (n > 10 && n % 4 === 0) {
            const del = await db.query<{ file_path: string }>(`DELETE FROM merchant_document WHERE period = $1 RETURNING file_path`, [`W-${n - 10}`]);
            for (const r of del.rows) fs.rmSync(path.join(dataDir, r.file_path), { force: true });
            deleted++;
          }
        }
      })();
      while (written < 12) await new Promise((r) => setTimeout(r, 10));
      const before = written;
      const m = await backup(config, out);
      const during = written - before;
      // Some more after it, then the writer stops.
      const at = written;
      while (written < at + 3) await new Promise((r) => setTimeout(r, 10));
      stop = true;
      await writer;
      expect(during, 'documents were written while the backup ran').toBeGreaterThan(0);
      expect(deleted).toBeGreaterThan(0);
      expect(m.missingFiles).toEqual([]);
      expect(m.rows.merchant_document).toBeGreaterThan(0);

      // Into a new empty database and data folder: rows equal the manifest, every referenced file is there.
      const r = await restore({ databaseUrl: fresh.url, dataDir: other }, out);
      expect(r.manifest.rows.merchant_document).toBe(m.rows.merchant_document);
      const f = await openDb({ databaseUrl: fresh.url });
      try {
        expect(await dangling(f, other)).toEqual([]);
        const n = await f.query<{ docs: number; txns: number }>(`SELECT (SELECT count(*)::int FROM merchant_document) AS docs, (SELECT count(*)::int FROM txn) AS txns`);
        expect(n.rows[0]).toEqual({ docs: m.rows.merchant_document, txns: m.rows.txn });
      } finally {
        await f.close();
      }
    } finally {
      stop = true;
      await db.close();
      await scratch.drop();
      await fresh.drop();
      for (const d of [dataDir, out, other]) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('backup of PGlite: never while a process has it open (issue 46)', () => {
  it('the server (or a command) holding the database: backup and restore refused; closed, or a lock left by a dead process: allowed', async () => {
    const dataDir = tmpDir('portal-pglite-lock-');
    const out = tmpDir('portal-pglite-lock-backup-');
    try {
      const db = await openDb({ dataDir });
      await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY)');
      expect(fs.readFileSync(path.join(dataDir, 'pg.lock'), 'utf8').trim()).toBe(String(process.pid));
      await expect(backup({ dataDir }, out)).rejects.toThrow(new RegExp(`open in process ${process.pid} \\(the server or a command\\): stop it first`));
      expect(fs.readdirSync(out)).toEqual([]);
      await db.close();
      expect(fs.existsSync(path.join(dataDir, 'pg.lock'))).toBe(false);
      const m = await backup({ dataDir }, out);
      expect(fs.existsSync(path.join(out, 'files', 'pg.lock'))).toBe(false);
      // Opened again: a restore is refused too, whatever --force says.
      const again = await openDb({ dataDir });
      await expect(restore({ dataDir }, out, { force: true })).rejects.toBeInstanceOf(RestoreRefused);
      await again.close();
      // A process that died with the database open left its lock: its pid is gone, so it is free.
      const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      fs.writeFileSync(path.join(dataDir, 'pg.lock'), `${child.stdout}\n`);
      expect((await restore({ dataDir }, out, { force: true })).manifest.createdAt).toBe(m.createdAt);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
