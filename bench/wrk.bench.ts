/**
 * Throughput from outside (issue 16, target 1): `wrk -t2 -c32` against the API in a process of its
 * own on a PostgreSQL bench schema, for the unfiltered transaction list — the group user's whole
 * scope, and the largest merchant's — beside the empty authenticated call (`/api/user/info`) and
 * the list with the old full count (`exactTotal=true`, what every call cost before the count
 * budget). Prints requests/s and latency percentiles per URL.
 *
 *   BENCH_SCHEMA=bench_txn_20000000_big25   the schema `npm run bench -- txn` loaded (required)
 *   BENCH_DATABASE_URL / TEST_DATABASE_URL  the server (default postgres://root@127.0.0.1:5432/test)
 *   WRK_SECONDS=15                          duration of each run
 * Needs Debian's `wrk` (apt-get install wrk); skipped with a message when it is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { openPostgres } from '../apps/api/src/db/db';
import { DEMO } from '../apps/api/src/seed/foundation.seed';
import { serveInChild, signedInToken } from './api-server';

const RESULTS = path.resolve(import.meta.dirname, '..', 'bench-results');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

interface WrkFigures {
  reqPerSec: number;
  p50: string;
  p99: string;
  errors: string | null;
}

function parseWrk(out: string): WrkFigures {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const lat = (p: string) => new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '?';
  const errs = /Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)/.exec(out);
  return { reqPerSec: rps ? Number(rps[1]) : 0, p50: lat('50'), p99: lat('99'), errors: errs ? errs[0] : null };
}

export default async function run() {
  const schema = process.env.BENCH_SCHEMA;
  if (!schema) {
    console.log('wrk bench: set BENCH_SCHEMA to a schema loaded by `npm run bench -- txn` (skipped)');
    return;
  }
  if (spawnSync('wrk', ['--version']).error) {
    console.log('wrk bench: `wrk` is not installed (apt-get install wrk) — skipped');
    return;
  }
  const seconds = Number(process.env.WRK_SECONDS ?? 15);
  const db = await openPostgres(pgUrl, { searchPath: schema });
  const { rows } = await db.query<{ mer_id: string; n: number }>('SELECT mer_id, count(*)::int8 AS n FROM txn GROUP BY mer_id ORDER BY n DESC LIMIT 1');
  const token = await signedInToken(db);
  const api = await serveInChild(pgUrl, schema);
  const urls: [string, string][] = [
    ['GET /api/user/info (the floor)', '/api/user/info'],
    [`/txn/list unfiltered, group user`, '/api/txn/list?page=0&size=10'],
    [`/txn/list unfiltered, largest merchant (${Number(rows[0].n).toLocaleString('en')} rows)`, `/api/txn/list?page=0&size=10&merId=${rows[0].mer_id}`],
    ['/txn/list unfiltered, group user, exactTotal=true (the old full count)', '/api/txn/list?page=0&size=10&exactTotal=true'],
  ];
  const out: Record<string, WrkFigures> = {};
  console.log(`wrk -t2 -c32 -d${seconds}s, schema ${schema}, API in its own process:`);
  for (const [name, url] of urls) {
    // One warm-up call (plans, caches), then the run.
    await fetch(api.address + url, { headers: { 'x-token': token } });
    const text = execFileSync('wrk', ['-t2', '-c32', `-d${seconds}s`, '--latency', '-H', `x-token: ${token}`, api.address + url], { encoding: 'utf8' });
    out[name] = parseWrk(text);
    console.log(`  ${name}: ${out[name].reqPerSec.toFixed(1)} req/s, p50 ${out[name].p50}, p99 ${out[name].p99}${out[name].errors ? `, ${out[name].errors}` : ''}`);
  }
  await api.close();
  await db.close();
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `wrk-${schema}.json`), JSON.stringify({ at: new Date().toISOString(), schema, seconds, out }, null, 2));
  return out;
}
