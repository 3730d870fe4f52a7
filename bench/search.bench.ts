/**
 * Global search benchmark (issue 13): GET /api/search?q= p50/p95 over HTTP for every kind of id
 * (merchant order number, channel order number, gateway id, refund id, pay-link order number,
 * invoice id, an id that matches nothing), at 1 and 8 concurrent clients, on PostgreSQL (the API
 * in a process of its own, as in production) or PGlite.
 *
 *   BENCH_DB=postgres|pglite   (default postgres; BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *   BENCH_ROWS=1000000         rows in txn (default 1,000,000); pay-link orders are one in 20 of that
 * Data is kept between runs (PostgreSQL schema bench_search_<rows>; PGlite bench-results/pglite-search-<rows>).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { loadBenchData } from './txn-data';
import { RemoteClient } from './http';
import { finishCalls, sized } from './check';
import { pct } from './measure';
import { serveInChild, serveInProcess, signedInToken, type RunningApi } from './api-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench-results');
const kind = (process.env.BENCH_DB ?? 'postgres') as 'pglite' | 'postgres';
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const log = (s: string) => console.log(s);

async function openDb(): Promise<{ db: Db; schema?: string }> {
  if (kind === 'pglite') return { db: await openPglite(path.join(RESULTS, `pglite-search-${rows}`)) };
  const schema = `bench_search_${rows}`;
  const admin = await openPostgres(pgUrl, { max: 1 });
  await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await admin.close();
  return { db: await openPostgres(pgUrl, { searchPath: schema }), schema };
}

/** Pay-link (and in-store) orders: one per 20 transactions, spread over the same merchants. */
async function loadOrders(db: Db, n: number) {
  await db.query(
    `INSERT INTO pay_by_link_order (mer_id, order_no, token, recon_id, order_currency, total_amount, goods_name, goods_price, expires_at, created_at)
     SELECT m.mer_id, 'PBLB' || g, md5(g::text) || md5((g * 7)::text), 'INV-B' || g, 'USD', 1000 + g % 5000, 'Bench goods', 1000 + g % 5000,
            now() + interval '7 days', now() - (g % 90) * interval '1 day'
       FROM generate_series(1, $1::int) g
       JOIN LATERAL (SELECT mer_id FROM merchant ORDER BY mer_id OFFSET (g % (SELECT count(*) FROM merchant)) LIMIT 1) m ON true`,
    [n],
  );
  await db.query('ANALYZE pay_by_link_order');
}

/** Ids of each kind, drawn across the table (so the probes do not all hit warm pages). */
async function samples(db: Db, scope: string[]): Promise<Record<string, string[]>> {
  const pick = async (sql: string) => (await db.query<{ v: string }>(sql, [scope])).rows.map((r) => r.v);
  const spread = `ORDER BY random() LIMIT 50`;
  return {
    orderNo: await pick(`SELECT order_no AS v FROM txn TABLESAMPLE SYSTEM (0.1) WHERE mer_id = ANY($1) ${spread}`),
    channelOrderNo: await pick(`SELECT channel_order_no AS v FROM txn TABLESAMPLE SYSTEM (0.1) WHERE mer_id = ANY($1) AND channel_order_no IS NOT NULL ${spread}`),
    gwTransId: await pick(`SELECT gw_trans_id AS v FROM txn TABLESAMPLE SYSTEM (0.1) WHERE mer_id = ANY($1) ${spread}`),
    refundId: await pick(`SELECT id::text AS v FROM txn TABLESAMPLE SYSTEM (1) WHERE mer_id = ANY($1) AND tran_type = 'REFD' ${spread}`),
    payLinkOrderNo: await pick(`SELECT order_no AS v FROM pay_by_link_order WHERE mer_id = ANY($1) ${spread}`),
    invoiceId: await pick(`SELECT recon_id AS v FROM pay_by_link_order WHERE mer_id = ANY($1) ${spread}`),
    nothing: Array.from({ length: 50 }, (_, i) => `NO-SUCH-ID-${i}`),
  };
}

async function measure(client: RemoteClient, base: string, token: string, ids: string[], conc: number, calls: number) {
  const times: number[] = [];
  let i = 0;
  let hits = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (i < calls) {
        const q = ids[i++ % ids.length];
        const r = await client.get(`${base}/api/search?q=${encodeURIComponent(q)}`, token);
        if (r.n > 0) hits++;
        times.push(r.t);
      }
    }),
  );
  return { p50: Math.round(pct(times, 50) * 10) / 10, p95: Math.round(pct(times, 95) * 10) / 10, calls: times.length, hits };
}

export default async function run() {
  fs.mkdirSync(RESULTS, { recursive: true });
  log(`search bench: ${kind}, ${rows.toLocaleString('en')} transactions`);
  const { db, schema } = await openDb();
  await migrate(db);
  const { rows: c } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM txn');
  if (Number(c[0].n) === 0) {
    const t0 = performance.now();
    const { rows: m } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
    if (m[0].n === 0) await seedFoundation(db, { env: 'development' });
    await loadBenchData(db, { rows, extraMerchants: 46, log });
    await loadOrders(db, Math.ceil(rows / 20));
    log(`  loaded in ${Math.round((performance.now() - t0) / 1000)} s`);
  } else if (Number(c[0].n) !== rows) throw new Error(`bench database holds ${c[0].n} rows, expected ${rows}: remove it`);
  const { rows: counts } = await db.query<{ txn: string; pbl: string }>('SELECT (SELECT count(*) FROM txn)::text AS txn, (SELECT count(*) FROM pay_by_link_order)::text AS pbl');
  const token = await signedInToken(db);
  const scope = [DEMO.group, DEMO.subA, DEMO.subB];
  const ids = await samples(db, scope);
  const api: RunningApi = schema ? await serveInChild(pgUrl, schema) : await serveInProcess(db);
  const client = new RemoteClient();
  const result: Record<string, unknown> = { kind, txnRows: Number(counts[0].txn), payLinkRows: Number(counts[0].pbl), at: new Date().toISOString() };
  const all = Object.values(ids).flat();
  for (let w = 0; w < sized(20, 2); w++) await client.get(`${api.address}/api/search?q=${encodeURIComponent(all[w % all.length])}`, token);
  for (const [name, list] of Object.entries(ids)) {
    if (!list.length) continue;
    const c1 = await measure(client, api.address, token, list, 1, sized(200, 2));
    const c8 = await measure(client, api.address, token, list, 8, sized(400, 8));
    result[name] = { c1, c8 };
    log(`  ${name.padEnd(15)} c1 p50 ${c1.p50} ms p95 ${c1.p95} ms (hits ${c1.hits}/${c1.calls}) | c8 p50 ${c8.p50} ms p95 ${c8.p95} ms`);
  }
  const mixed1 = await measure(client, api.address, token, all, 1, sized(500, 4));
  const mixed8 = await measure(client, api.address, token, all, 8, sized(1000, 8));
  result.mixed = { c1: mixed1, c8: mixed8 };
  log(`  all kinds mixed c1 p95 ${mixed1.p95} ms, c8 p95 ${mixed8.p95} ms`);
  await client.close();
  await api.close();
  await db.close();
  fs.writeFileSync(path.join(RESULTS, `search-${kind}-${rows}.json`), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run()
    .then(() => finishCalls('search'))
    .then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
}
