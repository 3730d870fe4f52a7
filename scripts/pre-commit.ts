/**
 * The pre-commit hook (installed by `npm install` through simple-git-hooks, package.json): lints the
 * staged scripts with oxlint and formats the staged TypeScript and CSS with Biome, in a second or
 * two. The repository was formatted in one commit listed in `.git-blame-ignore-revs` (decision
 * 055), and `npm run lint` checks it stays so. A file the formatter changed
 * is staged again; a lint finding stops the commit (fix it, or commit with `--no-verify` and let
 * CI's `npm run lint` say the same).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const staged = execFileSync('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && fs.existsSync(path.join(root, f)));
// Every staged TypeScript and CSS file (biome.json's includes): the repository is formatted (decision 055).
const formattable = staged.filter((f) => /\.(ts|tsx|mts|cjs|mjs|css)$/.test(f) && !f.includes('/dist'));
const lintable = staged.filter((f) => /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/.test(f) && !f.includes('/dist'));

let failed = false;
if (formattable.length) {
  const r = spawnSync(bin('biome'), ['format', '--write', '--no-errors-on-unmatched', ...formattable], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
  else execFileSync('git', ['add', '--', ...formattable], { cwd: root });
}
if (lintable.length) {
  const r = spawnSync(bin('oxlint'), ['-c', '.oxlintrc.json', '--deny-warnings', '--quiet', ...lintable], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
