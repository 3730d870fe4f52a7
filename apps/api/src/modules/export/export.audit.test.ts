import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { createOrder } from '../paybylink/paybylink.fixtures';
import { createPis } from '../store/payinstore.fixtures';
import { billInput, post, scheduleRunner, SUB_MAIL } from '../schedule/schedule.test-utils';
import { drainExports } from './export.service';

/**
 * Issue 28 (outside review): every export — transactions, reports, pay by link, in store; streamed,
 * queued or a scheduled report's run — and every change of a scheduled report leaves an audit
 * entry with its filters and row count.
 */
describe.each(DB_KINDS)('exports and scheduled reports are audited (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  type Entry = { action: string; outcome: string; username: string | null; mer_id: string | null; target: string | null; ip: string | null; detail: Record<string, any> };
  const entries = async (action: string, where = 'true', params: unknown[] = []) =>
    (await ctx.db.query<Entry>(`SELECT action, outcome, username, mer_id, target, ip, detail FROM audit_log WHERE action = $1 AND ${where} ORDER BY id`, [action, ...params])).rows;
  /** The streamed download's entry is written when its file is complete: poll for it. */
  const eventually = async (action: string, kindOf: string, n: number) => {
    for (let i = 0; i < 500; i++) {
      const rows = await entries(action, `detail->>'kind' = $2`, [kindOf]);
      if (rows.length >= n) return rows;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${action} entry for ${kindOf}`);
  };
  const lines = (raw: string) =>
    raw
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter(Boolean);
  const get = (url: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': demo }, remoteAddress: '127.0.0.9' });

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    await addTxn(ctx);
    await addTxn(ctx);
    await createOrder(ctx, demo);
    await createPis(ctx, demo, DEMO.stores.nanjingRoad);
  }, 120_000);
  afterAll(() => ctx?.close());

  it('each streamed download: who, from where, its filters, merchants and row count', async () => {
    const cases = [
      ['txn', `/api/txn/export?format=csv&beginDate=2026-11-01%2000:00:00&endDate=2026-11-30%2023:59:59&merId=${DEMO.subA}`, { merId: DEMO.subA, beginDate: '2026-11-01 00:00:00' }],
      ['report.bill', '/api/report/bill/export?format=csv&beginDate=2026-09-01&endDate=2026-09-07', { beginDate: '2026-09-01', endDate: '2026-09-07' }],
      ['paybylink', '/api/payByLink/export?format=csv&status=02', { status: '02' }],
      ['payinstore', `/api/payInStore/export?format=csv&storeId=${DEMO.stores.nanjingRoad}`, { storeId: DEMO.stores.nanjingRoad }],
    ] as const;
    for (const [k, url, filters] of cases) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      const rows = lines((r.body as unknown as { raw: string }).raw).length - 1;
      const [e] = await eventually('export.download', k, 1);
      expect(e, k).toMatchObject({ outcome: 'success', username: DEMO.users.demo, mer_id: DEMO.group, ip: '127.0.0.9', detail: { kind: k, format: 'csv', rows, params: filters } });
      expect(e.target, k).toMatch(/\.csv$/);
      if (k === 'txn') expect(e.detail.scope).toEqual([DEMO.subA]);
      if (k !== 'report.bill') expect(rows, k).toBeGreaterThan(0);
    }
  });

  it('a queued export: an entry when the worker has written the file, with its row count', async () => {
    const q = await get('/api/txn/exportBack?format=csv&beginDate=2026-11-01%2000:00:00&endDate=2026-11-30%2023:59:59');
    expect(q.body.code, q.body.msg).toBe(0);
    await drainExports(ctx.deps);
    const file = (await ctx.db.query<{ id: number; row_count: number }>('SELECT id, row_count FROM export_file WHERE id = $1', [q.body.data.id])).rows[0];
    expect(file.row_count).toBe(2);
    const [e] = await entries('export.file', `(detail->>'fileId')::int = $2`, [file.id]);
    expect(e).toMatchObject({ outcome: 'success', username: DEMO.users.demo, detail: { kind: 'txn', rows: 2, fileId: file.id, params: { beginDate: '2026-11-01 00:00:00' } } });
  });

  it('every change of a scheduled report and every run, with filters, recipients and row count', async () => {
    const c = await post(ctx, demo, 'create', billInput({ recipients: SUB_MAIL }));
    expect(c.body.code, c.body.msg).toBe(0);
    const id = c.body.data.id as number;
    expect((await post(ctx, demo, 'update', { id, ...billInput({ recipients: SUB_MAIL, format: 'xlsx' }) })).body.code).toBe(0);
    await post(ctx, demo, 'pause', { id });
    await post(ctx, demo, 'resume', { id });
    await post(ctx, demo, 'sendNow', { id });
    expect(await (await scheduleRunner(ctx)).tick()).toBe(1);
    await post(ctx, demo, 'delete', { id });
    const all = (await ctx.db.query<Entry>(`SELECT action, outcome, username, target, detail FROM audit_log WHERE target = $1 ORDER BY id`, [`schedule:${id}`])).rows;
    expect(all.map((e) => e.action)).toEqual([
      'report.schedule.create',
      'report.schedule.update',
      'report.schedule.pause',
      'report.schedule.resume',
      'report.schedule.send_now',
      'report.schedule.run',
      'report.schedule.delete',
    ]);
    expect(all[0].detail).toMatchObject({ scheduleId: id, kind: 'report.bill', format: 'csv', params: { beginDate: '2026-09-01', endDate: '2026-09-07' }, recipients: [SUB_MAIL] });
    expect(all[1].detail).toMatchObject({ before: { format: 'csv' }, after: { format: 'xlsx' } });
    const run = all[5];
    expect(run).toMatchObject({ outcome: 'success', username: DEMO.users.demo, detail: { scheduleId: id, kind: 'report.bill', recipients: [SUB_MAIL], error: null } });
    const file = (await ctx.db.query<{ row_count: number }>('SELECT row_count FROM export_file WHERE id = $1', [run.detail.fileId])).rows[0];
    expect(run.detail.rows).toBe(file.row_count);
    // the run's file is audited as a written export too
    expect(await entries('export.file', `(detail->>'scheduleId')::int = $2`, [id])).toHaveLength(1);
  });
});
