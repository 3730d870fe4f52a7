/**
 * Transactions benchmark (issue 4): /txn/list p50/p95 for typical filter sets at 1 and 32
 * concurrent clients beside the same SQL run raw, and the export of every row (CSV, XLSX) beside
 * `COPY … TO STDOUT`, with the process's peak RSS.
 *
 *   BENCH_DB=pglite|postgres   (default pglite; postgres uses BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *   BENCH_ROWS=1000000         rows in txn (default 200000)
 *   BENCH_EXPORT=0 / BENCH_LIST=0  skip the export / the list part
 *   BENCH_SCHEMA=bench_report_300_350_95  run on an existing PostgreSQL schema instead (e.g. the
 *                              payment-core generator's data written by `npm run bench -- report`);
 *                              BENCH_ROWS is then the row count found there
 * Data is kept between runs (PGlite: bench-results/pglite-<rows>; PostgreSQL: schema bench_txn_<rows>).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { DEMO } from '../apps/api/src/seed/foundation.seed';
import type { Deps } from '../apps/api/src/plugins/context';
import { countTxn } from '../apps/api/src/modules/txn/txn.count';
import { txnWhere } from '../apps/api/src/modules/txn/txn.repo';
import { pageWithCount } from '../apps/api/src/modules/txn/txn.service';
import { txnExportSource } from '../apps/api/src/modules/txn/txn.exports';
import { formatInZone, zonedToUtc } from '../apps/api/src/modules/txn/time';
import { prepareBenchData } from './txn-data';
import { RemoteClient } from './http';
import { benchDeps } from './api-server';
import { check, finishCalls, sized, SMOKE } from './check';
import { compare } from './measure';
import { compareWithHalf } from './txn-compare';
import { serveInChild, serveInProcess, signedInToken } from './api-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench-results');
const kind = (process.env.BENCH_SCHEMA ? 'postgres' : (process.env.BENCH_DB ?? 'pglite')) as 'pglite' | 'postgres';
const givenSchema = process.env.BENCH_SCHEMA;
let rows = Number(process.env.BENCH_ROWS ?? 200_000);
/** BENCH_BIG_SHARE=25: a quarter of the rows belong to sub-merchant A (the "largest merchant" of issue 16). */
const bigShare = Number(process.env.BENCH_BIG_SHARE ?? 0);
const doExport = process.env.BENCH_EXPORT !== '0';
const doList = process.env.BENCH_LIST !== '0';
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const log = (s: string) => console.log(s);

const ms = (x: number) => Math.round(x * 10) / 10;

async function openBenchDb(): Promise<{ db: Db; fresh: boolean; pgliteDir?: string; schema?: string }> {
  if (kind === 'pglite') {
    const dir = path.join(RESULTS, `pglite-${rows}`);
    const fresh = !fs.existsSync(dir);
    return { db: await openPglite(dir), fresh, pgliteDir: dir };
  }
  if (givenSchema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(givenSchema)) throw new Error('BENCH_SCHEMA: a plain schema name');
    return { db: await openPostgres(pgUrl, { searchPath: givenSchema }), fresh: false, schema: givenSchema };
  }
  const schema = `bench_txn_${rows}${bigShare ? `_big${bigShare}` : ''}`;
  const admin = await openPostgres(pgUrl, { max: 1 });
  const { rows: found } = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!found.length) await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  return { db: await openPostgres(pgUrl, { searchPath: schema }), fresh: !found.length, schema };
}

type Filter = Record<string, string | number>;

async function benchList(db: Db, base: string, token: string, platformTz: string) {
  const now = Date.now();
  const at = (daysAgo: number, end = false) => formatInZone(now - daysAgo * 86_400_000, platformTz).slice(0, 10) + (end ? ' 23:59:59' : ' 00:00:00');
  const { rows: sample } = await db.query<{ order_no: string }>(`SELECT order_no FROM txn WHERE mer_id = $1 ORDER BY txn_time DESC LIMIT 1 OFFSET 100`, [DEMO.subA]);
  const sets: { name: string; q: Filter }[] = [
    { name: 'default: last 7 days, page 1 of 10', q: { beginDate: at(6), endDate: at(0, true), page: 0, size: 10 } },
    { name: 'one merchant, successful purchases, 30 days, page 3 of 30', q: { beginDate: at(29), endDate: at(0, true), merId: DEMO.subA, gwTranType: 'PURC', gwResponse: '00', page: 2, size: 30 } },
    { name: 'order number lookup, 90 days', q: { beginDate: at(89), endDate: at(0, true), orderNum: sample[0]?.order_no ?? 'x', page: 0, size: 10 } },
    { name: 'two brands, 90 days, page 1 of 50', q: { beginDate: at(89), endDate: at(0, true), paymentBrand: 'visa,mastercard', page: 0, size: 50 } },
    // Issue 16: one merchant's whole 90 days, page 1 and page 1,000 (the deepest the bounded offsets allow).
    { name: 'one merchant, 90 days unfiltered, page 1 of 10', q: { beginDate: at(89), endDate: at(0, true), merId: DEMO.subA, page: 0, size: 10 } },
    { name: 'one merchant, 90 days unfiltered, page 1000 of 10', q: { beginDate: at(89), endDate: at(0, true), merId: DEMO.subA, page: 999, size: 10 } },
  ];
  // Target 1's yardstick: a filter that matches about 1,000 rows (the merchant's newest ones, by time).
  const { rows: k1000 } = await db.query<{ t: Date }>(`SELECT txn_time AS t FROM txn WHERE mer_id = $1 ORDER BY txn_time DESC, id DESC LIMIT 1 OFFSET 999`, [DEMO.subA]);
  if (k1000[0])
    sets.push({
      name: 'one merchant, a window of ~1,000 rows, page 1 of 10',
      q: { beginDate: formatInZone(new Date(k1000[0].t).getTime(), platformTz).slice(0, 19), endDate: at(0, true), merId: DEMO.subA, page: 0, size: 10 },
    });
  // Page 1,000 reached by Next: the pager names the last row of page 999 (keyset).
  const { rows: lastOf999 } = await db.query<{ id: number }>(`SELECT id FROM txn WHERE mer_id = $1 AND txn_time >= $2 AND txn_time <= $3 ORDER BY txn_time DESC, id DESC LIMIT 1 OFFSET 9989`, [
    DEMO.subA,
    zonedToUtc(at(89), platformTz),
    zonedToUtc(at(0, true), platformTz),
  ]);
  if (lastOf999[0]) sets.push({ name: 'one merchant, 90 days unfiltered, page 1000 of 10 by Next (keyset)', q: { ...sets[5].q, after: String(lastOf999[0].id) } });
  const scope = [DEMO.group, DEMO.subA, DEMO.subB];
  const out: Record<string, unknown>[] = [];
  // The clients run in a thread of their own: the server's thread (and PGlite's) does no client work.
  const client = new RemoteClient();
  // The floor (issue 16, target 2): an empty authenticated call, GET /api/user/info, at 1 and 32 clients.
  const info = async () => {
    const r = await client.get(`${base}/api/user/info`, token);
    // (RemoteClient checks and counts every answer: check.ts.)
    return r;
  };
  const floor: Record<number, number> = {};
  for (const conc of [1, 32]) floor[conc] = (await compare(info, info, conc === 1 ? { conc, rounds: sized(200, 2), perRound: 1 } : { conc, rounds: sized(10, 1), perRound: 2 })).api.p95;
  log(`  GET /api/user/info p95: c1 ${floor[1]} ms, c32 ${floor[32]} ms`);
  for (const set of sets) {
    const qs = new URLSearchParams(Object.entries(set.q).map(([k, v]) => [k, String(v)])).toString();
    const api = async () => {
      const r = await client.get(`${base}/api/txn/list?${qs}`, token);
      return r;
    };
    const filter = { ...set.q } as never as Parameters<typeof txnWhere>[0];
    const raw = async () => {
      const t0 = performance.now();
      const w = txnWhere(filter, set.q.merId ? [String(set.q.merId)] : scope, platformTz);
      // What the service runs: the page and the count bounded at the budget.
      await pageWithCount(db, w, scope, { page: Number(set.q.page), size: Number(set.q.size), after: set.q.after ? String(set.q.after) : undefined, exact: false });
      return { t: performance.now() - t0, n: 0 };
    };
    for (let i = 0; i < 3; i++) {
      await api();
      await raw();
    }
    const row: Record<string, unknown> = { set: set.name };
    for (const conc of [1, 32]) {
      const m = await compare(api, raw, conc === 1 ? { conc, rounds: sized(200, 2), perRound: 1 } : { conc, rounds: sized(10, 1), perRound: 2 });
      row[`c${conc}`] = m.row;
      row.totalElements = m.api.n;
      const goal = Math.round(1.1 * (m.raw.p95 + floor[conc]) * 10) / 10;
      row[`c${conc}Overhead`] = { apiP95: m.api.p95, goal, met: m.api.p95 <= goal };
      log(`  ${set.name}, c${conc}: API p95 ${m.api.p95} ms vs goal 1.1 × (raw ${m.raw.p95} + info ${floor[conc]}) = ${goal} ms  ${m.api.p95 <= goal ? 'met' : 'MISSED'}`);
    }
    log(`  ${set.name}: ${JSON.stringify(row)}`);
    out.push(row);
  }
  await client.close();
  // Issue 16, target 1: list cost that does not grow — p95 ratios of the same merchant's pages.
  const p95 = (name: string, conc: number) => (out.find((r) => r.set === name)?.[`c${conc}`] as { apiP95: number } | undefined)?.apiP95;
  const page1 = 'one merchant, 90 days unfiltered, page 1 of 10';
  for (const [label, a, b] of [
    ["page 1 of all the merchant's rows ÷ a ~1,000-row window", page1, 'one merchant, a window of ~1,000 rows, page 1 of 10'],
    ['page 1,000 by a jump (offset) ÷ page 1', 'one merchant, 90 days unfiltered, page 1000 of 10', page1],
    ['page 1,000 by Next (keyset) ÷ page 1', 'one merchant, 90 days unfiltered, page 1000 of 10 by Next (keyset)', page1],
  ] as const) {
    for (const conc of [1, 32]) {
      const x = p95(a, conc);
      const y = p95(b, conc);
      if (x === undefined || !y) continue;
      const ratio = Math.round((x / y) * 100) / 100;
      log(`  target 1, ${label}, c${conc}: ${x} / ${y} ms = ${ratio}×  goal ≤ 2×  ${ratio <= 2 ? 'met' : 'MISSED'}`);
    }
  }
  return out;
}

async function benchExport(deps: Deps, info: { pgliteDir?: string; schema?: string }) {
  const platformTz = deps.config.platformTz;
  const { rows: ms_ } = await deps.db.query<{ mer_id: string }>('SELECT mer_id FROM merchant');
  const scope = ms_.map((m) => m.mer_id);
  // About 1M rows: the whole 90 days up to 1M rows in the table, fewer days beyond.
  const days = Math.min(91, Math.ceil((91 * 1_000_000) / rows));
  const end = formatInZone(Date.now(), platformTz).slice(0, 10) + ' 23:59:59';
  const begin = formatInZone(Date.now() - days * 86_400_000, platformTz).slice(0, 10) + ' 00:00:00';
  const filter = txnExportSource.parse({ beginDate: begin, endDate: end });
  const w = txnWhere(filter, scope, platformTz);
  const n = await countTxn(deps.db, w);
  const results: Record<string, unknown> = { rows: n };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'txn-bench-'));
  if (info.pgliteDir) await deps.db.close(); // one process at a time on a PGlite directory
  // COPY of the same rows (same join, filter and order) as CSV, to the client.
  const select = `SELECT t.order_no, t.txn_time, t.gw_response, t.mer_id, m.name, t.origin_order_no, t.tran_type, t.amount, t.currency, t.return_amount,
                         t.payment_brand, t.payment_schema, t.settle_flag
                    FROM txn t JOIN merchant m ON m.mer_id = t.mer_id
                   WHERE t.txn_time >= '${new Date(Date.parse(begin.replace(' ', 'T') + '+08:00')).toISOString()}'
                     AND t.txn_time <= '${new Date(Date.parse(end.replace(' ', 'T') + '+08:00')).toISOString()}'
                   ORDER BY t.txn_time DESC, t.id DESC`;
  const copyOnce = async () => {
    const t0 = performance.now();
    if (info.schema) {
      execFileSync('psql', [pgUrl, '-q', '-c', `SET search_path = ${info.schema}`, '-c', `\\copy (${select.replace(/\s+/g, ' ')}) TO '/dev/null' WITH CSV`], { stdio: 'inherit' });
    } else {
      const pg = await PGlite.create(info.pgliteDir!);
      await pg.query(`COPY (${select}) TO '/dev/blob' WITH CSV`);
      await pg.close();
    }
    return (performance.now() - t0) / 1000;
  };
  // One untimed pass first: every measured run below then reads the same warm caches (the first
  // reader of a million cold rows would otherwise pay for the disk alone).
  await copyOnce();
  // Each export runs in a process of its own: its peak RSS is the export's, not this benchmark's.
  // Twice per format: cold (the export is the process's first work) and warm (after one small
  // export, as in a server that has served a while; see txn-export.child.ts, CHILD_WARM).
  for (const format of ['csv', 'xlsx'] as const) {
    // (A smoke run: the cold export only.)
    for (const warm of SMOKE ? [false] : [false, true]) {
      const key = warm ? `${format}Warm` : format;
      const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(import.meta.dirname, 'txn-export.child.ts')], {
        env: {
          ...process.env,
          CHILD_PGLITE: info.pgliteDir ?? '',
          CHILD_PG_URL: pgUrl,
          CHILD_SCHEMA: info.schema ?? '',
          CHILD_BEGIN: begin,
          CHILD_END: end,
          CHILD_FORMAT: format,
          CHILD_FILE: path.join(tmp, `export.${format}`),
          CHILD_WARM: warm ? '1' : '',
        },
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      results[key] = JSON.parse(out.trim().split('\n').pop()!);
      const got = (results[key] as { rows: number; bytes: number }).rows;
      check(got === n && (results[key] as { bytes: number }).bytes > 0, () => `export ${format}${warm ? ' (warm)' : ''}: ${got} rows written of ${n}`);
      log(`  export ${format}${warm ? ' (warm)' : ' (cold)'}: ${JSON.stringify(results[key])}`);
      // Issue 16, target 7: the export's peak RSS against the same process with the database open and idle.
      const r = results[key] as { rssBeforeMB: number; peakRssMB: number };
      const ratio = Math.round((r.peakRssMB / r.rssBeforeMB) * 100) / 100;
      const verdict = (ratio <= 1.5 ? 'met' : 'MISSED') + (warm ? '' : ' (cold: the first heavy work of a PGlite process may include V8 compiling PGlite, ~600 MB for ~1.5 s, once)');
      log(`  export ${format} ${warm ? 'warm' : 'cold'} peak RSS ÷ idle RSS: ${r.peakRssMB} / ${r.rssBeforeMB} MB = ${ratio}×  goal ≤ 1.5×  ${verdict}`);
    }
  }
  const secs = await copyOnce();
  results.copy = { seconds: ms(secs), rowsPerSec: Math.round(n / secs) };
  log(`  COPY TO STDOUT (csv): ${JSON.stringify(results.copy)}`);
  const copyRate = (results.copy as { rowsPerSec: number }).rowsPerSec;
  results.ratios = {
    csvVsCopy: Math.round(((results.csv as { rowsPerSec: number }).rowsPerSec / copyRate) * 100) / 100,
    xlsxVsCopy: Math.round(((results.xlsx as { rowsPerSec: number }).rowsPerSec / copyRate) * 100) / 100,
  };
  log(`  ratios: ${JSON.stringify(results.ratios)}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  return results;
}

export default async function run() {
  fs.mkdirSync(RESULTS, { recursive: true });
  log(`txn bench: ${kind}${givenSchema ? ` (schema ${givenSchema})` : `, ${rows.toLocaleString('en')} rows`}`);
  const info = await openBenchDb();
  const { db } = info;
  // A given schema is taken as it is (its row count read); otherwise `rows` are loaded when missing.
  rows = await prepareBenchData(db, { rows, bigShare, log, expect: !givenSchema });
  const deps = benchDeps(db, 'txn-bench-data-');
  const token = await signedInToken(db);
  const result: Record<string, unknown> = { kind, rows, at: new Date().toISOString(), server: info.schema ? 'own process' : 'in process' };
  if (doList) {
    const api = info.schema ? await serveInChild(pgUrl, info.schema) : await serveInProcess(db);
    log(`list (ms; API over HTTP, server ${result.server}, vs the same SQL raw):`);
    result.list = await benchList(db, api.address, token, deps.config.platformTz);
    await api.close();
  }
  if (doExport) {
    log('export of about 1M rows (every row of the last days):');
    result.export = await benchExport(deps, info);
    if (kind === 'postgres') await db.close();
  } else await db.close();
  if (doList && !givenSchema) compareWithHalf(result.list as Record<string, unknown>[], path.join(RESULTS, `txn-${kind}-${rows / 2}.json`), rows, log);
  fs.writeFileSync(path.join(RESULTS, `txn-${kind}-${givenSchema ?? rows}.json`), JSON.stringify(result, null, 2));
  fs.rmSync(deps.config.dataDir, { recursive: true, force: true });
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run()
    .then(() => finishCalls('txn'))
    .then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
}
