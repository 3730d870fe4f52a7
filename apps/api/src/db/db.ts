import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { withReplica } from './replica';
import { observed } from './observe';
import { listenOn } from './listen';
import { writeNotifier } from './writes';
import { DEFAULT_PIPELINE_CONNECTIONS, pipelined } from './pipelined';
import type { Db, Queryable, QueryOptions, Reader } from './types';

/**
 * Opening the database (PGlite or PostgreSQL) and the adapters behind `Db`. The handle's types are
 * in types.ts, the read-replica routing in replica.ts (both re-exported here, where every
 * module imports them from), which statements write in writes.ts, LISTEN in listen.ts.
 */
export type { Db, Queryable, QueryOptions, Reader, Result } from './types';
export { HOUSEKEEPING, runInReadScope, withReplica, type ReadScope } from './replica';

// int8 → number (minor units stay far below 2^53), numeric and date → string (no float, no local midnight).
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** The lists', reports' and search's hot statements: prepared, with a generic plan (QueryOptions). */
export const PREPARED: QueryOptions = Object.freeze({ prepare: true });
/** PREPARED, for a statement of bounded cost that may share a pipelined connection (pipelined.ts). */
export const PIPELINED: QueryOptions = Object.freeze({ prepare: true, pipeline: true });

/** A Db's read handle when there is no replica: its own statements, always on the primary. */
function selfReader(db: Omit<Db, 'read'>): Reader {
  const reader: Reader = {
    kind: db.kind,
    query: db.query,
    target: () => 'primary',
    copyOut: db.copyOut,
    copyBlob: db.copyBlob,
    caughtUp: async () => reader,
  };
  return reader;
}

function rowCountOf(r: { affectedRows?: number; rows: unknown[] }): number {
  return r.affectedRows ?? r.rows.length;
}

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

function withSelfReader(db: Omit<Db, 'read'>): Db {
  return Object.assign(db, { read: selfReader(db) });
}

export async function openPostgres(url: string, opts: { searchPath?: string; max?: number; genericPlans?: boolean; pipelineConnections?: number } = {}): Promise<Db> {
  const typeParsers: Record<number, (v: string) => unknown> = {
    [INT8]: (v) => Number(v),
    [NUMERIC]: (v) => v,
    [DATE]: (v) => v,
  };
  const pgOptions = opts.searchPath ? `-c search_path=${opts.searchPath} -c TimeZone=UTC` : '-c TimeZone=UTC';
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    options: pgOptions,
    types,
  });
  // A pooled connection that breaks while idle (the server restarted) is dropped by the pool; the
  // error must not become an uncaught exception.
  pool.on('error', () => undefined);
  const writes = writeNotifier();
  // Named prepared statements run on connections of their own whose plan_cache_mode is
  // force_generic_plan (the setting would also make every unnamed statement generic): each
  // connection parses and plans a statement once and then only binds and executes it.
  const genericOptions = `${pgOptions} -c plan_cache_mode=force_generic_plan`;
  let genericPool: pg.Pool | undefined;
  const generic = () =>
    (genericPool ??= new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      options: genericOptions,
      types,
    }).on('error', () => undefined));
  // Short statements (QueryOptions.pipeline) share a few pipelined connections of the same kind.
  const pipelineConnections = opts.pipelineConnections ?? DEFAULT_PIPELINE_CONNECTIONS;
  const pipe = pipelineConnections > 0 ? pipelined({ connectionString: url, options: genericOptions, types }, pipelineConnections) : undefined;
  const wrap = (c: pg.Pool | pg.PoolClient, ran: (sql: string, n?: number) => void, top: boolean): Queryable => ({
    async query<T>(text: string, params?: unknown[], o?: QueryOptions) {
      const r = await observed('postgres', () =>
        top && o?.prepare && opts.genericPlans !== false
          ? (o.pipeline && pipe ? pipe : generic()).query({ name: statementName(text), text, values: params as unknown[] })
          : c.query(text, params as unknown[]),
      );
      const rowCount = r.rowCount ?? r.rows.length;
      ran(text, rowCount);
      return { rows: r.rows as T[], rowCount };
    },
  });
  const base = wrap(pool, writes.ran, true);
  return withSelfReader({
    kind: 'postgres',
    query: base.query,
    onWrite: writes.onWrite,
    async tx(fn) {
      const client = await pool.connect();
      const c = writes.collector();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, c.ran, false));
        await client.query('COMMIT');
        c.flush();
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
      writes.ran(sql);
    },
    async copyOut(copySql) {
      const client = await pool.connect();
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        // With an error the pool closes the connection: a COPY cut short leaves it mid-protocol.
        client.release(err);
      };
      let stream;
      try {
        stream = client.query(copyTo(copySql));
      } catch (err) {
        release(err as Error);
        throw err;
      }
      stream.once('end', () => release());
      stream.on('error', (err) => release(err));
      stream.once('close', () => release(new Error('COPY stream closed before its end')));
      return stream;
    },
    listen(channel, onNotify, onState) {
      return listenOn({ connectionString: url, options: pgOptions }, channel, onNotify, onState);
    },
    poolStats: () => {
      const piped = pipe?.stats() ?? { total: 0, idle: 0 };
      return {
        total: pool.totalCount + (genericPool?.totalCount ?? 0) + piped.total,
        idle: pool.idleCount + (genericPool?.idleCount ?? 0) + piped.idle,
        waiting: pool.waitingCount + (genericPool?.waitingCount ?? 0),
      };
    },
    close: async () => {
      await Promise.all([pool.end(), genericPool?.end(), pipe?.end()]);
    },
  });
}

/**
 * A prepared statement's name: the same text gets the same name on every connection. Remembered
 * per text (the texts are the code's own, a few dozen; the map is emptied past 2,000 should
 * that ever change): a hot list call no longer hashes its statement each time.
 */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= 2000) statementNames.clear();
    name = `g_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Opens the database: PGlite in `dataDir`, or the PostgreSQL server at `databaseUrl`, with its read
 * replica at `replicaUrl` when given (PostgreSQL only: config.ts refuses it without DATABASE_URL).
 */
export async function openDb(opts: {
  databaseUrl?: string;
  dataDir?: string;
  replicaUrl?: string;
  replicaStickyMs?: number;
  genericPlans?: boolean;
  pipelineConnections?: number;
  /** PGlite's shared_buffers (PostgreSQL's default when unset: 128MB). */
  pgliteSharedBuffers?: string;
}): Promise<Db> {
  if (opts.databaseUrl) {
    const primary = await openPostgres(opts.databaseUrl, { genericPlans: opts.genericPlans, pipelineConnections: opts.pipelineConnections });
    if (!opts.replicaUrl) return primary;
    const replica = await openPostgres(opts.replicaUrl, { genericPlans: opts.genericPlans, pipelineConnections: opts.pipelineConnections });
    // /readyz measures the replica's lag on this handle (plugins/health.ts).
    return Object.assign(withReplica(primary, replica, { stickyMs: opts.replicaStickyMs }), { replica });
  }
  if (opts.replicaUrl) throw new Error('a read replica needs DATABASE_URL (PGlite has none)');
  return openPglite(opts.dataDir ? path.join(opts.dataDir, 'pg') : undefined, { sharedBuffers: opts.pgliteSharedBuffers });
}
