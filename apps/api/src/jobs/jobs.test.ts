import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../test/helpers';
import { TestClock } from '../lib/clock';
import { enqueueJob, ensureRecurringJob, getJob } from './queue';
import { createJobRunner, type JobHandler } from './runner';

const quiet = { info: () => undefined, error: () => undefined };

describe.each(DB_KINDS)('durable job runner on %s', (kind) => {
  let db: Awaited<ReturnType<typeof freshDb>>;
  const clock = new TestClock(new Date('2026-03-02T00:00:00Z'));
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(() => db.exec('DELETE FROM job'));

  const runner = (handlers: Record<string, JobHandler>, workerId = 'w1') => createJobRunner({ db, clock, log: quiet, handlers, workerId, staleMs: 60_000, maxAttempts: 3 });

  it('runs a due job once and stores its result; a future job waits', async () => {
    const seen: unknown[] = [];
    const r = runner({ echo: async ({ job }) => (seen.push(job.payload), { result: { ok: true } }) });
    const id = (await enqueueJob(db, { kind: 'echo', payload: { n: 1 }, runAt: clock.now() }))!;
    const later = (await enqueueJob(db, { kind: 'echo', payload: { n: 2 }, runAt: new Date(clock.now().getTime() + 60_000) }))!;
    expect(await r.tick()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await getJob(db, id)).toMatchObject({ status: 'done', result: { ok: true }, progress: 100, attempts: 1 });
    expect((await getJob(db, later))!.status).toBe('queued');
    expect(await enqueueJob(db, { kind: 'echo', uniqueKey: 'k' })).not.toBeNull();
    expect(await enqueueJob(db, { kind: 'echo', uniqueKey: 'k' })).toBeNull();
  });

  it('re-queues a recurring job at its next time', async () => {
    await ensureRecurringJob(db, { kind: 'tick', uniqueKey: 'tick', runAt: clock.now() });
    await ensureRecurringJob(db, { kind: 'tick', uniqueKey: 'tick', runAt: clock.now() });
    let n = 0;
    const r = runner({ tick: async ({ clock: c }) => (n++, { nextRunAt: new Date(c.now().getTime() + 30_000) }) });
    await r.tick();
    await r.tick();
    expect(n).toBe(1);
    clock.advance(30_000);
    await r.tick();
    expect(n).toBe(2);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE kind = 'tick'`);
    expect(rows[0].n).toBe(1);
  });

  it('retries a failing job with backoff, then marks it failed', async () => {
    const id = (await enqueueJob(db, { kind: 'boom', runAt: clock.now() }))!;
    const r = runner({
      boom: async () => {
        throw new Error('kaput');
      },
    });
    for (let i = 0; i < 3; i++) {
      await r.tick();
      clock.advance(3_600_000);
    }
    expect(await getJob(db, id)).toMatchObject({ status: 'failed', attempts: 3, error: 'kaput' });
  });

  it('never runs a job twice with several runners, and takes over an abandoned one', async () => {
    for (let i = 0; i < 6; i++) await enqueueJob(db, { kind: 'work', payload: { i }, runAt: clock.now() });
    const done: number[] = [];
    const handler: JobHandler = async ({ job }) => {
      await new Promise((res) => setTimeout(res, 5));
      done.push(job.payload.i as number);
    };
    await Promise.all([runner({ work: handler }, 'a').tick(), runner({ work: handler }, 'b').tick(), runner({ work: handler }, 'c').tick()]);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const id = (await enqueueJob(db, { kind: 'work', payload: { i: 9 }, runAt: clock.now() }))!;
    await db.query(`UPDATE job SET status = 'running', locked_by = 'dead', locked_at = $2 WHERE id = $1`, [id, clock.now()]);
    expect(await runner({ work: handler }).tick()).toBe(0);
    clock.advance(61_000);
    expect(await runner({ work: handler }).tick()).toBe(1);
    expect((await getJob(db, id))!.status).toBe('done');
  });
});
