import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Helpers of everything that starts real processes on this machine — the ops and replica tests
 * (test/ops/spawn.ts, test/replica/cluster.ts), the e2e runner (apps/web/e2e/run.ts) and the
 * benchmarks (bench/backup.bench.ts): a free loopback port, and a scratch database on a
 * PostgreSQL server. Plain node and `pg` only, so any of them can import it.
 */

/** A free port on 127.0.0.1 (the OS picks it; it is free again when this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A new, empty database `<prefix>_<random>` on the server of `adminUrl` (by default
 * TEST_DATABASE_URL); `drop` removes it, ending any session still connected.
 */
export async function scratchDatabase(prefix: string, adminUrl = process.env.TEST_DATABASE_URL!): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return {
    url: withDatabase(adminUrl, name),
    name,
    async drop() {
      const d = new pg.Client({ connectionString: adminUrl });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}
