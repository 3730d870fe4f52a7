/**
 * What every bench shares (issue 52): the tally of the calls it timed, and the port it binds.
 *
 * - `check(ok, what)`: each timed call is checked (HTTP status and a non-empty answer, or what the
 *   bench knows the answer must be) and counted. A failed call is counted, not thrown: the bench runs
 *   to its end, then `finishCalls` (run.ts calls it after each bench; a bench run on its own calls it
 *   too) prints "calls checked: N, failed: M" with the first few failures and throws when M > 0, so
 *   the bench — and `npm run bench` — exits non-zero. A figure made of failed calls is no figure.
 * - `benchPort(offset)`: the port a bench's server listens on — BENCH_PORT (+ offset, for a bench that
 *   binds more than one) when set, else 0 (a free port the system picks), so a bench can run beside
 *   services that hold fixed port ranges.
 */
import os from 'node:os';

const tally = { ok: 0, failed: 0, first: [] as string[] };

/** Counts one timed call; `what` describes a failure (called only then). Returns `ok`. */
export function check(ok: boolean, what: () => string): boolean {
  if (ok) tally.ok++;
  else {
    tally.failed++;
    if (tally.first.length < 5) tally.first.push(what());
  }
  return ok;
}

/** An HTTP answer that counts as a success: the expected status and a body that is not empty. */
export function checkHttp(status: number, body: string | null | undefined, what: string, expected = 200): boolean {
  return check(status === expected && !!body && body.length > 0, () => `${what}: HTTP ${status}${body ? ` ${body.slice(0, 160)}` : ', empty answer'}`);
}

/** The tally so far (the smoke test reads it through the output). */
export function calls(): { ok: number; failed: number } {
  return { ok: tally.ok, failed: tally.failed };
}

/** Prints the tally, resets it, and throws when a call failed. */
export function finishCalls(bench: string): void {
  const { ok, failed, first } = tally;
  tally.ok = 0;
  tally.failed = 0;
  tally.first = [];
  console.log(`  ${bench}: calls checked ${ok + failed}, failed ${failed}${failed ? ` — first: ${first.join(' | ')}` : ''}`);
  if (failed) throw new Error(`${bench}: ${failed} of ${ok + failed} calls failed`);
}

/** BENCH_PORT (+ offset) when set, else 0 (any free port). */
export function benchPort(offset = 0): number {
  const v = process.env.BENCH_PORT;
  if (v === undefined || v === '') return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n + offset > 65535) throw new Error(`BENCH_PORT: a port number (1–65535), not ${JSON.stringify(v)}`);
  return n + offset;
}

/**
 * BENCH_SMOKE=1: a tiny run of a bench (a handful of calls per figure), as the test suite's smoke
 * run does (bench/bench.smoke.test.ts) — proof that the bench works, its figures meaningless.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';
/** `full`, or `tiny` in a smoke run. */
export const sized = (full: number, tiny: number): number => (SMOKE ? tiny : full);

/** The machine's load average (1, 5, 15 min), for printing beside a figure. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

/** The PostgreSQL server of the benches: BENCH_DATABASE_URL, TEST_DATABASE_URL, else this machine's (trust auth, database test). */
export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** Whether that server answers (a bench on PostgreSQL is skipped, with the reason, when it does not). */
export async function pgAnswers(url = BENCH_PG_URL): Promise<string | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (e) {
    return `no PostgreSQL answers at ${url.replace(/\/\/[^@]*@/, '//…@')} (${(e as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
