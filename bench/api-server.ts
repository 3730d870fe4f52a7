/**
 * The API under benchmark. On PostgreSQL it runs in a process of its own, as in production: the
 * benchmark's clients (and its raw SQL) then do not share the server's event loop, which at 32
 * concurrent clients would otherwise queue the server's work behind the clients' own. PGlite is
 * embedded in one process, so there the server runs in the benchmark's process.
 *
 * As a script (`tsx bench/api-server.ts`): env SERVER_PG_URL, SERVER_SCHEMA; prints one JSON line
 * {"address": …} once listening, and exits when its stdin closes. SERVER_WORKERS=N runs N API
 * processes sharing the port through node:cluster, as `WORKERS=N` does in production (server.ts).
 * The port: BENCH_PORT when set (check.ts), else a free one.
 */
import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
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
import { benchPort } from './check';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface RunningApi {
  address: string;
  /** The API's process (a child: the tree under it serves), when it runs in one of its own. */
  pid?: number;
  close(): Promise<void>;
}

/** A session of the demo group user, written straight into the database; returns its access token. */
export async function signedInToken(db: Db): Promise<string> {
  const token = newToken();
  const { rows: u } = await db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.demo]);
  const { rows: s } = await db.query<{ id: number }>(`INSERT INTO user_session (user_id, absolute_expires_at) VALUES ($1, now() + interval '12 hours') RETURNING id`, [u[0].id]);
  await db.query(`INSERT INTO access_token (token_hash, session_id, expires_at) VALUES ($1, $2, now() + interval '12 hours')`, [sha256(token), s[0].id]);
  return token;
}

/** The production configuration and dependencies the benches run the API with, over `db`. */
export function benchDeps(db: Db, dirPrefix = 'bench-api-'): Deps {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: 'smtp://127.0.0.1:25' /* required in production; the mailer below writes the outbox */,
    ACQUIRER: 'sandbox' /* the bench measures the portal, not a gateway */,
    ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
  });
  return { config, db, clock: systemClock, mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), from: config.mailFrom }) };
}

/** Builds the production app over `db` and listens on 127.0.0.1, port BENCH_PORT or a free one. */
export async function serveInProcess(db: Db, port = benchPort()): Promise<RunningApi & { deps: Deps }> {
  const deps = benchDeps(db);
  const app = await buildApp(deps);
  const address = await app.listen({ port, host: '127.0.0.1' });
  return {
    address,
    deps,
    async close() {
      await app.close();
      fs.rmSync(deps.config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the API in a child process on the PostgreSQL schema. */
export async function serveInChild(pgUrl: string, schema: string, workers = 1): Promise<RunningApi> {
  // BENCH_API_EXEC_ARGV: Node options for the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const execArgv = (process.env.BENCH_API_EXEC_ARGV ?? '').split(' ').filter(Boolean);
  // (tsx's CLI would run the server in a child of its own, which the options would not reach.)
  const args = execArgv.length ? [...execArgv, '--import', 'tsx', import.meta.filename] : [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), import.meta.filename];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SERVER_PG_URL: pgUrl, SERVER_SCHEMA: schema, SERVER_WORKERS: String(workers), SERVER_PORT: String(benchPort()) },
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
    pid: child.pid,
    async close() {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const workers = Number(process.env.SERVER_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary && process.env.SERVER_PG_URL) {
  // The primary serves nothing: it forks the workers (each listens on the one port the primary
  // picked) and reports the address once all of them listen.
  const probe = await import('node:net').then((net) => net.createServer().listen(Number(process.env.SERVER_PORT ?? 0), '127.0.0.1'));
  await new Promise((r) => probe.once('listening', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  let listening = 0;
  cluster.on('message', (_w, msg: { listening?: boolean }) => {
    if (msg.listening && ++listening === workers) console.log(JSON.stringify({ address: `http://127.0.0.1:${port}` }));
  });
  cluster.setupPrimary({ stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  for (let i = 0; i < workers; i++) cluster.fork({ SERVER_PORT: String(port) });
  process.stdin.resume();
  process.stdin.on('end', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill();
    process.exit(0);
  });
} else if (cluster.isWorker || import.meta.url === `file://${process.argv[1]}`) {
  const db = await openPostgres(process.env.SERVER_PG_URL!, { searchPath: process.env.SERVER_SCHEMA });
  const api = await serveInProcess(db, Number(process.env.SERVER_PORT ?? 0));
  if (cluster.isWorker) process.send!({ listening: true });
  else console.log(JSON.stringify({ address: api.address }));
  // A worker ends when the primary kills it; the single process when its stdin closes.
  if (!cluster.isWorker) process.stdin.resume();
  process.stdin.on('end', async () => {
    await api.close();
    await db.close();
    process.exit(0);
  });
}
