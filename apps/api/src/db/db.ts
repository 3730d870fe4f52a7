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

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
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
  onWrite(listener: (sql: string) => void): () => void;
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
  close(): Promise<void>;
}

// int8 → number (minor units stay far below 2^53), numeric and date → string (no float, no local midnight).
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Statements that do not change data (our code has no SELECT of a writing function). */
const READ_ONLY = /^\s*(?:select|show|explain)\b/i;

/** The write-listener half of a Db: statements outside a transaction report at once, inside one at commit. */
function writeNotifier() {
  const listeners = new Set<(sql: string) => void>();
  const emit = (sqls: string[]) => {
    for (const sql of sqls) for (const l of listeners) l(sql);
  };
  return {
    onWrite(listener: (sql: string) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** After a statement outside any transaction. */
    ran(sql: string) {
      if (listeners.size && !READ_ONLY.test(sql)) emit([sql]);
    },
    /** Collects a transaction's writes; `flush` reports them (after COMMIT). */
    collector() {
      const seen: string[] = [];
      return {
        ran(sql: string) {
          if (listeners.size && !READ_ONLY.test(sql)) seen.push(sql);
        },
        flush: () => emit(seen),
      };
    },
  };
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
  const wrap = (q: { query: PGlite['query'] }, ran: (sql: string) => void): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await q.query<T>(text, params as never);
      ran(text);
      return { rows: r.rows, rowCount: rowCountOf(r) };
    },
  });
  const base = wrap(pglite, writes.ran);
  return {
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
  };
}

export async function openPostgres(url: string, opts: { searchPath?: string; max?: number } = {}): Promise<Db> {
  const typeParsers: Record<number, (v: string) => unknown> = {
    [INT8]: (v) => Number(v),
    [NUMERIC]: (v) => v,
    [DATE]: (v) => v,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    options: opts.searchPath ? `-c search_path=${opts.searchPath} -c TimeZone=UTC` : '-c TimeZone=UTC',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const writes = writeNotifier();
  const wrap = (c: pg.Pool | pg.PoolClient, ran: (sql: string) => void): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await c.query(text, params as unknown[]);
      ran(text);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
  });
  const base = wrap(pool, writes.ran);
  return {
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
    close: () => pool.end(),
  };
}

export async function openDb(opts: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ? path.join(opts.dataDir, 'pg') : undefined);
}
