import path from 'node:path';
import { withReplica } from './replica';
import type { Db, QueryOptions } from './types';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/**
 * Opening the database (PGlite or PostgreSQL) and the adapters behind `Db`: PGlite's in pglite.ts,
 * PostgreSQL's in postgres.ts, what they share in adapter.ts. The handle's types are in types.ts,
 * the read-replica routing in replica.ts (all re-exported here, where every module imports them
 * from), which statements write in writes.ts, LISTEN in listen.ts.
 */
export type { Db, Queryable, QueryOptions, Reader, Result } from './types';
export { HOUSEKEEPING, runInReadScope, withReplica, type ReadScope } from './replica';

/** The lists', reports' and search's hot statements: prepared, with a generic plan (QueryOptions). */
export const PREPARED: QueryOptions = Object.freeze({ prepare: true });
/** PREPARED, for a statement of bounded cost that may share a pipelined connection (pipelined.ts). */
export const PIPELINED: QueryOptions = Object.freeze({ prepare: true, pipeline: true });

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

export { dumpPglite, openPglite, pgliteLockFile, pgliteLockHolder } from './pglite';
export { openPostgres } from './postgres';
