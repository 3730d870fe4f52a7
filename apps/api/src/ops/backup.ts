import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../config';
import { pgliteLockHolder } from '../db/db';
import { completeReferenced, copyFiles, referencedFiles, SKIP, tally } from './backup.files';

const run = promisify(execFile);

/**
 * Backup and restore of the portal (issue 27, docs/operations.md): the database — PostgreSQL with
 * pg_dump's custom format, PGlite with its data-directory dump — and the files under DATA_DIR
 * (exports, attachments, statements). A backup is a folder:
 *   manifest.json   engine, time, migrations applied, rows per table, files and bytes
 *   db.dump         PostgreSQL: pg_dump --format=custom of the schema the portal uses
 *   pglite.tar.gz   PGlite: dumpDataDir('gzip')
 *   files/          DATA_DIR without the PGlite data directory
 * The server must be stopped for a PGlite backup or restore (PGlite belongs to one process: a
 * process holding it open is detected by its lock, db/db.ts, and refused); a PostgreSQL backup is
 * taken while it runs: the manifest's counts, the list of files the rows refer to and pg_dump all
 * read one exported snapshot (issue 46), and every file a dumped row refers to is in files/.
 */
export interface Manifest {
  format: 1;
  engine: 'pglite' | 'postgres';
  createdAt: string;
  /** PostgreSQL: the schema dumped. */
  schema?: string;
  migrations: string[];
  rows: Record<string, number>;
  files: { count: number; bytes: number };
  /** Files the backed-up rows refer to (documents, attachments, ready exports): all in files/ but `missingFiles`. */
  referencedFiles?: number;
  /** Referenced files that were already gone from DATA_DIR (the database pointed at nothing there either). */
  missingFiles?: string[];
  seconds: number;
}

/** The folder of the PostgreSQL client programs: PG_BIN, else the newest of Debian's server packages, else PATH. */
function pgBin(tool: 'pg_dump' | 'pg_restore'): string {
  if (process.env.PG_BIN) return path.join(process.env.PG_BIN, tool);
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (fs.existsSync(path.join(root, v, 'bin', tool))) return path.join(root, v, 'bin', tool);
  return tool;
}

/**
 * PGlite belongs to one process: one that has DATA_DIR's database open (the server, a CLI) holds
 * its lock (db/db.ts `pgliteLockFile`). A backup or restore then would read (or replace) files
 * another process is writing — refused.
 */
function assertPgliteFree(dir: string) {
  const holder = pgliteLockHolder(dir);
  if (holder !== null) throw new RestoreRefused(`the PGlite database in ${dir} is open in process ${holder} (the server or a command): stop it first`);
}

/** Rows per table of the schema (exact counts: the manifest is what a restore is checked against). */
async function rowCounts(q: { query<T>(sql: string): Promise<{ rows: T[] }> }): Promise<Record<string, number>> {
  const { rows: tables } = await q.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { t } of tables) out[t] = Number((await q.query<{ n: string | number }>(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
  return out;
}

function pgClient(url: string): pg.Client {
  return new pg.Client({ connectionString: url });
}

function assertOutOk(out: string, dataDir: string) {
  const o = path.resolve(out);
  const d = path.resolve(dataDir);
  if (o === d || o.startsWith(d + path.sep)) throw new Error(`--out must be outside DATA_DIR (${d})`);
  if (fs.existsSync(o) && fs.readdirSync(o).length > 0) throw new Error(`--out ${o} is not empty`);
}

/** Writes a backup of the configured database and DATA_DIR's files to `out` (a new or empty folder). */
export async function backup(config: Pick<Config, 'databaseUrl' | 'dataDir'>, out: string): Promise<Manifest> {
  const t0 = performance.now();
  assertOutOk(out, config.dataDir);
  fs.mkdirSync(out, { recursive: true });
  let manifest: Omit<Manifest, 'files' | 'seconds'>;
  const filesOut = path.join(out, 'files');
  let referenced: string[];
  let missingFiles: string[];
  if (config.databaseUrl) {
    // The files first, before the snapshot: a file whose row is deleted while the backup runs is
    // already here (rows are written after their file, and deleted before it).
    copyFiles(config.dataDir, filesOut);
    const c = pgClient(config.databaseUrl);
    await c.connect();
    try {
      // One snapshot for everything (issue 46): exported here and held open while pg_dump reads it,
      // so the manifest's counts and referenced files are those of the dump, whatever is written meanwhile.
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = (await c.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0].s;
      const schema = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      referenced = await referencedFiles(c);
      // A file written between the first copy and the snapshot: its row is in the dump, so it is copied now.
      missingFiles = completeReferenced(config.dataDir, filesOut, referenced);
      const dump = run(
        pgBin('pg_dump'),
        ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, `--schema=${schema}`, `--file=${path.join(out, 'db.dump')}`, `--dbname=${config.databaseUrl}`],
        { maxBuffer: 1 << 24 },
      );
      // Counted while pg_dump runs, in the same snapshot (the exporting transaction stays open until both are done).
      const counted = (async () => {
        const migrations = (await c.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
        return { migrations, rows: await rowCounts(c) };
      })();
      const [, { migrations, rows }] = await Promise.all([
        dump,
        counted.catch(async (err) => {
          await dump.catch(() => undefined);
          throw err;
        }),
      ]);
      await c.query('COMMIT');
      manifest = { format: 1, engine: 'postgres', createdAt: new Date().toISOString(), schema, migrations, rows };
    } finally {
      await c.end();
    }
  } else {
    const dir = path.join(config.dataDir, 'pg');
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`no PGlite database in ${dir}`);
    assertPgliteFree(dir);
    const db = await PGlite.create(dir);
    try {
      // Nothing else has the database open: the counts, the references and the dump are of one state.
      const migrations = (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
      const rows = await rowCounts(db);
      referenced = await referencedFiles(db);
      const dump = await db.dumpDataDir('gzip');
      fs.writeFileSync(path.join(out, 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
      manifest = { format: 1, engine: 'pglite', createdAt: new Date().toISOString(), migrations, rows };
    } finally {
      await db.close();
    }
    copyFiles(config.dataDir, filesOut);
    missingFiles = completeReferenced(config.dataDir, filesOut, referenced);
  }
  const full: Manifest = { ...manifest, files: tally(filesOut), referencedFiles: referenced.length, missingFiles, seconds: Math.round((performance.now() - t0) / 100) / 10 };
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(full, null, 2));
  return full;
}

export class RestoreRefused extends Error {}

/**
 * Restores the backup in `from` into the configured database and DATA_DIR. A database that holds
 * anything (a table in the target schema, a PGlite data directory) is refused unless `force`:
 * then it is replaced whole, and DATA_DIR's files with the backup's. Checks the rows per table
 * against the manifest afterwards.
 */
export async function restore(config: Pick<Config, 'databaseUrl' | 'dataDir'>, from: string, opts: { force?: boolean } = {}): Promise<{ manifest: Manifest; seconds: number }> {
  const t0 = performance.now();
  const mf = path.join(from, 'manifest.json');
  if (!fs.existsSync(mf)) throw new Error(`${from} holds no backup (manifest.json missing)`);
  const manifest = JSON.parse(fs.readFileSync(mf, 'utf8')) as Manifest;
  const engine = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.engine !== engine) throw new Error(`the backup is of ${manifest.engine}; the configured database is ${engine}`);
  let rows: Record<string, number>;
  let referenced: string[];
  if (config.databaseUrl) {
    const c = pgClient(config.databaseUrl);
    await c.connect();
    try {
      const schema = (await c.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0].s ?? manifest.schema!;
      if (schema !== manifest.schema) throw new Error(`the backup is of schema ${manifest.schema}; the connection's schema is ${schema}`);
      const { rows: t } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`, [schema]);
      if (t[0].n > 0 && !opts.force) throw new RestoreRefused(`the database is not empty (${t[0].n} tables in schema ${schema}): add --force to replace it`);
      // pg_dump --schema writes the schema's CREATE: the restore makes it anew.
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await c.end();
    }
    await run(pgBin('pg_restore'), ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${config.databaseUrl}`, path.join(from, 'db.dump')], { maxBuffer: 1 << 24 });
    const c2 = pgClient(config.databaseUrl);
    await c2.connect();
    try {
      rows = await rowCounts(c2);
      referenced = await referencedFiles(c2);
    } finally {
      await c2.end();
    }
  } else {
    const dir = path.join(config.dataDir, 'pg');
    assertPgliteFree(dir);
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
      if (!opts.force) throw new RestoreRefused(`the database is not empty (${dir}): add --force to replace it`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    fs.mkdirSync(config.dataDir, { recursive: true });
    const blob = new Blob([fs.readFileSync(path.join(from, 'pglite.tar.gz'))]);
    const db = await PGlite.create(dir, { loadDataDir: blob });
    try {
      rows = await rowCounts(db);
      referenced = await referencedFiles(db);
    } finally {
      await db.close();
    }
  }
  // The files: DATA_DIR becomes the backup's (its PGlite directory apart).
  if (fs.existsSync(config.dataDir)) for (const name of fs.readdirSync(config.dataDir)) if (!SKIP.has(name)) fs.rmSync(path.join(config.dataDir, name), { recursive: true, force: true });
  copyFiles(path.join(from, 'files'), config.dataDir);
  const diff = Object.keys({ ...manifest.rows, ...rows }).filter((t) => manifest.rows[t] !== rows[t]);
  if (diff.length) throw new Error(`restored rows differ from the backup's manifest in: ${diff.map((t) => `${t} ${rows[t]} ≠ ${manifest.rows[t]}`).join(', ')}`);
  // Every file a restored row refers to is there (but those already missing when the backup was taken).
  const known = new Set(manifest.missingFiles ?? []);
  const absent = referenced.filter((rel) => !known.has(rel) && !fs.existsSync(path.resolve(config.dataDir, rel)));
  if (absent.length) throw new Error(`restored rows refer to ${absent.length} file(s) the backup lacks: ${absent.slice(0, 10).join(', ')}${absent.length > 10 ? ', …' : ''}`);
  return { manifest, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}
