/**
 * Reports benchmark (issue 5): each report's list call for the group merchant (three merchant ids)
 * over 90 settlement days — p50/p95 over HTTP beside the same question asked in hand-written SQL
 * straight to the database (target: API p95 ≤ 2 × raw p95), at 1 and 8 concurrent clients.
 *
 * Data comes from the payment core's generator (generateDemoData: merchants, fee schedules, FX,
 * transactions through ingestion, the daily settlement run) — the reports read its output.
 *   BENCH_DB=pglite|postgres        default postgres (BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *   BENCH_REPORT_MERCHANTS=300      merchants besides the four demo ones
 *   BENCH_REPORT_PER_DAY=40         transactions per merchant and day
 *   BENCH_REPORT_DAYS=95            days generated, ending today
 * Data is kept between runs (PostgreSQL: schema bench_report_<m>_<k>_<d>; PGlite: bench-results/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { generateDemoData } from '../apps/api/src/seed/demo-data';
import { addDays, platformDate } from '../apps/api/src/modules/payments/time';
import { RAW } from './report-raw';
import { RemoteClient } from './http';
import { finishCalls, sized } from './check';
import { compare, pct } from './measure';
import { serveInChild, serveInProcess, signedInToken } from './api-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench-results');
const kind = (process.env.BENCH_DB ?? 'postgres') as 'pglite' | 'postgres';
const merchants = Number(process.env.BENCH_REPORT_MERCHANTS ?? 300);
const perDay = Number(process.env.BENCH_REPORT_PER_DAY ?? 40);
const days = Number(process.env.BENCH_REPORT_DAYS ?? 95);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const TZ = 'Asia/Shanghai';
const log = (s: string) => console.log(s);
const r1 = (x: number) => Math.round(x * 10) / 10;

const schemaName = `bench_report_${merchants}_${perDay}_${days}`;

async function openBenchDb(): Promise<Db> {
  const name = schemaName;
  if (kind === 'pglite') return openPglite(path.join(RESULTS, name));
  const admin = await openPostgres(pgUrl, { max: 1 });
  await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${name}`);
  await admin.close();
  return openPostgres(pgUrl, { searchPath: name, max: 12 });
}

/** Generates the data set once (kept between runs); returns what it holds. */
async function ensureData(db: Db) {
  await migrate(db);
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM txn');
  if (rows[0].n === 0) {
    const { rows: m } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
    if (m[0].n === 0) await seedFoundation(db, { env: 'development' });
    log(`  generating ${days} days × ${merchants + 4} merchants × ~${perDay}/day through ingestion and the settlement run …`);
    const t0 = performance.now();
    let last = 0;
    const s = await generateDemoData(db, {
      merchants,
      days,
      perDay,
      seed: 'bench-report',
      platformTz: TZ,
      onProgress: (p) => {
        if (p.done - last >= 10 || p.done === p.total) {
          last = p.done;
          log(`    ${p.date}: day ${p.done}/${p.total}, ${p.txns.toLocaleString('en')} transactions`);
        }
      },
    });
    log(`  generated ${s.txns.toLocaleString('en')} transactions in ${Math.round((performance.now() - t0) / 1000)} s`);
  }
  // What autovacuum does on a live database: the visibility map lets counts read the indexes only.
  for (const t of ['settlement', 'settlement_summary', 'reserve']) await db.query(`VACUUM ANALYZE ${t}`);
  const count = async (t: string) => (await db.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM ${t}`)).rows[0].n;
  return {
    txn: await count('txn'),
    merchant: await count('merchant'),
    settlement: await count('settlement'),
    settlement_summary: await count('settlement_summary'),
    reserve: await count('reserve'),
  };
}

export default async function run() {
  fs.mkdirSync(RESULTS, { recursive: true });
  log(`report bench: ${kind}, ${merchants} + 4 merchants, ~${perDay} transactions per merchant and day, ${days} days`);
  const db = await openBenchDb();
  const tables = await ensureData(db);
  log(`  tables: ${JSON.stringify(tables)}`);
  const api = kind === 'postgres' ? await serveInChild(pgUrl, schemaName) : await serveInProcess(db);
  const base = api.address;
  const token = await signedInToken(db);
  const today = platformDate(new Date(), TZ);
  const range = { begin: addDays(today, -90), end: addDays(today, -1) };
  const scope = [DEMO.group, DEMO.subA, DEMO.subB];
  const out: Record<string, unknown>[] = [];
  // The floor every authenticated call pays (HTTP, token and session look-up, merchant scope, envelope).
  // The clients run in a thread of their own: the server's thread (and PGlite's) does no client work.
  const client = new RemoteClient();
  const floor: number[] = [];
  for (let i = 0; i < sized(103, 5); i++) {
    const { t } = await client.get(`${base}/api/user/info`, token);
    if (i >= 3) floor.push(t);
  }
  const floorRow = { call: 'floor: GET /api/user/info', p50: r1(pct(floor, 50)), p95: r1(pct(floor, 95)) };
  log(`  ${JSON.stringify(floorRow)}`);
  log(`list calls, group merchant (${scope.length} ids), settlement dates ${range.begin} … ${range.end} (ms):`);
  for (const c of RAW) {
    const qs = new URLSearchParams({ ...c.params(range), page: '0', size: String(c.size) }).toString();
    const api = async () => {
      const r = await client.get(`${base}/api/${c.path}?${qs}`, token);
      return r;
    };
    const raw = async () => {
      const t0 = performance.now();
      const n = await c.run(db, scope, range, c.size);
      return { t: performance.now() - t0, n };
    };
    for (let i = 0; i < 3; i++) await Promise.all([api(), raw()]);
    const row: Record<string, unknown> = { call: c.name };
    for (const conc of [1, 8]) {
      const m = await compare(api, raw, conc === 1 ? { conc, rounds: sized(200, 2), perRound: 1 } : { conc, rounds: sized(12, 1), perRound: 2 });
      if (c.name !== 'cash calendar' && m.api.n !== m.raw.n) throw new Error(`${c.name}: API total ${m.api.n} ≠ raw ${m.raw.n}`);
      row[`c${conc}`] = m.row;
      row.rows = m.api.n;
    }
    log(`  ${c.name}: ${JSON.stringify(row)}`);
    out.push(row);
  }
  await client.close();
  await api.close();
  await db.close();
  const result = { kind, merchants: merchants + 4, perDay, days, tables, range, at: new Date().toISOString(), floor: floorRow, list: out };
  fs.writeFileSync(path.join(RESULTS, `report-${kind}-${merchants}-${perDay}-${days}.json`), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run()
    .then(() => finishCalls('report'))
    .then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
}
