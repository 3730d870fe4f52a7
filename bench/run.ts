/**
 * `npm run bench`: runs every bench/*.bench.ts that exports a default `run()` (seed.bench.ts is a
 * command of its own and is skipped), or only those named: `npm run bench -- txn`.
 * Each writes its figures to bench-results/. Options are environment variables documented in each file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f !== 'seed.bench.ts')
  .filter((f) => !only.length || only.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

let failed = 0;
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default?: () => Promise<unknown> };
  if (typeof mod.default !== 'function') continue;
  console.log(`\n== ${f}`);
  const t0 = performance.now();
  try {
    await mod.default();
    console.log(`== ${f} done in ${Math.round((performance.now() - t0) / 1000)} s`);
  } catch (e) {
    failed++;
    console.error(`== ${f} failed:`, e);
  }
}
process.exit(failed ? 1 : 0);
