import { fork } from 'node:child_process';
import cluster from 'node:cluster';
import path from 'node:path';
import { loadConfig } from './config';
import { openDb } from './db/db';
import { migrate } from './db/migrate';
import { systemClock } from './lib/clock';
import { createMailer } from './plugins/mail';
import { buildApp } from './app';
import { DEMO } from './seed/foundation.seed';
import { firstStart, startBackground } from './startup';
import { beginShutdown } from './ops/lifecycle';
import { serveClusterMetrics } from './plugins/metrics';
import { sandboxInProductionWarning } from './modules/acquirer';

const started = Date.now();
/** At shutdown, how long the pool may take to close when a job was handed back (server.ts shutdown). */
const HANDED_BACK_CLOSE_MS = 1000;
const config = loadConfig();
const mailerOf = () => createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom });

function banner(seeded: boolean, target: string) {
  const url = `http://localhost:${config.port}/`;
  const sandboxWarning = sandboxInProductionWarning(config);
  const lines = [
    '',
    sandboxWarning ? `  WARNING: ${sandboxWarning}` : '',
    `  Merchant portal is running at ${url} (listening on ${config.host}:${config.port}${config.host === '127.0.0.1' || config.host === '::1' ? ', this machine only' : ''}${config.workers > 1 ? `; ${config.workers} API processes` : ''})`,
    `  Database: ${config.databaseUrl ? `PostgreSQL (DATABASE_URL${config.replicaUrl ? '; lists, reports and exports read DATABASE_REPLICA_URL' : ''})` : `PGlite in ${path.join(config.dataDir, 'pg')}`}${seeded ? ' — demo data seeded' : ''}`,
    config.seedDemo ? `  Demo sign-in: user "${DEMO.users.demo}" (or "${DEMO.users.sub}"), password "${DEMO.password}", code from the e-mail` : '',
    `  Development e-mail goes to: ${target}${config.smtpUrl ? '' : ` — ${url}dev/mailbox`}`,
    `  API description: ${url}api/docs`,
    `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    '',
  ].filter((l) => l !== '');
  console.log(['', ...lines, ''].join('\n'));
}

/** Migrations, then the first start's checks and demo seed (startup.ts firstStart): true when it seeded. */
async function prepare(): Promise<boolean> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers });
  try {
    await migrate(db);
    return await firstStart({ config, db, clock: systemClock, mailer: mailerOf() });
  } finally {
    await db.close();
  }
}

/**
 * `prepare()` in a process of its own when the demo may be seeded (issue 52): generating 90 days of
 * transactions leaves the heap and malloc's arenas some 60–250 MB larger than serving needs, and a
 * process that seeded kept it for its life. The serving process opens the database after this one
 * has closed it (PGlite allows one process at a time). Without the demo (production) there is
 * nothing to seed, and the migrations run in this process.
 */
async function prepareInItsOwnProcess(): Promise<boolean> {
  if (!config.seedDemo) return prepare();
  const child = fork(process.argv[1], process.argv.slice(2), { env: { ...process.env, PORTAL_PREPARE_ONLY: '1' }, stdio: 'inherit' });
  let seeded = false;
  child.on('message', (m: { seeded?: boolean }) => (seeded = m.seeded === true));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the first start's preparation ended with ${code} (migrations or the demo seed, above)`);
  return seeded;
}

if (process.env.PORTAL_PREPARE_ONLY === '1') {
  // The child of prepareInItsOwnProcess: prepares, says whether it seeded, and ends.
  const seeded = await prepare();
  process.send?.({ seeded });
  process.exit(0);
} else if (config.workers > 1 && cluster.isPrimary) {
  // WORKERS=N: this process migrates and seeds once, then starts N API processes sharing the port
  // (node:cluster) and restarts one that dies. It serves nothing itself.
  const mailer = mailerOf();
  const seeded = await prepareInItsOwnProcess();
  let closing = false;
  let ready = 0;
  cluster.on('listening', () => {
    if (++ready === config.workers) banner(seeded, mailer.target);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    console.error(`API process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    cluster.fork();
  });
  // /metrics in any worker serves the figures of all of them (prom-client's AggregatorRegistry).
  serveClusterMetrics();
  for (let i = 0; i < config.workers; i++) cluster.fork();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, async () => {
      if (closing) return;
      closing = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              w.process.kill('SIGTERM');
            }),
        ),
      );
      process.exit(0);
    });
  }
} else {
  // One process: migrations and the first-start seed first (a cluster worker finds them done).
  const seeded = cluster.isPrimary ? await prepareInItsOwnProcess() : false;
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    replicaUrl: config.replicaUrl,
    replicaStickyMs: config.replicaStickyMs,
    genericPlans: config.genericPlans,
    pipelineConnections: config.pipelineConnections,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  const mailer = mailerOf();
  const deps = { config, db, clock: systemClock, mailer };
  const app = await buildApp(deps, { logger: true, jobRunner: true });
  // Issue 46: every process of a production server on the sandbox logs it at every start.
  const sandboxWarning = sandboxInProductionWarning(config);
  if (sandboxWarning) app.log.warn({ acquirer: 'sandbox', sandboxInProduction: true }, sandboxWarning);
  const stopBackground = startBackground(deps, app.log);
  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) banner(seeded, mailer.target);

  // Graceful shutdown (issue 27, docs/operations.md): /readyz turns 503 at once; after
  // SHUTDOWN_DELAY_MS the listener closes and the requests in flight are answered; the job runner
  // and the export worker finish the step in hand — all within SHUTDOWN_GRACE_MS, after which open
  // connections are cut and a job still running is handed back; then the database closes, exit 0.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    beginShutdown();
    const grace = config.shutdownGraceMs;
    app.log.info({ signal, graceMs: grace, delayMs: config.shutdownDelayMs }, 'shutting down');
    // Last resort: whatever hangs, the process ends (non-zero: the drain did not complete).
    setTimeout(() => process.exit(1), config.shutdownDelayMs + grace + 10_000).unref();
    if (config.shutdownDelayMs) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
    const cut = setTimeout(() => app.server.closeAllConnections(), grace);
    cut.unref();
    // A keep-alive connection whose request was answered while draining is idle now: closed at
    // once rather than held until the grace runs out.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50);
    idle.unref();
    try {
      const [, handedBack] = await Promise.all([app.close(), stopBackground(grace)]);
      clearTimeout(cut);
      clearInterval(idle);
      // A handed-back job's abandoned handler may still hold a connection (e.g. a settlement run
      // inside its transaction): closing the pool would wait for it. The job is already queued
      // again, so the pool gets a moment, then the process ends and PostgreSQL rolls that
      // transaction back (shutdown.test.ts proves the restart then runs it once).
      if (handedBack) {
        let t: NodeJS.Timeout | undefined;
        const closed = await Promise.race([db.close().then(() => true), new Promise<boolean>((r) => (t = setTimeout(() => r(false), HANDED_BACK_CLOSE_MS)))]);
        clearTimeout(t);
        if (!closed) app.log.info('database closed with a handed-back job still in flight: its transaction ends with the process');
      } else await db.close();
      app.log.info('shut down');
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(sig));
}
