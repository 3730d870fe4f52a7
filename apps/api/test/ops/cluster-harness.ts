/**
 * The metrics of WORKERS=N, as server.ts runs them: the primary serves the aggregate
 * (serveClusterMetrics), N workers share one port, each with its own registry. Each worker
 * counts one mail as "sent" and its pid in a gauge; any worker's /metrics must show the sum.
 * Usage: node --import tsx cluster-harness.ts PORT N  (prints "ready" once all listen)
 */
import cluster from 'node:cluster';
import Fastify from 'fastify';
import { openPglite, openPostgres } from '../../src/db/db';
import { metrics, registerMetrics, serveClusterMetrics } from '../../src/plugins/metrics';

const [port, n] = process.argv.slice(2).map(Number);
if (cluster.isPrimary) {
  serveClusterMetrics();
  let up = 0;
  cluster.on('listening', () => {
    if (++up === n) console.log('ready');
  });
  for (let i = 0; i < n; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  });
} else {
  // Not migrated (quicker): the queue gauges then read nothing and report collect_ok 0. A
  // PostgreSQL server when there is one (PGlite's start in each worker is the slow part).
  const db = process.env.TEST_DATABASE_URL ? await openPostgres(process.env.TEST_DATABASE_URL, { searchPath: 'ops_cluster_no_such_schema', max: 1 }) : await openPglite();
  const app = Fastify();
  registerMetrics(app, { db, config: {} });
  metrics.mails.inc({ result: 'sent' });
  await app.listen({ port, host: '127.0.0.1' });
}
