/**
 * `npm run bench`: runs every bench/*.bench.ts that exports a default `run()`, or only those named:
 * `npm run bench -- txn web`. Each writes its figures to bench-results/; options are environment
 * variables documented at the head of each file, and in bench/README.md.
 *
 * Left out of a bare `npm run bench`, run only when named: `seed` (a command of its own) and
 * `backup` (creates and drops PostgreSQL databases, and generates a million rows).
 *
 * After each bench the calls it timed are tallied (check.ts): "calls checked N, failed M"; a bench
 * that threw or whose calls failed makes the run exit non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { finishCalls, loadAverage } from './check';

/** Benches a bare `npm run bench` leaves out (run when named). */
export const ONLY_WHEN_NAMED = new Set(['seed', 'backup']);

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const names = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const unknown = only.filter((n) => !names.includes(n));
if (unknown.length) {
  console.error(`no such bench: ${unknown.join(', ')} (there are: ${names.join(', ')})`);
  process.exit(2);
}
const chosen = only.length ? names.filter((n) => only.includes(n)) : names.filter((n) => !ONLY_WHEN_NAMED.has(n));

let failed = 0;
for (const name of chosen) {
  const f = `${name}.bench.ts`;
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default?: () => Promise<unknown> };
  if (typeof mod.default !== 'function') continue;
  console.log(`\n== ${f} (load average ${loadAverage()})`);
  const t0 = performance.now();
  let error: unknown = null;
  try {
    await mod.default();
  } catch (e) {
    error = e;
  }
  // The tally is printed whether or not the bench threw (a budget missed, a setup that failed).
  try {
    finishCalls(name);
  } catch (e) {
    error ??= e;
  }
  if (error) {
    failed++;
    console.error(`== ${f} failed:`, error);
  } else console.log(`== ${f} done in ${Math.round((performance.now() - t0) / 1000)} s (load average ${loadAverage()})`);
}
process.exit(failed ? 1 : 0);
