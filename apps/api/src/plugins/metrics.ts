import cluster from 'node:cluster';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import client, { AggregatorRegistry, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/types';
import { setQueryObserver } from '../db/observe';
import { trustedPeer } from './request-log';
import { registerOperationsGauges } from './metrics.operations';

/**
 * Prometheus metrics of the API (issue 27, docs/operations.md). The named metrics below live in one
 * process-wide registry; modules import `metrics` and count (`metrics.mails.inc({ result: 'sent' })`).
 * Another module's own figures: `counter(name, help, labels)` / `histogram(…)` register once
 * (idempotent) in the same registry, so they are served by /metrics and aggregated under WORKERS=N.
 *
 * Figures read from the database at scrape time (job queue depth, oldest job's age) and the pool's
 * state are per app (`registerMetrics`), in a registry of their own merged in on each scrape.
 */
export const registry = new Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'portal_' });
// Issue 52: each process's memory by pid. The defaults above (portal_process_resident_memory_bytes,
// portal_nodejs_heap_size_used_bytes) are summed over the processes under WORKERS=N; the pid label
// keeps one series per process through the cluster's aggregation.
new Gauge({
  name: 'portal_process_memory_bytes',
  help: 'Memory of each API process (process.memoryUsage): rss, heap_total, heap_used, external, array_buffers',
  labelNames: ['kind', 'pid'],
  registers: [registry],
  collect() {
    const m = process.memoryUsage();
    const pid = String(process.pid);
    for (const [kind, v] of [
      ['rss', m.rss],
      ['heap_total', m.heapTotal],
      ['heap_used', m.heapUsed],
      ['external', m.external],
      ['array_buffers', m.arrayBuffers],
    ] as const)
      this.set({ kind, pid }, v);
  },
});

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A counter in the shared registry; the same name twice returns the one already registered. */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}
/** A histogram in the shared registry (seconds unless `buckets` say otherwise); idempotent like `counter`. */
function histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = SECONDS): Histogram<L> {
  return (registry.getSingleMetric(name) as Histogram<L> | undefined) ?? new Histogram({ name, help, labelNames, buckets, registers: [registry] });
}
/** A gauge in the shared registry; idempotent like `counter`. */
function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames, registers: [registry] });
}

/** The portal's named metrics. */
export const metrics = {
  http: histogram('portal_http_request_duration_seconds', 'HTTP requests by route template, method and status', ['route', 'method', 'status']),
  dbQuery: histogram('portal_db_query_duration_seconds', 'Database statements by engine and outcome', ['engine', 'outcome']),
  dbInFlight: gauge('portal_db_queries_in_flight', 'Statements sent and not yet answered (PGlite: waiting for its one connection)', ['engine']),
  jobRuns: counter('portal_job_runs_total', 'Durable jobs run, by kind and result (ok, retry, failed, handed_back)', ['kind', 'result']),
  jobDuration: histogram('portal_job_duration_seconds', 'Time of one job run, by kind', ['kind'], [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900]),
  exports: counter('portal_exports_total', 'Export files written, by result (ready, failed)', ['result']),
  exportRows: counter('portal_export_rows_total', 'Rows written to export files'),
  exportBytes: counter('portal_export_bytes_total', 'Bytes of export files written'),
  exportDuration: histogram('portal_export_duration_seconds', 'Time to write one export file', [], [0.1, 0.5, 1, 5, 15, 60, 300, 900]),
  settlementRuns: counter('portal_settlement_runs_total', 'Settlement runs, by result (ok, failed)', ['result']),
  signIns: counter('portal_sign_ins_total', 'Sign-in attempts by result (success, failure, lockout)', ['result']),
  refunds: counter('portal_refunds_total', 'Refund requests by result (success, failure)', ['result']),
  mails: counter('portal_mails_total', 'Mails by result (sent, failed)', ['result']),
  ingestedRows: counter('portal_ingested_rows_total', 'Transactions ingested, by source (gateway feed, file import, manual…) and result (ok, rejected)', ['source', 'result']),
};

// Every statement of every Db of this process (db/db.ts reports them through db/observe.ts).
setQueryObserver({
  start: (engine) => metrics.dbInFlight.inc({ engine }),
  end: (engine, seconds, ok) => {
    metrics.dbInFlight.dec({ engine });
    metrics.dbQuery.observe({ engine, outcome: ok ? 'ok' : 'error' }, seconds);
  },
});

interface QueueRow {
  kind: string;
  due: number;
  running: number;
  age: number | null;
}

/**
 * A module's own figures read at scrape time (e.g. payments' transactions waiting for an exchange
 * rate): the module registers its source here, and every app's registry gets it when the app is
 * ready (issue 45: infrastructure never imports a module).
 */
export type MetricSource = (reg: Registry, db: Db) => void;
const sources = new Set<MetricSource>();
export function addMetricSource(source: MetricSource): void {
  sources.add(source);
}

/** The per-app figures read at scrape time: the job queue and the pool. */
function appRegistry(db: Db): Registry {
  const reg = new Registry();
  // One read of the queue per scrape, shared by the gauges below (prom-client collects them at once:
  // the read in flight is shared, the next scrape reads again).
  let pending: Promise<{ rows: QueueRow[]; exportsQueued: number } | null> | null = null;
  const read = () =>
    (pending ??= (async () => {
      const { rows } = await db.query<QueueRow>(
        `SELECT kind,
                count(*) FILTER (WHERE status = 'queued' AND run_at <= now())::int AS due,
                count(*) FILTER (WHERE status = 'running')::int AS running,
                extract(epoch FROM now() - min(run_at) FILTER (WHERE status = 'queued' AND run_at <= now()))::float8 AS age
           FROM job WHERE status IN ('queued', 'running') GROUP BY kind`,
      );
      const q = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM export_file WHERE status = 'queued'`);
      return { rows, exportsQueued: q.rows[0].n };
    })()
      .catch(() => null)
      .finally(() => (pending = null)));
  const perKind = (name: string, help: string, pick: (r: QueueRow) => number) =>
    // DB-wide figures: every process reads the same rows, so the cluster aggregate takes the max.
    new Gauge({
      name,
      help,
      labelNames: ['kind'],
      registers: [reg],
      aggregator: 'max',
      async collect() {
        this.reset();
        for (const r of (await read())?.rows ?? []) this.set({ kind: r.kind }, pick(r));
      },
    });
  perKind('portal_job_queue_depth', 'Jobs due and waiting to run, by kind', (r) => r.due);
  perKind('portal_job_oldest_age_seconds', 'Age of the oldest due job not yet run (seconds past its run_at), by kind', (r) => Math.max(0, r.age ?? 0));
  perKind('portal_jobs_running', 'Jobs claimed and running, by kind', (r) => r.running);
  new Gauge({
    name: 'portal_export_queue_depth',
    help: 'Export files queued and not yet written',
    registers: [reg],
    aggregator: 'max',
    async collect() {
      const s = await read();
      if (s) this.set(s.exportsQueued);
    },
  });
  new Gauge({
    name: 'portal_job_queue_collect_ok',
    help: '1 when the queue figures were read from the database at this scrape',
    registers: [reg],
    aggregator: 'min',
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  const pool = db.poolStats;
  if (pool) {
    new Gauge({
      name: 'portal_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle)',
      labelNames: ['state'],
      registers: [reg],
      collect() {
        const s = pool();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'portal_db_pool_waiting',
      help: 'Requests waiting for a PostgreSQL pool connection',
      registers: [reg],
      collect() {
        this.set(pool().waiting);
      },
    });
  }
  // Issue 46: webhooks, reconciliation differences, outbound gateway operations (metrics.operations.ts).
  registerOperationsGauges(db, reg);
  return reg;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  const a = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Compares a presented bearer token with the configured one in constant time. */
function tokenMatches(presented: string | undefined, expected: string | undefined): boolean {
  if (!expected || !presented) return false;
  const m = /^Bearer (.+)$/.exec(presented);
  if (!m) return false;
  // Hashing first gives equal lengths (timingSafeEqual needs them) without leaking the length.
  const a = createHash('sha256').update(m[1]).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Who may scrape: a caller on this machine (the socket's peer is loopback — `req.socket`, never a
 * forwarded header: a proxy on this machine forwarding outside callers is not the caller; with
 * TRUST_PROXY set, the proxy-resolved `req.ip` must be loopback too), or one presenting
 * `Authorization: Bearer $METRICS_TOKEN`.
 */
function mayScrape(req: FastifyRequest, token: string | undefined, peerTrusted: (addr: string | undefined) => boolean = () => false): boolean {
  if (tokenMatches(req.headers.authorization, token)) return true;
  if (!isLoopback(req.socket.remoteAddress) || !isLoopback(req.ip)) return false;
  // A loopback peer that forwards for someone (a proxy on this machine) without being a trusted
  // proxy: the real caller is unknown — refused.
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  return !forwarded || peerTrusted(req.socket.remoteAddress);
}

const CLUSTER_REQ = 'portal:metrics:req';
const CLUSTER_RES = 'portal:metrics:res';

/**
 * WORKERS=N, in the primary process: answers a worker's request for the figures of all processes
 * (prom-client's AggregatorRegistry asks every worker for its registries and adds them up).
 */
export function serveClusterMetrics(): void {
  const agg = new AggregatorRegistry();
  cluster.on('message', (worker, msg: { type?: string; id?: string }) => {
    if (msg?.type !== CLUSTER_REQ) return;
    agg.clusterMetrics().then(
      (text) => worker.send({ type: CLUSTER_RES, id: msg.id, text }),
      (err: Error) => worker.send({ type: CLUSTER_RES, id: msg.id, error: err.message }),
    );
  });
}

function clusterScrape(timeoutMs = 5000): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMsg = (msg: { type?: string; id?: string; text?: string; error?: string }) => {
      if (msg?.type !== CLUSTER_RES || msg.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMsg);
      if (msg.error) reject(new Error(msg.error));
      else resolve(msg.text ?? '');
    };
    const timer = setTimeout(() => {
      process.off('message', onMsg);
      reject(new Error('cluster metrics timed out'));
    }, timeoutMs);
    process.on('message', onMsg);
    process.send!({ type: CLUSTER_REQ, id });
  });
}

/**
 * The HTTP histogram (every request, by route template — never the raw URL) and GET /metrics.
 * Under node:cluster a worker's /metrics asks the primary for the aggregate of every worker.
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Db; config: { metricsToken?: string; trustProxy?: false | number | string[] } }): void {
  const perApp = appRegistry(deps.db);
  // The modules' sources (registered while the app's modules were added, after this plugin).
  app.addHook('onReady', async () => {
    for (const source of sources) source(perApp, deps.db);
  });
  const peerTrusted = trustedPeer(deps.config.trustProxy ?? false);
  const inCluster = cluster.isWorker;
  if (inCluster) {
    // Registers prom-client's worker-side listener and what it reports to the primary.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry, perApp]);
  }
  const STARTED = Symbol('started');
  type Timed = FastifyRequest & { [STARTED]?: number };
  app.addHook('onRequest', async (req) => {
    (req as Timed)[STARTED] = performance.now();
  });
  app.addHook('onResponse', async (req, reply) => {
    const t0 = (req as Timed)[STARTED];
    if (t0 === undefined) return;
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.http.observe({ route, method: req.method, status: String(reply.statusCode) }, (performance.now() - t0) / 1000);
  });

  app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
    if (!mayScrape(req, deps.config.metricsToken, peerTrusted)) {
      return reply.status(403).header('content-type', 'text/plain; charset=utf-8').send('forbidden: loopback callers or Authorization: Bearer $METRICS_TOKEN\n');
    }
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    if (inCluster) return clusterScrape();
    return Registry.merge([registry, perApp]).metrics();
  });
}
