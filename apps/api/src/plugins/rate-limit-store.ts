import type { FastifyRateLimitOptions, FastifyRateLimitStoreCtor, RateLimitOptions } from '@fastify/rate-limit';
import type { Queryable } from '../db/db';

type Cb = (err: Error | null, res?: { current: number; ttl: number }) => void;
type RouteOptions = RateLimitOptions & { routeInfo?: { method?: string | string[]; url?: string } };

/** One in this many increments also deletes the rows of windows that ended over an hour ago. */
const SWEEP_EVERY = 500;

/**
 * A store for @fastify/rate-limit that keeps its counters in PostgreSQL (table rate_limit,
 * migration 012), so every API process on the database counts against the same limit (WORKERS=N,
 * or several servers behind a proxy). Each hit is one atomic upsert: the window restarts when it
 * has ended, otherwise the count goes up by one — concurrent hits on any process are all counted.
 * Times are the database's (one clock for every process).
 */
export function pgRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  let sinceSweep = 0;
  class PgRateLimitStore {
    constructor(
      readonly options: FastifyRateLimitOptions = {},
      readonly route = '',
    ) {}

    incr(key: string, cb: Cb, timeWindow: number) {
      const k = `${this.route}|${key}`;
      db.query<{ hits: number; ttl: number }>(
        `INSERT INTO rate_limit AS r (key, hits, reset_at) VALUES ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.reset_at <= clock_timestamp() THEN 1 ELSE r.hits + 1 END,
           reset_at = CASE WHEN r.reset_at <= clock_timestamp() THEN excluded.reset_at ELSE r.reset_at END
         RETURNING hits, greatest(0, ceil(extract(epoch FROM (reset_at - clock_timestamp())) * 1000))::int8 AS ttl`,
        [k, timeWindow],
      ).then(
        ({ rows }) => {
          cb(null, { current: Number(rows[0].hits), ttl: Number(rows[0].ttl) });
          if (++sinceSweep >= SWEEP_EVERY) {
            sinceSweep = 0;
            void db.query(`DELETE FROM rate_limit WHERE reset_at < clock_timestamp() - interval '1 hour'`).catch(() => undefined);
          }
        },
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Cb, timeWindow: number) {
      db.query<{ hits: number; ttl: number }>(
        `SELECT hits, greatest(0, ceil(extract(epoch FROM (reset_at - clock_timestamp())) * 1000))::int8 AS ttl
           FROM rate_limit WHERE key = $1 AND reset_at > clock_timestamp()`,
        [`${this.route}|${key}`],
      ).then(
        ({ rows }) => cb(null, rows[0] ? { current: Number(rows[0].hits), ttl: Number(rows[0].ttl) } : { current: 0, ttl: timeWindow }),
        (err: Error) => cb(err),
      );
    }

    /** A route's own counters: the key is prefixed with its method and URL. */
    child(routeOptions: RouteOptions & { path?: string; prefixCallback?: unknown }) {
      const info = routeOptions.routeInfo ?? {};
      const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
      return new PgRateLimitStore({ ...this.options, ...routeOptions }, `${method} ${info.url ?? ''}`);
    }
  }
  return PgRateLimitStore;
}
