import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Reader } from './types';

// Read replica routing (decision 024): which server a list, report or export statement reads from.

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
const DEFAULT_REPLICA_STICKY_MS = 5000;

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
      query: (text, params, o) => db.query(text, params, o),
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
    async query(text, params, o) {
      if (onPrimary()) return primary.query(text, params, o);
      try {
        return await replica.query(text, params, o);
      } catch (err) {
        if (!replicaUnusable(err)) throw err;
        return primary.query(text, params, o);
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
