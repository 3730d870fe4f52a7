import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { dumpPglite, openPglite, openPostgres, withReplica, type Db } from '../src/db/db';
import { migrate } from '../src/db/migrate';
import { TestClock } from '../src/lib/clock';
import { createMailer, readOutbox, type Mailer } from '../src/plugins/mail';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { DEMO, seedFoundation } from '../src/seed/foundation.seed';
import type { Deps } from '../src/plugins/context';

export { DEMO };

/**
 * The databases tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
 * TEST_DB_KINDS=postgres (or pglite) narrows it to one engine (the mutation run uses PostgreSQL only).
 */
export const DB_KINDS: ('pglite' | 'postgres')[] = ((): ('pglite' | 'postgres')[] => {
  const all: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const only = process.env.TEST_DB_KINDS?.split(',').map((k) => k.trim());
  return only ? all.filter((k) => only.includes(k)) : all;
})();

/**
 * Why a PostgreSQL-only test cannot run here (null when it can). Such a test stays defined and
 * calls `skip(NO_POSTGRES)` from its context, so the reporter shows it skipped with this reason
 * instead of the file failing ("No test suite found") or the test silently vanishing.
 */
export const NO_POSTGRES: string | null = process.env.TEST_DATABASE_URL ? null : 'needs a PostgreSQL server: set TEST_DATABASE_URL=postgres://…';

/** The engines on which concurrency is real (PGlite runs one transaction at a time). */
export const isConcurrent = (kind: 'pglite' | 'postgres') => kind === 'postgres';

/**
 * A migrated PGlite's data directory, made once per test process: each fresh PGlite starts from
 * it (0.3 s) instead of an empty cluster plus every migration (1.6 s).
 */
let pgliteTemplate: Promise<Blob> | undefined;
const migratedPglite = () =>
  (pgliteTemplate ??= (async () => {
    const db = await openPglite();
    await migrate(db);
    const blob = await dumpPglite(db);
    await db.close();
    return blob;
  })());

/** A fresh, migrated database: in-memory PGlite, or a new schema on the PostgreSQL server. */
export async function freshDb(kind: 'pglite' | 'postgres' = 'pglite'): Promise<Db & { drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite(undefined, { loadDataDir: await migratedPglite() });
    return Object.assign(db, { drop: () => db.close() });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(url, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const primary = await openPostgres(url, { searchPath: schema, max: 20 });
  await migrate(primary);
  // TEST_REPLICA_URL: a streaming replica of TEST_DATABASE_URL behind `db.read` (lists, reports,
  // exports). Fixtures write straight to the primary, so the pair must replay synchronously
  // (remote_apply), as `npx tsx apps/api/test/replica/cluster.ts` starts it.
  const replicaUrl = process.env.TEST_REPLICA_URL;
  const db = replicaUrl ? withReplica(primary, await openPostgres(replicaUrl, { searchPath: schema, max: 20 })) : primary;
  return Object.assign(db, {
    async drop() {
      await db.close();
      const a = await openPostgres(url, { max: 1 });
      await a.exec(`DROP SCHEMA ${schema} CASCADE`);
      await a.close();
    },
  });
}

export interface TestCtx {
  app: FastifyInstance;
  /** Every route the app registered (collected by Fastify's onRoute hook). */
  routes: RouteOptions[];
  db: Db;
  clock: TestClock;
  mailer: Mailer;
  config: Config;
  deps: Deps;
  outbox: string;
  close(): Promise<void>;
  /** inject with JSON parsing of the envelope. */
  call<T = any>(opts: InjectOptions): Promise<{ status: number; body: { code: number; msg: string; data: T }; headers: Record<string, unknown> }>;
  /** Signs in through the real flow (code read from the outbox) and returns the token pair. */
  login(username?: string, password?: string): Promise<{ token: string; refreshToken: string }>;
  lastCode(to?: string): Promise<string>;
}

export async function createTestApp(
  opts: {
    kind?: 'pglite' | 'postgres';
    seed?: boolean;
    smtpUrl?: string;
    config?: Partial<Config>;
    /** A migrated database of the caller's (the replica test's primary + replica); closed by `close`. */
    db?: Db & { drop(): Promise<void> };
  } = {},
): Promise<TestCtx> {
  const db = opts.db ?? (await freshDb(opts.kind ?? 'pglite'));
  if (opts.seed !== false) await seedFoundation(db, { env: 'test' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), smtpUrl: opts.smtpUrl, ...opts.config };
  const outbox = path.join(dataDir, 'outbox');
  const mailer = createMailer({ smtpUrl: opts.smtpUrl, outboxDir: outbox, from: config.mailFrom });
  const clock = new TestClock(new Date());
  const deps: Deps = { config, db, clock, mailer };
  const routes: RouteOptions[] = [];
  const app = await buildApp(deps, { onRoute: (r) => routes.push(r) });
  await app.ready();
  const call: TestCtx['call'] = async (o) => {
    const res = await app.inject(o);
    let body: any = null;
    try {
      body = res.json();
    } catch {
      body = { raw: res.body };
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  const lastCode = async (to?: string) => {
    const items = await readOutbox(outbox);
    const m = items.find((i) => !to || i.to.includes(to));
    const code = m && /\b(\d{6})\b/.exec(m.text)?.[1];
    if (!code) throw new Error('no code in outbox');
    return code;
  };
  const ctx: TestCtx = {
    app,
    routes,
    db,
    clock,
    mailer,
    config,
    deps,
    outbox,
    call,
    lastCode,
    async login(username = DEMO.users.demo, password = DEMO.password) {
      // Past the 60-second resend window of any earlier code.
      clock.advance(61_000);
      const sent = await call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username } });
      if (sent.body.code !== 0) throw new Error(`getEmailCode: ${sent.body.msg}`);
      const verifyCode = await lastCode();
      const res = await call({ method: 'POST', url: '/api/user/login', payload: { username, password, verifyCode } });
      if (res.body.code !== 0) throw new Error(`login: ${res.body.msg}`);
      return res.body.data;
    },
    async close() {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

/** Form-encoded POST body. */
export const form = (o: Record<string, string | number>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString(),
});
