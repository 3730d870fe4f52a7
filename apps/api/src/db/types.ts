import type { Readable } from 'node:stream';

/** The database handle's shape: what every module that reads or writes sees (db.ts opens one). */
export interface Result<T> {
  rows: T[];
  rowCount: number;
}

/** How a statement is run (PostgreSQL; PGlite ignores it). */
export interface QueryOptions {
  /**
   * Run it as a named prepared statement with a generic plan (`plan_cache_mode =
   * force_generic_plan`, on connections of their own): parsed and planned once per connection,
   * then only bound and executed — for the lists', reports' and search's hot statements, whose
   * plans do not depend on the values (partitions are pruned when the executor starts; decision
   * 043). Inside a transaction it is an ordinary statement.
   */
  prepare?: boolean;
  /**
   * With `prepare`: the statement's cost is bounded (a list's page over its index, a bounded
   * count, a key look-up), so it may go on a pipelined connection behind others (pipelined.ts,
   * decision 053). Never for a statement that may run long: it would hold up the ones after it.
   */
  pipeline?: boolean;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<Result<T>>;
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
  /** PostgreSQL only: the pool's connections (all, idle) and the callers waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** The read replica's own handle when DATABASE_REPLICA_URL is set (/readyz measures its lag). */
  replica?: Db;
  close(): Promise<void>;
}
