/**
 * `npm test` — the README's test command, and what CI (.ci/run) calls.
 *
 * Stages, timed, with a table of the times at the end (docs/testing.md):
 *   1. type-check every workspace ‖ build the web app, its server-side renderer and the API bundle (once, for both e2e runs)
 *   2. unit and API tests (Vitest) — PGlite, and PostgreSQL too when TEST_DATABASE_URL is set
 *   3. end-to-end (Playwright + Chromium) on PGlite ‖ on PostgreSQL when E2E_DATABASE_URL is set:
 *      the two suites run side by side, each against its own server and database
 *      (apps/web/e2e/run.ts), their output prefixed with the engine.
 * Every stage runs even when an earlier one failed (the e2e stage needs a build), so one run shows
 * every failure; the exit code is 1 when any stage failed.
 *
 * `TEST_STAGES=lint,typecheck,unit,e2e` (any subset) narrows the run, `E2E_ARGS='apps/web/e2e/x.spec.ts'`
 * narrows the e2e suites (Playwright arguments); extra arguments go to Vitest
 * (`npm test -- apps/api/src/modules/txn`) and narrow the run to the unit stage.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const bin = (rel: string) => path.join(root, 'node_modules', rel);
const node = process.execPath;
const extra = process.argv.slice(2);
const stages = new Set((process.env.TEST_STAGES ?? (extra.length ? 'unit' : 'lint,typecheck,unit,e2e')).split(',').map((s) => s.trim()));

interface Timing {
  name: string;
  seconds: number;
  ok: boolean;
}
const timings: Timing[] = [];
const started = Date.now();
const fmt = (s: number) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;

/** Runs a command; with a prefix its output lines are prefixed (for commands run side by side). */
function run(name: string, args: string[], opts: { env?: NodeJS.ProcessEnv; prefix?: string; cwd?: string } = {}): Promise<Timing> {
  const t0 = Date.now();
  console.log(`\n== ${name}: ${args.map((a) => path.relative(root, a) || a).join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(node, args, {
      cwd: opts.cwd ?? root,
      env: { ...process.env, ...opts.env },
      stdio: opts.prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (opts.prefix) {
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', (line) => console.log(`${opts.prefix} ${line}`));
      }
    }
    child.once('exit', (code, signal) => {
      const t: Timing = { name, seconds: (Date.now() - t0) / 1000, ok: code === 0 };
      console.log(`== ${name}: ${t.ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${fmt(t.seconds)}`);
      timings.push(t);
      resolve(t);
    });
  });
}

const tsc = (project: string) => [bin('typescript/bin/tsc'), '-p', project];

async function typecheck(): Promise<Timing> {
  const t0 = Date.now();
  const parts = await Promise.all(['packages/contract', 'packages/sdk', 'apps/api', 'apps/web', 'bench'].map((p) => run(`typecheck ${p}`, tsc(p))));
  timings.splice(timings.length - parts.length, parts.length);
  const t = { name: 'typecheck', seconds: (Date.now() - t0) / 1000, ok: parts.every((p) => p.ok) };
  timings.push(t);
  return t;
}

async function main(): Promise<number> {
  let buildOk = true;
  // 1. type-check ‖ build
  const first: Promise<Timing>[] = [];
  if (stages.has('typecheck')) first.push(typecheck());
  // House rules (issue 45 §4, decision 055): oxlint and the API's import boundaries, seconds.
  if (stages.has('lint')) first.push(run('lint', [bin('tsx/dist/cli.mjs'), 'scripts/lint.ts']));
  // The web app, then its server-side renderer (decision 050): the API's page test and the e2e suites use both.
  const web = path.join(root, 'apps/web');
  if (stages.has('e2e'))
    first.push(
      run('build', [bin('vite/bin/vite.js'), 'build'], { cwd: web })
        .then((t) => (t.ok ? run('build (server renderer)', [bin('vite/bin/vite.js'), 'build', '--ssr', 'src/entry-server.tsx'], { cwd: web }) : t))
        // The API as `npm run serve` runs it (apps/api/dist/server.mjs, issue 52): the e2e suites start it.
        .then((t) => (t.ok ? run('build (API)', [bin('tsx/dist/cli.mjs'), 'apps/api/build.ts']) : t))
        .then((t) => ((buildOk = t.ok), t)),
    );
  await Promise.all(first);

  // 2. unit and API tests
  if (stages.has('unit')) {
    const engines = process.env.TEST_DATABASE_URL ? 'PGlite + PostgreSQL' : 'PGlite';
    await run(`unit/API (${engines})`, [bin('vitest/vitest.mjs'), 'run', ...extra]);
  }

  // 3. e2e, the two engines side by side
  if (stages.has('e2e')) {
    if (!buildOk) {
      console.log('== e2e: skipped, the build failed');
      timings.push({ name: 'e2e (build failed)', seconds: 0, ok: false });
    } else {
      const runner = [bin('tsx/dist/cli.mjs'), 'apps/web/e2e/run.ts', ...(process.env.E2E_ARGS?.split(' ').filter(Boolean) ?? [])];
      // Side by side, the engine-independent specs are shared out between the two (playwright.config.ts).
      const both = !!process.env.E2E_DATABASE_URL;
      const suites = [run('e2e PGlite', runner, { env: { E2E_DATABASE_URL: '', E2E_REPORT: 'e2e-pglite', E2E_SHARE: both ? 'pglite' : '' }, prefix: both ? '[pglite]' : undefined })];
      if (both) suites.push(run('e2e PostgreSQL', runner, { env: { E2E_REPORT: 'e2e-postgres', E2E_SHARE: 'postgres' }, prefix: '[postgres]' }));
      const t0 = Date.now();
      await Promise.all(suites);
      if (suites.length > 1) timings.push({ name: 'e2e stage (side by side)', seconds: (Date.now() - t0) / 1000, ok: true });
    }
  }

  const total = (Date.now() - started) / 1000;
  console.log('\n== stage times');
  for (const t of timings) console.log(`  ${t.ok ? 'ok  ' : 'FAIL'} ${fmt(t.seconds).padStart(7)}  ${t.name}`);
  console.log(`  total   ${fmt(total)}`);
  return timings.every((t) => t.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
