/**
 * Read replica benchmark (issue 16, target 4): how far a streaming replica falls behind the primary
 * under a write load. Makes its own throw-away primary and hot standby (`pg_basebackup -R`, on
 * loopback ports: apps/api/test/replica/cluster.ts; the machine's server is not touched), then:
 *
 *   1. steady load: BENCH_REPLICA_WRITERS clients ingesting transactions (the production write path,
 *      one transaction + reserve per call) for BENCH_REPLICA_SECONDS;
 *   2. burst: one INSERT of BENCH_REPLICA_BURST_ROWS rows of ~250 bytes (a bulk import's WAL).
 *
 * Sampled every 100 ms on the primary: WAL bytes the replica has not replayed
 * (pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)) and pg_stat_replication.replay_lag. Every
 * 250 ms a probe row is committed on the primary and the replica polled until it shows it: the
 * time a list read on the replica is behind a write (what decision 024's sticky window must cover).
 *   BENCH_REPLICA_WRITERS=4  BENCH_REPLICA_SECONDS=15  BENCH_REPLICA_BURST_ROWS=300000
 * Prints the figures; writes bench-results/replica.json. Needs the PostgreSQL 15 server binaries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { ingestTransaction } from '../apps/api/src/modules/payments/ingest.service';
import { replicaToolsMissing, startReplicaPair } from '../apps/api/test/replica/cluster';
import { pct } from './measure';
import { check } from './check';

const WRITERS = Number(process.env.BENCH_REPLICA_WRITERS ?? 4);
const SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 15);
const BURST_ROWS = Number(process.env.BENCH_REPLICA_BURST_ROWS ?? 300_000);
const RESULTS = path.resolve(import.meta.dirname, '../bench-results');
const log = (s: string) => console.log(s);
const r1 = (x: number) => Math.round(x * 10) / 10;

interface Samples {
  bytes: number[];
  replayMs: number[];
  visibleMs: number[];
}

/** Samples lag until `stop` resolves. */
async function sample(primary: Db, replica: Db, stop: Promise<void>): Promise<Samples> {
  const s: Samples = { bytes: [], replayMs: [], visibleMs: [] };
  let done = false;
  void stop.then(() => (done = true));
  const lagLoop = (async () => {
    while (!done) {
      const { rows } = await primary.query<{ bytes: string | null; ms: number | null }>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS bytes, (extract(epoch FROM replay_lag) * 1000)::float8 AS ms
           FROM pg_stat_replication WHERE application_name = 'portal_replica'`,
      );
      if (!rows.length) throw new Error('the replica is not connected');
      s.bytes.push(Number(rows[0].bytes ?? 0));
      if (rows[0].ms !== null) s.replayMs.push(rows[0].ms);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const probeLoop = (async () => {
    while (!done) {
      const { rows } = await primary.query<{ id: number }>('INSERT INTO bench_probe DEFAULT VALUES RETURNING id');
      const t0 = performance.now();
      for (;;) {
        const seen = await replica.query('SELECT 1 FROM bench_probe WHERE id = $1', [rows[0].id]);
        if (seen.rows.length) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      s.visibleMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.all([lagLoop, probeLoop]);
  return s;
}

function summary(name: string, s: Samples, extra: Record<string, number> = {}) {
  const f = (xs: number[], p: number) => (xs.length ? pct(xs, p) : 0);
  const out = {
    ...extra,
    lagBytes: { p50: f(s.bytes, 50), p95: f(s.bytes, 95), max: Math.max(0, ...s.bytes), samples: s.bytes.length },
    replayLagMs: { p50: r1(f(s.replayMs, 50)), p95: r1(f(s.replayMs, 95)), max: r1(Math.max(0, ...s.replayMs)) },
    visibleAfterMs: { p50: r1(f(s.visibleMs, 50)), p95: r1(f(s.visibleMs, 95)), max: r1(Math.max(0, ...s.visibleMs)), probes: s.visibleMs.length },
  };
  log(
    `  ${name.padEnd(8)} ${Object.entries(extra)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}\n` +
      `           lag bytes   p50 ${out.lagBytes.p50.toLocaleString('en-US')}  p95 ${out.lagBytes.p95.toLocaleString('en-US')}  max ${out.lagBytes.max.toLocaleString('en-US')}  (${out.lagBytes.samples} samples)\n` +
      `           replay_lag  p50 ${out.replayLagMs.p50} ms  p95 ${out.replayLagMs.p95} ms  max ${out.replayLagMs.max} ms\n` +
      `           write → visible on the replica  p50 ${out.visibleAfterMs.p50} ms  p95 ${out.visibleAfterMs.p95} ms  max ${out.visibleAfterMs.max} ms  (${out.visibleAfterMs.probes} probes)`,
  );
  return out;
}

export default async function run() {
  const why = replicaToolsMissing();
  if (why) {
    log(`  skipped: ${why}`);
    return;
  }
  log('  starting a primary and a streaming replica (pg_basebackup -R) on loopback ports …');
  const pair = await startReplicaPair();
  const primary = await openPostgres(pair.primaryUrl, { max: WRITERS + 4 });
  const replica = await openPostgres(pair.replicaUrl, { max: 4 });
  try {
    await migrate(primary);
    await seedFoundation(primary, { env: 'development' });
    await primary.exec('CREATE TABLE bench_probe (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())');
    await pair.waitForReplay();
    const cpu = (await import('node:os')).loadavg()[0];
    log(`  machine load (1 min) at start: ${r1(cpu)}`);

    // 1. Steady ingestion.
    let written = 0;
    const until = performance.now() + SECONDS * 1000;
    const merchants = [DEMO.subA]; // a merchant that takes CNY
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      let i = 0;
      while (performance.now() < until) {
        i++;
        await ingestTransaction(
          primary,
          {
            merId: merchants[i % merchants.length],
            orderNo: `BR-${w}-${i}`,
            tranType: 'PURC',
            amount: 1000 + (i % 9000),
            currency: 'CNY',
            paymentSchema: 'WX',
            paymentBrand: 'wechat_pay',
            gwResponse: '00',
            respMsg: 'Approved',
            txnTime: new Date(),
            cardNumber: '6222021234567890',
            source: 'manual',
          },
          { platformTz: 'Asia/Shanghai' },
        );
        written++;
      }
    });
    const t0 = performance.now();
    const steadyDone = Promise.all(writers).then(() => undefined);
    const steady = await sample(primary, replica, steadyDone);
    const secs = (performance.now() - t0) / 1000;
    log(`\n  replica lag under load (${WRITERS} writers, ${SECONDS} s):`);
    const a = summary('steady', steady, { writers: WRITERS, txnPerSecond: Math.round(written / secs) });
    // The writes (each ingestTransaction throws when it fails) and the probes (each seen on the replica) happened at all.
    check(written > 0 && steady.visibleMs.length > 0, () => `steady: ${written} transactions written, ${steady.visibleMs.length} probes seen on the replica`);

    // 2. Burst: one statement writing BURST_ROWS rows of ~250 bytes (a bulk import's worth of WAL).
    await pair.waitForReplay();
    await primary.exec('CREATE TABLE bench_pad (id int PRIMARY KEY, pad text NOT NULL)');
    let burstMs = 0;
    const burst = primary.query(`INSERT INTO bench_pad SELECT g, repeat(md5(g::text), 7) FROM generate_series(1, ${BURST_ROWS}) g`).then(() => undefined);
    const tb = performance.now();
    const burstSamples = await sample(
      primary,
      replica,
      burst.then(async () => {
        burstMs = performance.now() - tb;
        await pair.waitForReplay();
      }),
    );
    log(`\n  replica lag during one bulk INSERT of ${BURST_ROWS.toLocaleString('en-US')} rows (until the replica has replayed it):`);
    const b = summary('burst', burstSamples, { rowsInserted: BURST_ROWS, insertMs: Math.round(burstMs) });
    const copied = (await replica.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_pad')).rows[0].n;
    check(copied === BURST_ROWS, () => `burst: ${copied} of ${BURST_ROWS} rows on the replica`);

    fs.mkdirSync(RESULTS, { recursive: true });
    const result = { at: new Date().toISOString(), load1: r1(cpu), steady: a, burst: b };
    fs.writeFileSync(path.join(RESULTS, 'replica.json'), JSON.stringify(result, null, 2));
    log(`\n  target 4 (replica): lists/reports/exports read the replica; the figures above are how stale such a read can be.`);
    log(`  decision 024's sticky window (DATABASE_REPLICA_STICKY_MS, 5000 ms) vs the worst write → visible here: ${Math.max(a.visibleAfterMs.max, b.visibleAfterMs.max)} ms`);
  } finally {
    await primary.close();
    await replica.close();
    await pair.stop();
  }
}
