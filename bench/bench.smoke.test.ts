/**
 * Every bench, run at a tiny size (BENCH_SMOKE=1 and small data: check.ts), as `npm run bench -- <name>`
 * runs it (issue 52): each must end with exit 0 and "calls checked N, failed 0" with N > 0. So the
 * benches keep working as the code under them changes; their figures mean nothing here.
 *
 * Skipped, with the reason printed as the test's name: what needs PostgreSQL without
 * TEST_DATABASE_URL, wrk without `wrk` installed, the web bench without a build (apps/web/dist) or
 * Chromium, the replica bench without PostgreSQL's server binaries. `seed` is a command of its own,
 * not a bench (bench:seed).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { postmasterOf, sampleCpu, cpuPerRequest } from './cpu';
import { replicaToolsMissing } from '../apps/api/test/replica/cluster';

const ROOT = path.resolve(import.meta.dirname, '..');
const pg = process.env.TEST_DATABASE_URL;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

function bench(name: string, env: Record<string, string>, timeoutMs = 240_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'bench/run.ts'), name], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1', BENCH_DATABASE_URL: pg ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Exit 0 and at least one call checked, none failed. */
function expectChecked(r: { code: number | null; out: string }, name: string) {
  const m = new RegExp(`${name}: calls checked (\\d+), failed (\\d+)`).exec(r.out);
  expect(r.code, r.out.slice(-3000)).toBe(0);
  expect(m, r.out.slice(-3000)).not.toBeNull();
  expect(Number(m![1])).toBeGreaterThan(0);
  expect(Number(m![2])).toBe(0);
}

const T = 300_000;

describe.concurrent('benches at a tiny size (npm run bench -- <name>)', () => {
  it(
    'login-timing: every answer is the wrong-credentials one, never a 429',
    async () => {
      // 40 rounds: 81 sign-ins, far past the limit of 30 a minute per caller.
      const r = await bench('login-timing', { ROUNDS: '40' });
      expectChecked(r, 'login-timing');
      expect(r.out).toMatch(/calls checked 81, failed 0/);
    },
    T,
  );

  it(
    'txn (PGlite): list beside raw SQL, and the exports',
    async () => {
      expectChecked(await bench('txn', { BENCH_DB: 'pglite', BENCH_ROWS: '3000' }), 'txn');
    },
    T,
  );

  it(
    'report (PGlite): the report lists beside their SQL',
    async () => {
      expectChecked(await bench('report', { BENCH_DB: 'pglite', BENCH_REPORT_MERCHANTS: '0', BENCH_REPORT_PER_DAY: '2', BENCH_REPORT_DAYS: '3' }), 'report');
    },
    T,
  );

  it(
    'search (PGlite): every kind of id',
    async () => {
      expectChecked(await bench('search', { BENCH_DB: 'pglite', BENCH_ROWS: '2000' }), 'search');
    },
    T,
  );

  it(
    'memory: idle and after a short load, on each engine, and /metrics reports the process',
    async () => {
      const r = await bench('memory', {
        MEMORY_SEED_DAYS: '1',
        MEMORY_SETTLE_SECONDS: '1',
        MEMORY_LOAD_SECONDS: '2',
        MEMORY_LOAD_CONC: '2',
        MEMORY_REST_SECONDS: '2',
        MEMORY_DB: pg ? 'postgres,pglite' : 'pglite',
      });
      expectChecked(r, 'memory');
      expect(r.out).toMatch(/pglite: idle RSS after a full GC: \d+ MB {2}goal ≤ 400 MB/);
      if (pg) expect(r.out).toMatch(/postgres: idle RSS after a full GC: \d+ MB {2}goal ≤ 250 MB/);
    },
    T,
  );

  it.skipIf(!pg)(
    'ingest (PostgreSQL): the feed API beside raw INSERTs, and a file',
    async () => {
      expectChecked(await bench('ingest', { BENCH_INGEST_BATCH: '20', BENCH_INGEST_BATCHES: '4', BENCH_INGEST_FILE_ROWS: '50' }), 'ingest');
    },
    T,
  );

  it.skipIf(!pg)(
    'backup (PostgreSQL and PGlite): backed up and restored, the rows all there',
    async () => {
      expectChecked(await bench('backup', { BENCH_BACKUP_TXNS: '1000', BENCH_BACKUP_DAYS: '2' }), 'backup');
    },
    T,
  );

  it.skipIf(!pg)(
    'plans (PostgreSQL): on a small schema loaded by the txn bench, as its header says',
    async () => {
      const load = await bench('txn', { BENCH_DB: 'postgres', BENCH_ROWS: '2000', BENCH_BIG_SHARE: '25', BENCH_LIST: '0', BENCH_EXPORT: '0' });
      expect(load.code, load.out.slice(-2000)).toBe(0);
      expectChecked(await bench('plans', { BENCH_ROWS: '2000', BENCH_BIG_SHARE: '25' }), 'plans');
    },
    T,
  );

  const noReplica = pg ? replicaToolsMissing() : 'no TEST_DATABASE_URL';
  it.skipIf(!!noReplica)(
    `replica: a primary and a streaming standby${noReplica ? ` (skipped: ${noReplica})` : ''}`,
    async () => {
      expectChecked(await bench('replica', { BENCH_REPLICA_WRITERS: '1', BENCH_REPLICA_SECONDS: '1', BENCH_REPLICA_BURST_ROWS: '500' }), 'replica');
    },
    T,
  );

  const noWrk = spawnSync('wrk', ['--version']).error ? 'wrk is not installed (apt-get install wrk)' : !pg ? 'no TEST_DATABASE_URL' : null;
  it.skipIf(!!noWrk)(
    `wrk: requests/s from outside${noWrk ? ` (skipped: ${noWrk})` : ''}`,
    async () => {
      const load = await bench('txn', { BENCH_DB: 'postgres', BENCH_ROWS: '2000', BENCH_LIST: '0', BENCH_EXPORT: '0' });
      expect(load.code, load.out.slice(-2000)).toBe(0);
      expectChecked(await bench('wrk', { BENCH_SCHEMA: 'bench_txn_2000', WRK_SECONDS: '1', WRK_WARMUP_SECONDS: '1', WRK_ROUNDS: '1', WRK_WORKERS: '1', WRK_FULL_COUNT: '0' }), 'wrk');
    },
    T,
  );

  const noWeb = !fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')) ? 'no build: npm run build' : !fs.existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM}` : null;
  it.skipIf(!!noWeb)(
    `web: the pages load; the bench fails exactly when the list's JS is over its budget${noWeb ? ` (skipped: ${noWeb})` : ''}`,
    async () => {
      const r = await bench('web', { WEB_LIGHTHOUSE: '0', WEB_RUNS: '1' });
      const kb = Number(/txn list JS: +\d+ files, ([\d.]+) KB gzip/.exec(r.out)?.[1]);
      expect(kb, r.out.slice(-3000)).toBeGreaterThan(0);
      const m = /web: calls checked (\d+), failed (\d+)/.exec(r.out);
      if (kb <= 400) expectChecked(r, 'web');
      else {
        // Over budget: every page call still succeeded, and the bench exited non-zero for the budget alone.
        expect(r.code).not.toBe(0);
        expect(r.out).toMatch(/over its budget of 400 KB/);
        expect(m, r.out.slice(-3000)).not.toBeNull();
        expect(Number(m![1])).toBeGreaterThan(0);
        expect(Number(m![2])).toBe(0);
      }
    },
    T,
  );

  // Bank statements (issue 49 §2).
  it(
    'statements (PGlite): a camt.053 statement imported and matched, then again as a duplicate',
    async () => {
      expectChecked(await bench('statements', { BENCH_DB: 'pglite', BENCH_ENTRIES: '200' }), 'statements');
    },
    T,
  );
  // issue 49: the payout proof beside the raw SQL of its lines. Transfers daily (period D): with the
  // bench's monthly default, five days hold a transfer only when they span a month's first day.
  it(
    "trail (PGlite): the proof of the busiest transfer beside its lines' SQL",
    async () => {
      expectChecked(await bench('trail', { BENCH_DB: 'pglite', BENCH_TRAIL_MERCHANTS: '0', BENCH_TRAIL_PER_DAY: '3', BENCH_TRAIL_DAYS: '5', BENCH_TRAIL_PERIOD: 'D' }), 'trail');
    },
    T,
  );
});

describe('bench/cpu.ts', () => {
  it('a process that ended between two samples keeps its CPU in the sum (never negative)', async () => {
    // A parent that waits for a child burning a few seconds of CPU, then lingers: the child's time
    // moves from its own figures into the parent's cutime when it is reaped. The child must still be
    // running at the first sample (a short one ended before it on a quiet machine: 0 > 0 failed).
    const parent = spawn('sh', ['-c', "sh -c 'i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done' & wait; exec sleep 60"], { stdio: 'ignore' });
    const childrenOf = (pid: number) =>
      fs.readdirSync('/proc').filter((n) => {
        if (!/^\d+$/.test(n)) return false;
        try {
          return fs.readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
        } catch {
          return false;
        }
      });
    try {
      // The busy child, once it has run a little.
      let busy: string | undefined;
      for (let i = 0; i < 100 && !busy; i++) {
        await new Promise((r) => setTimeout(r, 100));
        busy = childrenOf(parent.pid!)[0];
      }
      expect(busy).toBeDefined();
      const a = sampleCpu(parent.pid!);
      expect(fs.existsSync(`/proc/${busy}`), 'the busy child still runs at the first sample').toBe(true);
      // Until the busy child has ended and been reaped (the parent then sleeps, a child of no CPU).
      for (let i = 0; i < 800 && fs.existsSync(`/proc/${busy}`); i++) await new Promise((r) => setTimeout(r, 100));
      expect(fs.existsSync(`/proc/${busy}`)).toBe(false);
      const b = sampleCpu(parent.pid!);
      const per = cpuPerRequest(a, b, 1)!;
      expect(b.api).toBeGreaterThanOrEqual(a.api);
      expect(per.api).toBeGreaterThan(0);
    } finally {
      parent.kill();
    }
  }, 90_000);

  it.skipIf(!pg)("finds the postmaster of the bench's own PostgreSQL server", async () => {
    const { openPostgres } = await import('../apps/api/src/db/db');
    const db = await openPostgres(pg!, { max: 1 });
    try {
      const pid = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const pm = postmasterOf(pid);
      if (pm === null) return; // the server runs elsewhere (another machine or container)
      expect(fs.readFileSync(`/proc/${pm}/stat`, 'utf8')).toMatch(/\((postgres|postmaster)\)/);
    } finally {
      await db.close();
    }
  });
});
