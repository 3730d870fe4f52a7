/**
 * The e2e runner (`npm run test:e2e`, after the web build): starts the real server as
 * `npm run serve` runs it (`node apps/api/dist/server.mjs`, built first when missing or older than
 * its sources) on a free port with a fresh temporary DATA_DIR, SEED_DAYS=7 and
 * 5-second access tokens (ACCESS_TOKEN_SECONDS, so the silent refresh is exercised for real);
 * with E2E_DATABASE_URL set it creates a fresh database `e2e_<random>` on that server, points
 * DATABASE_URL at it and drops it afterwards. Then Playwright runs apps/web/e2e/*.spec.ts with
 * one worker. Extra arguments go to Playwright (e.g. a spec file or `-g pattern`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_BUNDLE, API_NODE_FLAGS, apiBundleIsFresh, buildApi } from '../../api/build-api';
import { freePort, scratchDatabase } from '../../api/test/loopback';

const root = path.resolve(import.meta.dirname, '../../..');
const artifacts = path.join(root, 'e2e-artifacts');
const READY_TIMEOUT_MS = 300_000;

async function waitReady(base: string, server: ChildProcess, logFile: string): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode}); log:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    try {
      const res = await fetch(`${base}/api/dev/mailbox`);
      const index = await fetch(`${base}/login`);
      if (res.ok && index.ok && (await index.text()).includes('id="root"')) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server not ready after ${READY_TIMEOUT_MS / 1000} s; log:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || !server.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      try {
        process.kill(-server.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    try {
      process.kill(-server.pid!, 'SIGTERM'); // the server's own process group
    } catch {
      resolve();
    }
  });
}

/** Run folders older than a day go. */
function pruneOldRuns() {
  const runs = path.join(artifacts, 'runs');
  if (!fs.existsSync(runs)) return;
  for (const name of fs.readdirSync(runs)) {
    const dir = path.join(runs, name);
    if (Date.now() - fs.statSync(dir).mtimeMs > 24 * 3600 * 1000) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  fs.mkdirSync(artifacts, { recursive: true });
  pruneOldRuns();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  // The fake WeChat provider: its port is chosen here so the server can be told (WECHAT_*); the
  // account spec starts it there (apps/api/test/fake-wechat.ts) and stops it.
  const wechatPort = await freePort();
  const wechatUrl = `http://127.0.0.1:${wechatPort}`;
  // Issue 51: the loopback DNS server the SSO spec starts (UDP, this port) answers the verified domains' TXT look-ups.
  const ssoDnsPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = process.env.E2E_DATABASE_URL ? await scratchDatabase('e2e', process.env.E2E_DATABASE_URL) : null;
  // Each run has its own folder (server log, Playwright's failure screenshots): runs may overlap.
  const runDir = path.join(artifacts, 'runs', `${new Date().toISOString().replace(/[:.]/g, '-')}-${port}`);
  fs.mkdirSync(runDir, { recursive: true });
  const logFile = path.join(runDir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    // Passkeys need a domain as relying party ID (an IP address is none): passkeys.spec.ts opens the
    // same server as http://localhost:PORT (decision 047).
    PASSKEY_ORIGIN: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    SEED_DAYS: '7',
    ACCESS_TOKEN_SECONDS: '5',
    LOG_LEVEL: 'warn',
    SMTP_URL: '',
    WECHAT_APP_ID: 'wx-fake-app',
    WECHAT_APP_SECRET: 'fake-secret',
    WECHAT_AUTH_URL: `${wechatUrl}/connect/qrconnect`,
    WECHAT_TOKEN_URL: `${wechatUrl}/sns/oauth2/access_token`,
    WECHAT_USERINFO_URL: `${wechatUrl}/sns/userinfo`,
    // Issue 51.
    SSO_DNS_SERVERS: `127.0.0.1:${ssoDnsPort}`,
  };
  delete env.DATABASE_URL;
  if (db) env.DATABASE_URL = db.url;
  console.log(`e2e: server on ${base}, DATA_DIR ${dataDir}, database ${db ? new URL(db.url).pathname.slice(1) + ' (PostgreSQL)' : 'PGlite'}`);
  const started = Date.now();
  if (!apiBundleIsFresh()) console.log(`e2e: API bundle built (${(await buildApi()).ms} ms)`);
  const server = spawn(process.execPath, [...API_NODE_FLAGS, '--enable-source-maps', API_BUNDLE], {
    cwd: root,
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  // Stopped from outside (Ctrl-C, `kill`): the server is in a process group of its own and the
  // database and DATA_DIR are ours, so stop and remove them before going (a plain exit left an
  // idle server and an e2e_… database behind).
  let pw: ChildProcess | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await stop(server);
      fs.closeSync(log);
      if (db) await db.drop().catch((e) => console.error('e2e: could not drop the database:', e));
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.error(`e2e: ${signal}: stopping the server and removing its database`);
    pw?.kill(signal);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal); // not once: a second signal (tsx relays the first) must not kill the cleanup
  process.on('SIGTERM', onSignal);
  try {
    await waitReady(base, server, logFile);
    console.log(`e2e: artifacts in ${path.relative(root, runDir)}`);
    console.log(`e2e: server ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    pw = spawn(process.execPath, [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'apps/web/playwright.config.ts', ...process.argv.slice(2)], {
      cwd: root,
      env: {
        ...process.env,
        E2E_BASE_URL: base,
        E2E_RUN_DIR: runDir,
        E2E_WECHAT_PORT: String(wechatPort),
        E2E_SSO_DNS_PORT: String(ssoDnsPort),
        ...(db ? { E2E_SERVER_DATABASE_URL: db.url } : {}),
        E2E_SERVER_DATA_DIR: dataDir,
      },
      stdio: 'inherit',
    });
    const code = await new Promise<number>((resolve) => pw!.once('exit', (c) => resolve(c ?? 1)));
    // The server's Prometheus figures after the whole suite (issue 27): kept with the run's
    // artifacts, a few totals printed (loopback callers may read /metrics without a token).
    try {
      const text = await (await fetch(`${base}/metrics`)).text();
      fs.writeFileSync(path.join(runDir, 'metrics.txt'), text);
      const pick = /^portal_(sign_ins_total|refunds_total|mails_total|job_runs_total|exports_total|settlement_runs_total)\b.*$/gm;
      const byStatus = new Map<string, number>();
      for (const m of text.matchAll(/^portal_http_request_duration_seconds_count\{[^}]*status="(\d)\d\d"[^}]*\} (\d+)/gm)) byStatus.set(`${m[1]}xx`, (byStatus.get(`${m[1]}xx`) ?? 0) + Number(m[2]));
      const lines = [
        `HTTP requests by status: ${[...byStatus]
          .sort()
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
        ...(text.match(pick) ?? []),
      ];
      console.log(
        `e2e: /metrics after the suite (${path.relative(root, path.join(runDir, 'metrics.txt'))}):\n${lines
          .slice(0, 40)
          .map((l) => `  ${l}`)
          .join('\n')}`,
      );
    } catch (e) {
      console.log(`e2e: /metrics not read: ${(e as Error).message}`);
    }
    return code;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
