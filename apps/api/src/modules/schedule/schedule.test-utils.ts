/** Helpers of the schedule tests: form posts, a valid input, the job runner with the schedule handlers. */
import type { TestCtx } from '../../../test/helpers';
import { form } from '../../../test/helpers';
import { createJobRunner } from '../../jobs/runner';
import { setUpScheduleJobs } from './schedule.jobs';

export const DEMO_MAIL = 'demo@demo-group.example';
export const SUB_MAIL = 'demo-sub@demo-group.example';
export const OTHER_MAIL = 'main@other.example';

/** A bill report every morning at 08:00 Shanghai time, to the demo user. */
export const billInput = (over: Record<string, string | number> = {}) => ({
  kind: 'report.bill',
  params: JSON.stringify({ beginDate: '2026-09-01', endDate: '2026-09-07' }),
  format: 'csv',
  frequency: 'daily',
  time: '08:00',
  timeZone: 'Asia/Shanghai',
  recipients: DEMO_MAIL,
  ...over,
});

export async function post(ctx: TestCtx, token: string, path: string, body: Record<string, string | number>) {
  return ctx.call({ method: 'POST', url: `/api/report/schedule/${path}`, headers: { 'x-token': token, ...form(body).headers }, payload: form(body).payload });
}
export const getList = (ctx: TestCtx, token: string) => ctx.call({ method: 'GET', url: '/api/report/schedule/list?size=50', headers: { 'x-token': token } });

const quiet = { info: () => undefined, error: () => undefined };
/** A job runner (as a started server has) with the schedule handlers, on the test clock. */
export async function scheduleRunner(ctx: TestCtx, workerId = 'w1') {
  const handlers = await setUpScheduleJobs(ctx.deps);
  return createJobRunner({ db: ctx.db, clock: ctx.clock, log: quiet, handlers, workerId });
}

/** The files of a schedule's runs (export_file rows). */
export async function runFiles(ctx: TestCtx, scheduleId: number) {
  const { rows } = await ctx.db.query<{ id: number; status: string; error: string | null; row_count: number | null }>(
    'SELECT id, status, error, row_count FROM export_file WHERE schedule_id = $1 ORDER BY id',
    [scheduleId],
  );
  return rows;
}
