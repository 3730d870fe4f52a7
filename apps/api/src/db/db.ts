import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export interface Result<T> {
  rows: T[];
  rowCount: number;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Result<T>>;
}

/**
 * Where lists, reports and exports read (`Db.read`): the read replica when DATABASE_REPLICA_URL is
 * set, else the primary itself. Each statement is routed when it runs: to the primary inside a
 * request that has written, and for a session within the sticky window after its last write
 * (read-your-writes, decision 024); to the replica otherwise. A replica that cannot be reached
 * (or cancels a statement for a recovery conflict) is stood in for by the primary.
 */
export interface Reader extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Where a statement run now from this async context would go. */
  target(): 'primary' | 'replica';
  /** As `Db.copyOut`, on the server `target()` names. */
  copyOut?(copySql: string): Promise<Readable>;
  /** As `Db.copyBlob` (PGlite: always the one database). */
  copyBlob?(copySql: string): Promise<Uint8Array>;
  /**
   * A reader fixed to one server that sees every write committed on the primary before this call,
   * for work that starts after a write outside the request that made it (the export job): the
   * replica once it has replayed up to the primary's WAL position of now (waiting up to
   * `maxWaitMs`), else the primary. Without a replica: the primary at once.
   */
  caughtUp(maxWaitMs?: number): Promise<Reader>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * The read handle of lists, reports and exports (see `Reader`). Reads that must see a write
   * just made — a detail after a refund, the export file list, anything inside `tx`, sessions and
   * sign-in — use the Db itself (the primary).
   */
  readonly read: Reader;
  /**
   * Runs `fn` in one database transaction: committed when it resolves, rolled back when it throws.
   * On PGlite (one connection shared by every request) this goes through PGlite's own
   * `transaction()`, which holds the connection for the whole transaction, so no other request's
   * statement can land inside it. On PostgreSQL it takes a pooled connection of its own.
   */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (migrations), no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * Calls `listener` with the text of every statement that may have changed data (anything but a
   * plain SELECT), once it is visible to other readers: after it ran, or inside `tx` after the
   * commit. In-process caches (the auth hook's session cache) use it to drop what went stale.
   * Returns the function that unsubscribes.
   */
  onWrite(listener: (sql: string, rowCount?: number) => void): () => void;
  /**
   * PostgreSQL only: runs `copySql` (a `COPY … TO STDOUT` statement, no parameters) on a pooled
   * connection of its own and returns the data as a stream, with backpressure (the socket is not
   * read while the consumer is full). The connection goes back to the pool when the stream ends;
   * when it fails or is destroyed before the end (the consumer gave up), the connection is closed
   * instead, which also stops the statement on the server. A read: `onWrite` is not told.
   */
  copyOut?(copySql: string): Promise<Readable>;
  /**
   * PGlite only: runs `copySql` (a `COPY … TO '/dev/blob'` statement, no parameters) and returns
   * what it wrote, all of it in memory (empty when no rows): callers keep each COPY small (key
   * ranges, export.copy.ts). Like every PGlite statement it holds the one connection while it
   * runs. A read: `onWrite` is not told.
   */
  copyBlob?(copySql: string): Promise<Uint8Array>;
  /**
   * PostgreSQL only: LISTENs on `channel` over a dedicated connection (not from the pool) and calls
   * `onNotify` with each notification's payload whose schema is this Db's (the payload names the
   * schema written: several schemas on one server share channels). `onState(false)` when the
   * connection is lost (notifications may be missed until it is back), `onState(true)` once it
   * listens again; it reconnects by itself. Resolves to the function that stops it.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onState: (listening: boolean) => void): () => Promise<void>;
  close(): Promise<void>;
}

// int8 → number (minor units stay far below 2^53), numeric and date → string (no float, no local midnight).
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Statements that do not change data (our code has no SELECT of a writing function). */
const READ_ONLY = /^\s*(?:select|show|explain)\b/i;

type WriteListener = (sql: string, rowCount?: number) => void;

/**
 * The write-listener half of a Db: statements outside a transaction report at once, inside one at
 * commit. The row count is the statement's (undefined for `exec`, which runs several).
 */
function writeNotifier() {
  const listeners = new Set<WriteListener>();
  const emit = (writes: [string, number | undefined][]) => {
    for (const [sql, n] of writes) for (const l of listeners) l(sql, n);
  };
  return {
    onWrite(listener: WriteListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** After a statement outside any transaction. */
    ran(sql: string, rowCount?: number) {
      if (listeners.size && !READ_ONLY.test(sql)) emit([[sql, rowCount]]);
    },
    /** Collects a transaction's writes; `flush` reports them (after COMMIT). */
    collector() {
      const seen: [string, number | undefined][] = [];
      return {
        ran(sql: string, rowCount?: number) {
          if (listeners.size && !READ_ONLY.test(sql)) seen.push([sql, rowCount]);
        },
        flush: () => emit(seen),
      };
    },
  };
}

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

export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, {
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
      const r = await q.query<T>(text, params as never);
      const rowCount = rowCountOf(r);
      ran(text, rowCount);
      return { rows: r.rows, rowCount };
    },
  });
  const base = wrap(pglite, writes.ran);
  return withSelfReader({
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
    close: () => pglite.close(),
  });
}

function withSelfReader(db: Omit<Db, 'read'>): Db {
  return Object.assign(db, { read: selfReader(db) });
}

export async function openPostgres(url: string, opts: { searchPath?: string; max?: number } = {}): Promise<Db> {
  const typeParsers: Record<number, (v: string) => unknown> = {
    [INT8]: (v) => Number(v),
    [NUMERIC]: (v) => v,
    [DATE]: (v) => v,
  };
  const pgOptions = opts.searchPath ? `-c search_path=${opts.searchPath} -c TimeZone=UTC` : '-c TimeZone=UTC';
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    options: pgOptions,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const writes = writeNotifier();
  const wrap = (c: pg.Pool | pg.PoolClient, ran: (sql: string, n?: number) => void): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await c.query(text, params as unknown[]);
      const rowCount = r.rowCount ?? r.rows.length;
      ran(text, rowCount);
      return { rows: r.rows as T[], rowCount };
    },
  });
  const base = wrap(pool, writes.ran);
  return withSelfReader({
    kind: 'postgres',
    query: base.query,
    onWrite: writes.onWrite,
    async tx(fn) {
      const client = await pool.connect();
      const c = writes.collector();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, c.ran));
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
    close: () => pool.end(),
  });
}

/**
 * The listening half of `Db.listen`: one pg.Client that LISTENs, passes on notifications for its
 * own schema, and after any error reconnects (1 s apart) until stopped.
 */
function listenOn(
  cfg: pg.ClientConfig,
  channel: string,
  onNotify: (payload: string) => void,
  onState: (listening: boolean) => void,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client(cfg);
    client = c;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      onState(false);
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    };
    c.on('error', onLost);
    c.on('end', onLost);
    try {
      await c.connect();
      const schema = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      c.on('notification', (n) => {
        if (n.channel === channel && (n.payload ?? '') === schema) onNotify(n.payload ?? '');
      });
      await c.query(`LISTEN ${channel}`);
      if (stopped) return void c.end().catch(() => undefined);
      onState(true);
    } catch {
      onLost();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
  };
}

/**
 * Opens the database: PGlite in `dataDir`, or the PostgreSQL server at `databaseUrl`, with its read
 * replica at `replicaUrl` when given (PostgreSQL only: config.ts refuses it without DATABASE_URL).
 */
export async function openDb(opts: { databaseUrl?: string; dataDir?: string; replicaUrl?: string; replicaStickyMs?: number }): Promise<Db> {
  if (opts.databaseUrl) {
    const primary = await openPostgres(opts.databaseUrl);
    if (!opts.replicaUrl) return primary;
    return withReplica(primary, await openPostgres(opts.replicaUrl), { stickyMs: opts.replicaStickyMs });
  }
  if (opts.replicaUrl) throw new Error('a read replica needs DATABASE_URL (PGlite has none)');
  return openPglite(opts.dataDir ? path.join(opts.dataDir, 'pg') : undefined);
}

// ---------------------------------------------------------------------------------------------
// Read replica routing (decision 024)

/**
 * What the read routing knows of the work in progress: one per API request (plugins/read-scope.ts
 * opens it), none for background work. `wrote`: this request has changed rows on the primary;
 * `session`: the signed-in session it serves, once known.
 */
export interface ReadScope {
  wrote: boolean;
  session?: number | string;
  /**
   * The client says its session wrote within the sticky window (the cookie read-scope.ts sets on
   * a writing request's response): true when another API process served that write.
   */
  primary?: boolean;
}
const readScopes = new AsyncLocalStorage<ReadScope>();

/** Runs `fn` (and everything it starts) in `scope`. */
export function runInReadScope<T>(scope: ReadScope, fn: () => T): T {
  return readScopes.run(scope, fn);
}
/** The scope of the current async context (undefined outside any request). */
export function currentReadScope(): ReadScope | undefined {
  return readScopes.getStore();
}

/**
 * Statements that start with this comment change nothing a reader must see (the auth hook's
 * last-seen touch): they do not turn the caller's reads to the primary.
 */
export const HOUSEKEEPING = '/* housekeeping */';

/** Default sticky window: how long a session's reads stay on the primary after it wrote. */
export const DEFAULT_REPLICA_STICKY_MS = 5000;

/**
 * Errors after which a replica read is retried on the primary: the replica cannot be reached or
 * went away (class 08, 57P01–57P03, socket errors), or it cancelled the statement because replay
 * needed the rows it read (40001 "conflict with recovery").
 */
function replicaUnusable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? '';
  if (/^08|^57P0[123]$|^40001$/.test(code)) return true;
  if (/^E(?:CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE)$|^EAI_/.test(code)) return true;
  return /Connection terminated|connection timeout/i.test(e?.message ?? '');
}

/**
 * The primary `primary` with `replica` (a hot standby of it, opened with the same search_path)
 * behind its `read` handle. Everything else — writes, `tx`, the Db's own `query` — stays on the
 * primary. `read` routes each statement (see `Reader`); `stickyMs` is the read-your-writes window
 * of a session after a write (default DEFAULT_REPLICA_STICKY_MS; 0 = only the writing request).
 * `close` closes both.
 */
export function withReplica(primary: Db, replica: Db, opts: { stickyMs?: number } = {}): Db {
  const stickyMs = opts.stickyMs ?? DEFAULT_REPLICA_STICKY_MS;
  /** session → performance.now() until which its reads go to the primary. */
  const pinned = new Map<number | string, number>();
  const pin = (session: number | string) => {
    if (stickyMs <= 0) return;
    if (pinned.size > 100_000) for (const [k, until] of pinned) if (until <= performance.now()) pinned.delete(k);
    pinned.set(session, performance.now() + stickyMs);
  };
  const unwatch = primary.onWrite((sql, rowCount) => {
    const scope = readScopes.getStore();
    if (!scope || rowCount === 0 || sql.trimStart().startsWith(HOUSEKEEPING)) return;
    scope.wrote = true;
    if (scope.session !== undefined) pin(scope.session);
  });
  const onPrimary = (): boolean => {
    const scope = readScopes.getStore();
    if (!scope) return false;
    if (scope.wrote || scope.primary) return true;
    if (scope.session === undefined) return false;
    const until = pinned.get(scope.session);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    pinned.delete(scope.session);
    return false;
  };
  const fixed = (db: Db, target: 'primary' | 'replica'): Reader => {
    const r: Reader = {
      kind: 'postgres',
      query: (text, params) => db.query(text, params),
      target: () => target,
      copyOut: db.copyOut ? (sql) => db.copyOut!(sql) : undefined,
      caughtUp: async () => r,
    };
    return r;
  };
  const onReplica = fixed(replica, 'replica');
  const onMain = fixed(primary, 'primary');
  const read: Reader = {
    kind: 'postgres',
    target: () => (onPrimary() ? 'primary' : 'replica'),
    async query(text, params) {
      if (onPrimary()) return primary.query(text, params);
      try {
        return await replica.query(text, params);
      } catch (err) {
        if (!replicaUnusable(err)) throw err;
        return primary.query(text, params);
      }
    },
    async copyOut(sql) {
      if (onPrimary()) return primary.copyOut!(sql);
      try {
        return await replica.copyOut!(sql);
      } catch (err) {
        if (!replicaUnusable(err)) throw err;
        return primary.copyOut!(sql);
      }
    },
    async caughtUp(maxWaitMs = 2000) {
      try {
        const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
        const lsn = rows[0].lsn;
        const deadline = performance.now() + maxWaitMs;
        for (;;) {
          const r = await replica.query<{ ok: boolean | null }>('SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
          if (r.rows[0]?.ok) return onReplica;
          if (performance.now() >= deadline) return onMain;
          await new Promise((res) => setTimeout(res, 20));
        }
      } catch (err) {
        if (!replicaUnusable(err)) throw err;
        return onMain;
      }
    },
  };
  return {
    ...primary,
    read,
    async close() {
      unwatch();
      await Promise.all([primary.close(), replica.close()]);
    },
  };
}
