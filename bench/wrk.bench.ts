/**
 * Throughput from outside (issue 16, target 1): `wrk -t2 -c32` against the API in a process of its
 * own on a PostgreSQL bench schema, for the unfiltered transaction list — the group user's whole
 * scope, and the largest merchant's — beside the empty authenticated call (`/api/user/info`) and
 * the list with the old full count (`exactTotal=true`, what every call cost before the count
 * budget). Prints requests/s and latency percentiles per URL.
 *
 * Issue 30: the list's requests/s beside `/user/info`'s in the same run (target 2: ≥ 0.4×), and the
 * same runs with the API in WRK_WORKERS processes (default 1,2; node:cluster, as WORKERS=N in
 * production): the unfiltered list with 2 processes ÷ with 1 (target 3: ≥ 1.6×). The load average
 * is printed with each run, and where each run's CPU went (bench/cpu.ts): µs per request in the API's
 * processes, PostgreSQL's, wrk's and the machine's as a whole.
 *
 *   BENCH_SCHEMA=bench_txn_20000000_big25   a schema `npm run bench -- txn` loaded (default: bench_txn_<BENCH_ROWS>,
 *                                          200,000 rows, loaded here when missing)
 *   BENCH_DATABASE_URL / TEST_DATABASE_URL  the server (default postgres://root@127.0.0.1:5432/test)
 *   WRK_SECONDS=15                          duration of each run
 *   WRK_WORKERS=1,2                         the process counts to run
 *   WRK_ROUNDS=3                            runs per URL, alternating; the figures are each URL's median
 *   WRK_FULL_COUNT=0                        leaves out the exactTotal=true run
 *   WRK_WARMUP_SECONDS=2                    the unmeasured wrk run before each measured one
 *   BENCH_API_EXEC_ARGV="--cpu-prof --cpu-prof-dir=/tmp/prof"  Node options for the API process (then run by
 *                                          `node --import tsx`, not tsx's CLI, whose child the options would not reach)
 * Needs Debian's `wrk` (apt-get install wrk); skipped with a message when it is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { openPostgres } from '../apps/api/src/db/db';
import { serveInChild, signedInToken } from './api-server';
import { cpuPerRequest, postmasterOf, sampleCpu } from './cpu';
import { check, SMOKE } from './check';
import { prepareBenchData } from './txn-data';

const RESULTS = path.resolve(import.meta.dirname, '..', 'bench-results');
// (Checked calls: the warm-up's answers in full; wrk's runs by their non-2xx answers and socket errors.)
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

interface WrkFigures {
  reqPerSec: number;
  requests: number;
  p50: string;
  p99: string;
  errors: string | null;
  /** Answers that were not 2xx/3xx, plus socket errors (connect, read, write, timeout). */
  failed: number;
}

type Run = WrkFigures & { load: string; cpuMicros?: NonNullable<ReturnType<typeof cpuPerRequest>>; rounds?: number[] };

function parseWrk(out: string): WrkFigures {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const lat = (p: string) => new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '?';
  const errs = /Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)/.exec(out);
  const n = /(\d+) requests in/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const failed = non2xx + (socket ? socket.slice(1).reduce((a, x) => a + Number(x), 0) : 0);
  return { reqPerSec: rps ? Number(rps[1]) : 0, requests: n ? Number(n[1]) : 0, p50: lat('50'), p99: lat('99'), errors: errs ? errs[0] : null, failed };
}

/**
 * Without BENCH_SCHEMA: `bench_txn_<BENCH_ROWS>` (200,000 rows by default, as `BENCH_DB=postgres npm
 * run bench -- txn` makes it), loaded here when it is missing — a newcomer's run needs no setting.
 */
async function defaultSchema(): Promise<string | null> {
  const rows = Number(process.env.BENCH_ROWS ?? (SMOKE ? 2000 : 200_000));
  const schema = `bench_txn_${rows}`;
  let admin;
  try {
    admin = await openPostgres(pgUrl, { max: 1 });
  } catch (e) {
    console.log(`wrk bench: no PostgreSQL at ${pgUrl} (${(e as Error).message}) — skipped`);
    return null;
  }
  await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await admin.close();
  const db = await openPostgres(pgUrl, { searchPath: schema });
  try {
    await prepareBenchData(db, { rows, log: (m) => console.log(m) });
  } finally {
    await db.close();
  }
  console.log(`wrk bench: schema ${schema} (${rows.toLocaleString('en')} rows; BENCH_SCHEMA names another)`);
  return schema;
}

export default async function run() {
  if (spawnSync('wrk', ['--version']).error) {
    console.log('wrk bench: `wrk` is not installed (apt-get install wrk) — skipped');
    return;
  }
  const schema = process.env.BENCH_SCHEMA ?? (await defaultSchema());
  if (!schema) return;
  const seconds = Number(process.env.WRK_SECONDS ?? 15);
  const rounds = Math.max(1, Number(process.env.WRK_ROUNDS ?? 3));
  const warmup = Math.max(1, Number(process.env.WRK_WARMUP_SECONDS ?? 2));
  const db = await openPostgres(pgUrl, { searchPath: schema });
  const { rows } = await db.query<{ mer_id: string; n: number }>('SELECT mer_id, count(*)::int8 AS n FROM txn GROUP BY mer_id ORDER BY n DESC LIMIT 1');
  const token = await signedInToken(db);
  // PostgreSQL's CPU: the bench's own server (its postmaster), not every server on the machine.
  const postmaster = postmasterOf((await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const urls: [string, string][] = [
    ['GET /api/user/info (the floor)', '/api/user/info'],
    [`/txn/list unfiltered, group user`, '/api/txn/list?page=0&size=10'],
    [`/txn/list unfiltered, largest merchant (${Number(rows[0].n).toLocaleString('en')} rows)`, `/api/txn/list?page=0&size=10&merId=${rows[0].mer_id}`],
    ['/txn/list unfiltered, group user, exactTotal=true (the old full count)', '/api/txn/list?page=0&size=10&exactTotal=true'],
  ];
  if (process.env.WRK_FULL_COUNT === '0') urls.pop();
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  const out: Record<string, Record<string, Run>> = {};
  const workerCounts = (process.env.WRK_WORKERS ?? '1,2').split(',').map(Number);
  for (const workers of workerCounts) {
    const api = await serveInChild(pgUrl, schema, workers);
    const mine: Record<string, Run> = (out[`workers ${workers}`] = {});
    console.log(`wrk -t2 -c32 -d${seconds}s, schema ${schema}, API in ${workers} process${workers > 1 ? 'es' : ''} of its own:`);
    const runs: Record<string, Run[]> = {};
    for (let round = 1; round <= rounds; round++) {
      for (const [name, url] of urls) {
        // The old full count is slow and only there for comparison: one round.
        if (round > 1 && url.includes('exactTotal')) continue;
        // Warm-up (plans, caches, the JIT; every worker): the same load for 2 s, then the run.
        // (Each answer checked here, body and all; wrk below counts its non-2xx answers and socket errors.)
        for (let i = 0; i < 4 * workers; i++) {
          const res = await fetch(api.address + url, { headers: { 'x-token': token } });
          const body = await res.text();
          check(res.status === 200 && body.length > 0 && (JSON.parse(body) as { code: number }).code === 0, () => `warm-up ${url}: HTTP ${res.status} ${body.slice(0, 160)}`);
        }
        execFileSync('wrk', ['-t2', '-c32', `-d${warmup}s`, '-H', `x-token: ${token}`, api.address + url], { encoding: 'utf8' });
        const before = load();
        const cpu0 = sampleCpu(api.pid!, postmaster);
        const text = execFileSync('wrk', ['-t2', '-c32', `-d${seconds}s`, '--latency', '-H', `x-token: ${token}`, api.address + url], { encoding: 'utf8' });
        const figures = parseWrk(text);
        // wrk's requests: every one a 2xx answer, none lost to a socket error, and some at all.
        check(figures.requests > 0 && figures.failed === 0, () => `wrk ${url}: ${figures.requests} requests, ${figures.failed} failed (${figures.errors ?? 'no answers'})`);
        const cpu = cpuPerRequest(cpu0, sampleCpu(api.pid!, postmaster), figures.requests);
        (runs[name] ??= []).push({ ...figures, load: before, ...(cpu ? { cpuMicros: cpu } : {}) });
        console.log(
          `  ${name}${rounds > 1 ? ` [round ${round}]` : ''}: ${figures.reqPerSec.toFixed(1)} req/s, p50 ${figures.p50}, p99 ${figures.p99}${figures.errors ? `, ${figures.errors}` : ''}  (load average ${before})`,
        );
        // Where the time went: CPU µs per request of the API, PostgreSQL, wrk, and the machine as a whole.
        if (cpu) console.log(`    CPU per request: API ${cpu.api} µs, PostgreSQL ${cpu.postgres} µs, wrk ${cpu.wrk} µs, machine ${cpu.machine} µs`);
      }
    }
    // Each URL's median run (by requests/s): the machine's speed drifts by ~20 % within minutes, and
    // the rounds alternate the URLs so that the drift falls on all of them alike.
    for (const [name, list] of Object.entries(runs)) {
      const sorted = [...list].sort((a, b) => a.reqPerSec - b.reqPerSec);
      mine[name] = { ...sorted[Math.floor((sorted.length - 1) / 2)], rounds: list.map((r) => r.reqPerSec) };
    }
    await api.close();
    const floor = mine[urls[0][0]].reqPerSec;
    const list = mine[urls[1][0]].reqPerSec;
    const ratio = Math.round((list / floor) * 100) / 100;
    const median = rounds > 1 ? ' (medians of the rounds)' : '';
    // Issue 30's target 2 was 0.4×; issue 52 asks 0.5× ("the list at the floor").
    console.log(`  target 2: unfiltered list ÷ /user/info${median} = ${list.toFixed(0)} / ${floor.toFixed(0)} = ${ratio}×  goal ≥ 0.5× (issue 52; 0.4× issue 30)  ${ratio >= 0.5 ? 'met' : 'MISSED'}`);
  }
  if (out['workers 1'] && out['workers 2']) {
    for (const [name] of urls.slice(0, 2)) {
      const r = Math.round((out['workers 2'][name].reqPerSec / out['workers 1'][name].reqPerSec) * 100) / 100;
      const isList = name.startsWith('/txn/list');
      console.log(`  target 3: ${name}, 2 processes ÷ 1 = ${r}×${isList ? `  goal ≥ 1.6×  ${r >= 1.6 ? 'met' : 'MISSED'}` : ' (for comparison)'}`);
    }
  }
  await db.close();
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `wrk-${schema}.json`), JSON.stringify({ at: new Date().toISOString(), schema, seconds, out }, null, 2));
  return out;
}
