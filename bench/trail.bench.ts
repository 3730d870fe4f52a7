/**
 * Payout proof benchmark (issue 49 §1): the proof of the largest demo merchant's busiest transfer
 * (the transfer with the most transactions behind it) — its first page, GET
 * /api/trail/transfer/{id}/proof over HTTP — beside the raw SQL of its lines (every source's
 * linesSql straight to the database). Target: API p95 ≤ 2 × raw p95. PostgreSQL by default.
 *
 * Goals (issue 49): ≥ 100,000 transactions behind that transfer, API p95 ≤ 2 × raw p95.
 *
 * Data: the payment core's generator, as the report bench (generateDemoData, ingestion, the daily
 * settlement run), kept between runs (PostgreSQL schema bench_trail_<m>_<k>_<d>_<period>; PGlite:
 * bench-results/). So that one transfer carries ≥ 100k rows, the demo merchants' fee schedules
 * (DEMO_FEES) are written before the generator runs with every business line transferred on
 * BENCH_TRAIL_PERIOD (default M1: monthly, no threshold): the busiest line's monthly transfer then
 * carries a month of its transactions (the largest demo merchant's card line: ~0.43 × perDay a day,
 * so ~117k at 9,000 a day). 62 days cover a whole month before the last transfer whatever today is.
 *   BENCH_DB=pglite|postgres        default postgres (BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *   BENCH_TRAIL_MERCHANTS=0         merchants besides the four demo ones
 *   BENCH_TRAIL_PER_DAY=9000        transactions per merchant and day
 *   BENCH_TRAIL_DAYS=62             days generated, ending today
 *   BENCH_TRAIL_PERIOD=M1           the demo merchants' transfer period (D, W1..W7, M1..M28; 'demo': DEMO_FEES as they are)
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { generateDemoData } from '../apps/api/src/seed/demo-data';
import { DEMO_FEES } from '../apps/api/src/modules/payments/demo/catalog';
import { PROOF_SOURCES } from '../apps/api/src/modules/trail';
import { RemoteClient } from './http';
import { check, finishCalls, sized, SMOKE } from './check';
import { compare } from './measure';
import { serveInChild, serveInProcess, signedInToken } from './api-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench-results');
const kind = (process.env.BENCH_DB ?? 'postgres') as 'pglite' | 'postgres';
const merchants = Number(process.env.BENCH_TRAIL_MERCHANTS ?? 0);
const perDay = Number(process.env.BENCH_TRAIL_PER_DAY ?? 9000);
const days = Number(process.env.BENCH_TRAIL_DAYS ?? 62);
const period = process.env.BENCH_TRAIL_PERIOD ?? 'M1';
if (!/^(demo|D|W[1-7]|M([1-9]|1\d|2[0-8]))$/.test(period)) throw new Error(`BENCH_TRAIL_PERIOD=${period}: D, W1..W7, M1..M28 or demo`);
const ROWS_GOAL = 100_000;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const TZ = 'Asia/Shanghai';
const log = (s: string) => console.log(s);
const schemaName = `bench_trail_${merchants}_${perDay}_${days}_${period.toLowerCase()}`;

async function openBenchDb(): Promise<Db> {
  if (kind === 'pglite') return openPglite(path.join(RESULTS, schemaName));
  const admin = await openPostgres(pgUrl, { max: 1 });
  await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${schemaName}`);
  await admin.close();
  return openPostgres(pgUrl, { searchPath: schemaName, max: 12 });
}

async function ensureData(db: Db) {
  await migrate(db);
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM txn');
  if (rows[0].n === 0) {
    const { rows: m } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
    if (m[0].n === 0) await seedFoundation(db, { env: 'development' });
    // The demo merchants' schedules, each line on the bench's transfer period (the generator keeps fee rows that exist).
    if (period !== 'demo')
      for (const [merId, fees] of Object.entries(DEMO_FEES))
        for (const x of fees)
          await db.query(
            `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9) ON CONFLICT (mer_id, bus_line) DO UPDATE SET transfer_period = EXCLUDED.transfer_period, tran_threshold = 0`,
            [merId, x.busLine, x.mdrBp, x.fixedFee, x.cycleDays, x.reserveBp, x.holdDays, x.tranFee, period],
          );
    log(`  generating ${days} days × ${merchants + 4} merchants × ~${perDay}/day …`);
    const s = await generateDemoData(db, { merchants, days, perDay, seed: 'bench-trail', platformTz: TZ });
    log(`  generated ${s.txns.toLocaleString('en')} transactions`);
  }
  for (const t of ['settlement', 'reserve', 'txn']) await db.query(`ANALYZE ${t}`);
}

export default async function run() {
  fs.mkdirSync(RESULTS, { recursive: true });
  log(`trail bench: ${kind}, ${merchants} + 4 merchants, ~${perDay} transactions per merchant and day, ${days} days, demo transfers ${period}`);
  const db = await openBenchDb();
  await ensureData(db);
  // The largest demo merchant the demo user sees (most transactions) and its busiest transfer (most transactions behind it).
  const { rows: best } = await db.query<{ mer_id: string; bus_line: string; set_cur: string; d: string; s: string; n: number }>(
    `WITH big AS (SELECT mer_id FROM txn WHERE mer_id = ANY($1) GROUP BY mer_id ORDER BY count(*) DESC LIMIT 1)
     SELECT s.mer_id, s.bus_line, s.set_cur::text AS set_cur, s.txn_set_date::text AS d, s.recon_search_date::text AS s,
            (SELECT count(*)::int FROM txn t WHERE t.mer_id = s.mer_id AND t.bus_line = s.bus_line AND t.settle_currency = s.set_cur
                AND t.settle_date BETWEEN s.recon_search_date AND s.txn_set_date) AS n
       FROM settlement s JOIN big USING (mer_id) WHERE s.trans_amount > 0 ORDER BY n DESC LIMIT 1`,
    [[DEMO.group, DEMO.subA, DEMO.subB]],
  );
  const t = best[0];
  if (!check(!!t, () => 'no transfer in the data')) return { error: 'no transfer' };
  const id = `${t.d}.${t.mer_id}.${t.bus_line}.${t.set_cur}`;
  log(`  busiest transfer ${id}: ${t.n.toLocaleString('en')} transactions behind it (settlement ${t.s} … ${t.d})`);
  const params = [t.mer_id, t.bus_line, t.set_cur, t.s, t.d];
  const api = kind === 'postgres' ? await serveInChild(pgUrl, schemaName) : await serveInProcess(db);
  const token = await signedInToken(db);
  const client = new RemoteClient();
  const apiCall = async () => {
    const r = await client.get(`${api.address}/api/trail/transfer/${id}/proof`, token);
    return { t: r.t, n: 1 };
  };
  const raw = async () => {
    const t0 = performance.now();
    for (const s of PROOF_SOURCES) await db.query(s.linesSql, params);
    return { t: performance.now() - t0, n: 1 };
  };
  for (let i = 0; i < 3; i++) await Promise.all([apiCall(), raw()]);
  const m = await compare(apiCall, raw, { conc: 1, rounds: sized(60, 2), perRound: 1 });
  log(`  proof first page vs raw SQL of its lines (ms): ${JSON.stringify(m.row)}`);
  const ratio = m.row.ratioP95;
  log(`  goal: rows behind ≥ ${ROWS_GOAL.toLocaleString('en')}: ${t.n.toLocaleString('en')} — ${t.n >= ROWS_GOAL ? 'met' : SMOKE ? 'not reached (smoke size)' : 'MISSED'}`);
  log(`  goal: API p95 ≤ 2 × raw p95: ${ratio.toFixed(2)} × — ${ratio <= 2 ? 'met' : 'MISSED'}`);
  await client.close();
  await api.close();
  await db.close();
  const result = { kind, merchants: merchants + 4, perDay, days, period, rowsGoal: ROWS_GOAL, ratioP95: ratio, transfer: id, rowsBehind: t.n, at: new Date().toISOString(), proof: m.row };
  fs.writeFileSync(path.join(RESULTS, `trail-${kind}-${merchants}-${perDay}-${days}-${period}.json`), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run()
    .then(() => finishCalls('trail'))
    .then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
}
