import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { dumpPglite, openPglite, openPostgres, withReplica, type Db } from '../src/db/db';
import { migrate, MIGRATIONS_DIR } from '../src/db/migrate';
import { TestClock } from '../src/lib/clock';
import { withDatabase } from './loopback';
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
 * A migrated PGlite's data directory: each fresh PGlite starts from it (0.3 s) instead of an empty
 * cluster plus every migration (1.6 s). Vitest evaluates this module afresh for every test file, so
 * the tarball is kept on disk (the temporary folder) for every file and process of the run — and of
 * later runs, while the migrations, the PGlite version and the day (partitions are made around
 * now()) are the same: its name carries them. Written whole, then renamed into place.
 */
let pgliteTemplate: Promise<Blob> | undefined;
const migratedPglite = () =>
  (pgliteTemplate ??= (async () => {
    const pgliteVersion = JSON.parse(fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json'), 'utf8')).version;
    const file = path.join(os.tmpdir(), `portal-pglite-${migrationsHash()}-${pgliteVersion}-${today()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const db = await openPglite();
    await migrate(db);
    const { rows } = await db.query<{ oid: number }>('SELECT oid::int AS oid FROM pg_database WHERE datname = current_database()');
    const blob = await onlyDatabase(await dumpPglite(db), rows[0].oid);
    await db.close();
    for (const old of fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('portal-pglite-') && f.endsWith('.tar'))) fs.rmSync(path.join(os.tmpdir(), old), { force: true });
    const part = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(part, new Uint8Array(await blob.arrayBuffer()));
    fs.renameSync(part, file);
    return blob;
  })());

/**
 * The data directory's tarball without the other databases' folders (template0 and template1, a
 * third of it, never opened by a test): each PGlite untars less. Entries are 512-byte headers
 * (name at 0, ustar prefix at 345, octal size at 124) each followed by their data in 512-byte blocks.
 */
async function onlyDatabase(tar: Blob, oid: number): Promise<Blob> {
  const buf = new Uint8Array(await tar.arrayBuffer());
  const decoder = new TextDecoder();
  const text = (from: number, len: number) => {
    const end = buf.indexOf(0, from);
    return decoder.decode(buf.subarray(from, end === -1 || end > from + len ? from + len : end));
  };
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at + 512 <= buf.length && buf[at] !== 0) {
    const prefix = text(at + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(at, 100);
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const next = at + 512 + Math.ceil(size / 512) * 512;
    const db = /^\/?base\/(\d+)(\/|$)/.exec(name);
    if (!db || Number(db[1]) === oid) parts.push(buf.subarray(at, next));
    at = next;
  }
  parts.push(new Uint8Array(1024)); // the end-of-archive marker
  return new Blob(parts as BlobPart[]);
}

/**
 * PostgreSQL: each test database is a copy of one migrated template database (`CREATE DATABASE …
 * TEMPLATE`, ~0.2 s) instead of a new schema plus every migration (1.3–2.4 s on a loaded 2-core
 * machine, ~600 times a run). The template's name carries a hash of the migrations and the day
 * (a migration makes months' partitions around now()), so a changed migration or a new day makes
 * a new one. It is built once per server under an advisory lock (the test processes, and runs side
 * by side, share it) and renamed into place only when complete.
 */
const TEMPLATE_LOCK = 727_275;
const STALE_MS = 6 * 3600_000;
/** The UTC day, 20261128. */
const today = () => new Date().toISOString().slice(0, 10).replaceAll('-', '');
const migrationsHash = (): string => {
  const h = createHash('sha256');
  for (const f of fs.readdirSync(MIGRATIONS_DIR).sort())
    h.update(f)
      .update('\0')
      .update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)))
      .update('\0');
  return h.digest('hex').slice(0, 16);
};
let pgTemplate: Promise<string> | undefined;
const migratedTemplate = (url: string) =>
  (pgTemplate ??= (async () => {
    const name = `tmpl_${migrationsHash()}_${today()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const all = (await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^(t|tmpl)_'`)).rows.map((r) => r.datname);
      // Test databases left by a killed run (named with their creation time), and older templates.
      for (const d of all) {
        const born = /^t_([0-9a-z]+)_/.exec(d);
        const stale = born ? Date.now() - parseInt(born[1], 36) * 1000 > STALE_MS : d !== name;
        if (stale) await admin.query(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`).catch(() => undefined);
      }
      if (!all.includes(name)) {
        const building = `${name}_build`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const db = await openPostgres(withDatabase(url, building), { max: 1 });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
      await admin.end();
    }
  })().catch((err) => {
    pgTemplate = undefined;
    throw err;
  }));

/** Where a test's PostgreSQL database is (a second pool or a child process connects there). */
const pgUrls = new WeakMap<Db, string>();
export function pgUrlOf(db: Db): string {
  const url = pgUrls.get(db);
  if (!url) throw new Error('pgUrlOf: not a PostgreSQL database made by freshDb');
  return url;
}

/** A fresh, migrated database: in-memory PGlite, or a new database on the PostgreSQL server. */
export async function freshDb(kind: 'pglite' | 'postgres' = 'pglite'): Promise<Db & { drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite(undefined, { loadDataDir: await migratedPglite(), sharedBuffers: '16MB' });
    return Object.assign(db, { drop: () => db.close() });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `t_${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const create = async () => admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(url)}`);
    // The template may have been dropped by a run on other migrations: build it again, once.
    await create().catch(async (err: { code?: string }) => {
      if (err.code !== '3D000') throw err;
      pgTemplate = undefined;
      await create();
    });
  } finally {
    await admin.end();
  }
  const dbUrl = withDatabase(url, name);
  const primary = await openPostgres(dbUrl, { max: 20 });
  // TEST_REPLICA_URL: a streaming replica of TEST_DATABASE_URL behind `db.read` (lists, reports,
  // exports). Fixtures write straight to the primary, so the pair must replay synchronously
  // (remote_apply), as `npx tsx apps/api/test/replica/cluster.ts` starts it.
  const replicaUrl = process.env.TEST_REPLICA_URL;
  const db = replicaUrl ? withReplica(primary, await openPostgres(withDatabase(replicaUrl, name), { max: 20 })) : primary;
  pgUrls.set(db, dbUrl);
  return Object.assign(db, {
    async drop() {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
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
