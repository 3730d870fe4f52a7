/**
 * The API under benchmark. On PostgreSQL it runs in a process of its own, as in production: the
 * benchmark's clients (and its raw SQL) then do not share the server's event loop, which at 32
 * concurrent clients would otherwise queue the server's work behind the clients' own. PGlite is
 * embedded in one process, so there the server runs in the benchmark's process.
 *
 * As a script (`tsx bench/api-server.ts`): env SERVER_PG_URL, SERVER_SCHEMA; prints one JSON line
 * {"address": …} once listening, and exits when its stdin closes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { openPostgres, type Db } from '../apps/api/src/db/db';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { systemClock } from '../apps/api/src/lib/clock';
import { createMailer } from '../apps/api/src/plugins/mail';
import type { Deps } from '../apps/api/src/plugins/context';
import { newToken, sha256 } from '../apps/api/src/lib/crypto';
import { DEMO } from '../apps/api/src/seed/foundation.seed';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface RunningApi {
  address: string;
  close(): Promise<void>;
}

/** A session of the demo group user, written straight into the database; returns its access token. */
export async function signedInToken(db: Db): Promise<string> {
  const token = newToken();
  const { rows: u } = await db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.demo]);
  const { rows: s } = await db.query<{ id: number }>(
    `INSERT INTO user_session (user_id, absolute_expires_at) VALUES ($1, now() + interval '12 hours') RETURNING id`,
    [u[0].id],
  );
  await db.query(`INSERT INTO access_token (token_hash, session_id, expires_at) VALUES ($1, $2, now() + interval '12 hours')`, [sha256(token), s[0].id]);
  return token;
}

/** Builds the production app over `db` and listens on a free port of 127.0.0.1. */
export async function serveInProcess(db: Db): Promise<RunningApi & { deps: Deps }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1', SMTP_URL: 'smtp://127.0.0.1:25' /* required in production; the mailer below writes the outbox */, DATA_DIR: dataDir, SEED_DEMO: 'false' });
  const deps: Deps = { config, db, clock: systemClock, mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), from: config.mailFrom }) };
  const app = await buildApp(deps);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    address,
    deps,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the API in a child process on the PostgreSQL schema. */
export async function serveInChild(pgUrl: string, schema: string): Promise<RunningApi> {
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), import.meta.filename], {
    env: { ...process.env, SERVER_PG_URL: pgUrl, SERVER_SCHEMA: schema },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const address = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`API process exited (${code})`)));
    lines.on('line', (l) => {
      if (l.startsWith('{')) resolve((JSON.parse(l) as { address: string }).address);
    });
  });
  return {
    address,
    async close() {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const db = await openPostgres(process.env.SERVER_PG_URL!, { searchPath: process.env.SERVER_SCHEMA });
  const api = await serveInProcess(db);
  console.log(JSON.stringify({ address: api.address }));
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await api.close();
    await db.close();
    process.exit(0);
  });
}
