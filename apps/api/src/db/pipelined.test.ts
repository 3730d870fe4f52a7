import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_POSTGRES } from '../../test/helpers';
import { PIPELINED, PREPARED, openPostgres, type Db } from './db';
import { pipelined } from './pipelined';

/** Short statements on pipelined connections (pipelined.ts, decision 053): PostgreSQL only. */
describe.skipIf(NO_POSTGRES)('pipelined statements (postgres)', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const open: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).map((p) => p.end()));
  });
  const pipe = (connections: number, depth?: number) => {
    const p = pipelined({ connectionString: url, options: '-c plan_cache_mode=force_generic_plan' }, connections, depth);
    open.push(p);
    return p;
  };
  const q = (v: number) => ({ name: 'pipe_test_v', text: 'SELECT $1::int AS v, pg_backend_pid() AS pid', values: [v] });

  it('answers each statement with its own rows, on no more connections than allowed, depth by depth', async () => {
    const p = pipe(3, 8);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => p.query(q(i))));
    expect(answers.map((r) => r.rows[0].v)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(new Set(answers.map((r) => r.rows[0].pid)).size).toBe(3);
    expect(p.stats()).toEqual({ total: 3, idle: 3 });
    // Below the depth, one connection serves everything.
    const few = await Promise.all(Array.from({ length: 8 }, (_, i) => p.query(q(i))));
    expect(new Set(few.map((r) => r.rows[0].pid)).size).toBe(1);
  });

  it('an error fails its own statement only; the ones around it are answered', async () => {
    const p = pipe(1);
    const div = (d: number) => p.query({ name: 'pipe_test_div', text: 'SELECT 10 / $1::int AS r', values: [d] });
    const settled = await Promise.allSettled([div(2), div(0), div(5), p.query(q(7))]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toMatch(/division by zero/);
    expect((settled[2] as PromiseFulfilledResult<{ rows: { r: number }[] }>).value.rows[0].r).toBe(2);
    expect((await p.query(q(8))).rows[0].v).toBe(8);
  });

  it('the statements of one turn of the event loop leave in one write', async () => {
    const p = pipe(1);
    await p.query(q(0)); // connected, statement parsed
    const writev = vi.spyOn(net.Socket.prototype as unknown as { _writev: () => void }, '_writev');
    const write = vi.spyOn(net.Socket.prototype as unknown as { _write: () => void }, '_write');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => p.query(q(i))));
    expect(answers.map((r) => r.rows[0].v)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(writev.mock.calls.length + write.mock.calls.length).toBe(1);
  });

  it('a connection the server ends is replaced by the next statement', async () => {
    const p = pipe(1);
    const pid = (await p.query(q(1))).rows[0].pid;
    const admin = await openPostgres(url);
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.close();
    }
    await expect.poll(() => p.stats().total, { timeout: 5000 }).toBe(0);
    const again = await p.query(q(2));
    expect(again.rows[0]).toMatchObject({ v: 2 });
    expect(again.rows[0].pid).not.toBe(pid);
  });

  it("the handle sends a PIPELINED statement there, a PREPARED one to the generic plans' pool, and none when turned off", async () => {
    const pids = async (db: Db, o: typeof PIPELINED) =>
      new Set((await Promise.all(Array.from({ length: 40 }, () => db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [], o)))).map((r) => r.rows[0].pid));
    const on = await openPostgres(url, { pipelineConnections: 1 });
    try {
      expect((await pids(on, PIPELINED)).size).toBe(1);
      expect((await pids(on, PREPARED)).size).toBeGreaterThan(1); // the pool: one statement per connection at a time
    } finally {
      await on.close();
    }
    const off = await openPostgres(url, { pipelineConnections: 0 });
    try {
      expect((await pids(off, PIPELINED)).size).toBeGreaterThan(1);
    } finally {
      await off.close();
    }
  });
});
