/**
 * The pre-commit hook (installed by `npm install` through simple-git-hooks, package.json): lints the
 * staged scripts with oxlint and formats the staged files that are new with Biome, in a second or
 * two. Files already in the repository are formatted once, in one commit listed in
 * `.git-blame-ignore-revs`, when no branch is open (decision 055) — until then the hook leaves
 * their layout alone, so that a one-line change stays a one-line diff. A file the formatter changed
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
const added = new Set(execFileSync('git', ['diff', '--cached', '--name-only', '--diff-filter=A', '-z'], { cwd: root, encoding: 'utf8' }).split('\0'));
const formattable = staged
  .filter((f) => added.has(f) || process.env.FORMAT_ALL_STAGED === '1')
  .filter((f) => /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|json|css)$/.test(f) && f !== 'package-lock.json' && !f.includes('/dist'));
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
