/**
 * House rules as tools (issue 45 §4, docs/house-rules.md), seconds not minutes:
 * 1. oxlint (`.oxlintrc.json`) over every workspace;
 * 2. the API's import boundaries (scripts/deps-check.ts, `.dependency-cruiser.cjs`);
 * 3. Biome's formatter in check mode over the TypeScript and CSS (`biome.json`): the repository was
 *    formatted in one commit (.git-blame-ignore-revs, decision 055) and stays so.
 * Every part runs even when one fails; the exit code is 1 when any failed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (rel: string) => path.join(root, 'node_modules', rel);
const parts: [string, string, string[]][] = [
  ['oxlint', bin('.bin/oxlint'), ['-c', '.oxlintrc.json', '--deny-warnings', '--quiet']],
  ['boundaries', process.execPath, [bin('tsx/dist/cli.mjs'), 'scripts/deps-check.ts']],
];
parts.push(['format', bin('.bin/biome'), ['format', '--no-errors-on-unmatched', '.']]);
let failed = 0;
for (const [name, cmd, args] of parts) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(`lint ${name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
