/** The embedded database (PGlite): opened in memory or in a data directory, its lock file, its dump. */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { observed } from './observe';
import { writeNotifier } from './writes';
import type { Db, Queryable } from './types';
import { DATE, INT8, NUMERIC, rowCountOf, withSelfReader } from './adapter';

/** The PGlite behind each Db openPglite made: `dumpPglite` reads its data directory. */
const pgliteOf = new WeakMap<Db, PGlite>();

/** A PGlite Db's whole data directory as an uncompressed tarball, for `openPglite({ loadDataDir })`. */
export function dumpPglite(db: Db): Promise<Blob> {
  const pglite = pgliteOf.get(db);
  if (!pglite) throw new Error('dumpPglite: not a PGlite database');
  return pglite.dumpDataDir('none') as Promise<Blob>;
}

/**
 * PGlite keeps no lock of its own (its postmaster.pid is a constant): `DATA_DIR/pg.lock` says which
 * process has the data directory open (issue 46) — written at open, removed at close; a process that
 * died leaves a lock whose pid is gone, which counts as free.
 */
export const pgliteLockFile = (dataDir: string) => `${path.resolve(dataDir)}.lock`;

/** The pid of a live process holding `dataDir`'s PGlite open, or null. */
export function pgliteLockHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pgliteLockFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

function takePgliteLock(dataDir: string): () => void {
  const file = pgliteLockFile(dataDir);
  fs.writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

/**
 * An embedded database: in memory, or in `dataDir`. `loadDataDir` starts it from a dump
 * (`dumpPglite`) instead of an empty cluster: no initdb, a quarter of the time (tests start each
 * database from one migrated template, apps/api/test/helpers.ts).
 */
export async function openPglite(dataDir?: string, opts: { loadDataDir?: Blob; sharedBuffers?: string } = {}): Promise<Db> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  // Issue 46: which process has this database open, for `npm run backup` / `restore` to refuse.
  const releaseLock = dataDir ? takePgliteLock(dataDir) : () => undefined;
  const pglite = await PGlite.create(dataDir, {
    loadDataDir: opts.loadDataDir,
    // Smaller shared buffers start faster (the WASM heap they take is cleared at start): tests' small
    // databases use 16MB; the default is PostgreSQL's 128MB.
    ...(opts.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffers}`] } : {}),
    parsers: {
      [INT8]: (v: string) => Number(v),
      [NUMERIC]: (v: string) => v,
      [DATE]: (v: string) => v,
    },
    serializers: { [pgliteTypes.INT8]: (v: unknown) => String(v) },
  });
  await pglite.exec("SET TIME ZONE 'UTC'");
  const writes = writeNotifier();
  const wrap = (q: { query: PGlite['query'] }, ran: (sql: string, n?: number) => void): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await observed('pglite', () => q.query<T>(text, params as never));
      const rowCount = rowCountOf(r);
      ran(text, rowCount);
      return { rows: r.rows, rowCount };
    },
  });
  const base = wrap(pglite, writes.ran);
  const db = withSelfReader({
    kind: 'pglite',
    query: base.query,
    async tx(fn) {
      const c = writes.collector();
      const out = await pglite.transaction((t) => fn(wrap(t, c.ran)));
      c.flush();
      return out;
    },
    exec: async (sql) => {
      await pglite.exec(sql);
      writes.ran(sql);
    },
    onWrite: writes.onWrite,
    async copyBlob(copySql) {
      const r = await pglite.query(copySql);
      return r.blob ? new Uint8Array(await r.blob.arrayBuffer()) : new Uint8Array(0);
    },
    close: () => pglite.close().finally(releaseLock),
  });
  pgliteOf.set(db, pglite);
  return db;
}
