import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/types';
import { MIGRATIONS_DIR } from '../db/migrate';
import { isShuttingDown, runnerCheck } from '../ops/lifecycle';

/** A check's answer in /readyz. */
interface Check {
  ok: boolean;
  ms?: number;
  detail?: string;
  [k: string]: unknown;
}

export interface HealthOptions {
  db: Db;
  /** Replica lag above this (seconds) makes the process not ready. */
  maxReplicaLagSeconds: number;
  /** Whether this process runs the job runner (false: the check is left out). */
  jobRunner: boolean;
  /** Migrations folder (tests give their own). */
  migrationsDir?: string;
  /** Each check gives up after this (ms). */
  timeoutMs?: number;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function timed(fn: () => Promise<Check>, timeoutMs: number): Promise<Check> {
  const t0 = performance.now();
  try {
    const r = await withTimeout(fn(), timeoutMs);
    return { ...r, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    return { ok: false, ms: Math.round(performance.now() - t0), detail: err instanceof Error ? err.message : String(err) };
  }
}

/** Migration files (NNN-name.sql) of `dir`, as migrate.ts reads them. */
function migrationFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.sql$/.test(f))
    .sort();
}

/**
 * Seconds the replica is behind: 0 when it has replayed all it received, else the time since the
 * last transaction it replayed (pg_last_xact_replay_timestamp).
 */
async function replicaLagSeconds(replica: Db): Promise<number> {
  const { rows } = await replica.query<{ lag: number | null }>(
    `SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0
                 WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                 ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS lag`,
  );
  return Math.max(0, rows[0]?.lag ?? 0);
}

/**
 * GET /healthz (the process answers) and GET /readyz (it may take traffic: the database answers,
 * every migration file is applied, the replica's lag is under its bound when one is configured,
 * the job runner ticks; 503 from the moment shutdown begins). No authentication and no merchant's
 * data: names of checks, timings, counts.
 */
export function registerHealth(app: FastifyInstance, o: HealthOptions): void {
  const timeoutMs = o.timeoutMs ?? 2000;
  const dir = o.migrationsDir ?? MIGRATIONS_DIR;
  const noStore = { 'cache-control': 'no-store' };

  app.get('/healthz', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    return reply.headers(noStore).send({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });

  app.get('/readyz', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    // Draining: answered at once, without waiting behind the requests in flight for the database.
    if (isShuttingDown())
      return reply
        .status(503)
        .headers(noStore)
        .send({ status: 'not ready', checks: { shutdown: { ok: false, detail: 'shutting down' } } });
    const checks: Record<string, Check> = {};
    checks.shutdown = { ok: true };
    checks.database = await timed(async () => {
      await o.db.query('SELECT 1');
      return { ok: true };
    }, timeoutMs);
    checks.migrations = checks.database.ok
      ? await timed(async () => {
          const files = migrationFiles(dir);
          const { rows } = await o.db.query<{ name: string }>('SELECT name FROM schema_migrations');
          const done = new Set(rows.map((r) => r.name));
          const pending = files.filter((f) => !done.has(f));
          return { ok: pending.length === 0, applied: files.length - pending.length, files: files.length, ...(pending.length ? { detail: `not applied: ${pending.join(', ')}` } : {}) };
        }, timeoutMs)
      : { ok: false, detail: 'database unreachable' };
    if (o.db.replica) {
      const replica = o.db.replica;
      checks.replica = await timed(async () => {
        const lag = await replicaLagSeconds(replica);
        return { ok: lag <= o.maxReplicaLagSeconds, lagSeconds: Math.round(lag * 10) / 10, maxLagSeconds: o.maxReplicaLagSeconds };
      }, timeoutMs);
    }
    if (o.jobRunner) checks.jobRunner = { ...runnerCheck() };
    const ok = Object.values(checks).every((c) => c.ok);
    return reply
      .status(ok ? 200 : 503)
      .headers(noStore)
      .send({ status: ok ? 'ready' : 'not ready', checks });
  });
}
