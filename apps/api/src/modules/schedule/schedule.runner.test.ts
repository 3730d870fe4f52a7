/**
 * Scheduled reports through the durable job runner, on the injectable clock: runs at the zone's
 * wall-clock time across a DST change, one catch-up run after a restart (not a burst), paused
 * schedules wait, and two runners at once run each due schedule exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, isConcurrent, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { billInput, post, runFiles, scheduleRunner } from './schedule.test-utils';

describe.each(DB_KINDS)('scheduled reports in the job runner (%s)', (kind) => {
  let ctx: TestCtx;
  const nextRunOf = async (id: number) => {
    const { rows } = await ctx.db.query<{ next_run_at: Date; run_at: Date; status: string }>(
      `SELECT s.next_run_at, j.run_at, j.status FROM report_schedule s JOIN job j ON j.unique_key = 'report-schedule:' || s.id WHERE s.id = $1`,
      [id],
    );
    return { next: new Date(rows[0].next_run_at).toISOString(), job: new Date(rows[0].run_at).toISOString(), status: rows[0].status };
  };
  const create = async (over: Record<string, string | number> = {}) => {
    const token = (await ctx.login()).token;
    const r = await post(ctx, token, 'create', billInput({ time: '09:00', timeZone: 'America/New_York', ...over }));
    expect(r.body.code, r.body.msg).toBe(0);
    return r.body.data.id as number;
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  }, 120_000);
  afterAll(() => ctx?.close());

  it('runs at 09:00 New York time on both sides of the spring DST change, then waits for the next day', async () => {
    ctx.clock.set('2026-03-06T12:00:00Z');
    const id = await create();
    expect(await nextRunOf(id)).toEqual({ next: '2026-03-06T14:00:00.000Z', job: '2026-03-06T14:00:00.000Z', status: 'queued' });
    const runner = await scheduleRunner(ctx);
    ctx.clock.set('2026-03-06T13:59:59Z');
    expect(await runner.tick()).toBe(0);
    ctx.clock.set('2026-03-06T14:00:00Z');
    expect(await runner.tick()).toBe(1);
    // The saved range (7 days, 1–7 Sep) moved to end the day before the run, in New York.
    const { rows: p } = await ctx.db.query<{ params: Record<string, string> }>('SELECT params FROM export_file WHERE schedule_id = $1', [id]);
    expect(p[0].params).toMatchObject({ beginDate: '2026-02-27', endDate: '2026-03-05' });
    expect(await nextRunOf(id)).toMatchObject({ next: '2026-03-07T14:00:00.000Z', job: '2026-03-07T14:00:00.000Z', status: 'queued' });
    ctx.clock.set('2026-03-07T14:00:30Z');
    expect(await runner.tick()).toBe(1);
    // 09:00 EDT on Sunday 8 March is 13:00Z.
    expect((await nextRunOf(id)).next).toBe('2026-03-08T13:00:00.000Z');
    ctx.clock.set('2026-03-08T13:00:00Z');
    expect(await runner.tick()).toBe(1);
    expect((await nextRunOf(id)).next).toBe('2026-03-09T13:00:00.000Z');
    const files = await runFiles(ctx, id);
    expect(files.map((f) => f.status)).toEqual(['ready', 'ready', 'ready']);
    await post(ctx, (await ctx.login()).token, 'delete', { id });
  });

  it('after a restart catches up once (not once per missed day) and goes on from now', async () => {
    ctx.clock.set('2026-04-01T12:00:00Z');
    const id = await create();
    expect((await nextRunOf(id)).next).toBe('2026-04-01T13:00:00.000Z');
    // The server is down for five days; on start, the runner's set-up also re-arms a lost job row.
    await ctx.db.query(`DELETE FROM job WHERE unique_key = $1`, [`report-schedule:${id}`]);
    ctx.clock.set('2026-04-06T20:00:00Z');
    const runner = await scheduleRunner(ctx, 'after-restart');
    const mailsBefore = (await readOutbox(ctx.outbox, 500)).length;
    expect(await runner.tick()).toBe(1);
    expect(await runner.tick()).toBe(0);
    expect(await runFiles(ctx, id)).toHaveLength(1);
    expect((await readOutbox(ctx.outbox, 500)).length).toBe(mailsBefore + 1);
    expect(await nextRunOf(id)).toMatchObject({ next: '2026-04-07T13:00:00.000Z', status: 'queued' });
    const { rows } = await ctx.db.query<{ last_result: string; last_run_at: Date }>('SELECT last_result, last_run_at FROM report_schedule WHERE id = $1', [id]);
    expect(rows[0]).toMatchObject({ last_result: 'sent' });
    expect(new Date(rows[0].last_run_at).toISOString()).toBe('2026-04-06T20:00:00.000Z');
    await post(ctx, (await ctx.login()).token, 'delete', { id });
  });

  it('a paused schedule does not run when its time passes; resumed, it runs at the next time from now', async () => {
    ctx.clock.set('2026-05-01T12:00:00Z');
    const id = await create({ frequency: 'monthly', monthDay: 31 });
    expect((await nextRunOf(id)).next).toBe('2026-05-31T13:00:00.000Z');
    const token = (await ctx.login()).token;
    await post(ctx, token, 'pause', { id });
    ctx.clock.set('2026-06-02T00:00:00Z');
    const runner = await scheduleRunner(ctx);
    expect(await runner.tick()).toBe(0);
    expect(await runFiles(ctx, id)).toHaveLength(0);
    await post(ctx, (await ctx.login()).token, 'resume', { id });
    // June has 30 days: the 30th, 09:00 EDT.
    expect((await nextRunOf(id)).next).toBe('2026-06-30T13:00:00.000Z');
    await post(ctx, (await ctx.login()).token, 'delete', { id });
  });

  it(`runs each due schedule exactly once with two runners at once${isConcurrent(kind) ? ' (concurrent PostgreSQL connections)' : ''}`, async () => {
    ctx.clock.set('2026-07-01T12:00:00Z');
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create({ time: `0${i}:30`, timeZone: 'UTC' }));
    ctx.clock.set('2026-07-02T07:00:00Z');
    const [a, b] = [await scheduleRunner(ctx, 'runner-a'), await scheduleRunner(ctx, 'runner-b')];
    const counts = await Promise.all([a.tick(), b.tick()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(6);
    for (const id of ids) expect(await runFiles(ctx, id), `schedule ${id}`).toHaveLength(1);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE kind = 'report-schedule' AND status = 'queued' AND run_at = '2026-07-03T00:30:00Z'`);
    expect(rows[0].n).toBe(1);
  });
});
