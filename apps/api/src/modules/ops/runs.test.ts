import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, isConcurrent, type TestCtx } from '../../../test/helpers';
import { addDays, platformDate } from '../payments/time';
import { ingestTransaction } from '../payments/ingest.service';
import { settleDate } from '../payments/settlement/settle.run';
import { settlementJob } from '../payments/settlement/settle.schedule';
import { addOperator, opsLogin } from './ops.fixtures';

const SG = '200000000000001';

/**
 * The back office's runs screen (issue 26, decision 045): settlement runs per date and their
 * re-run (idempotent: every figure equal after any number of re-runs; late transactions settle on a
 * later date, never back-dated; one re-run of a date at a time), the export queue, failed jobs and
 * their retry, gateway connections; roles, bad input in four languages, audit. Both engines.
 */
describe.each(DB_KINDS)('ops runs (%s)', (kind) => {
  let ctx: TestCtx;
  let admin: string;
  let support: string;
  let reader: string;
  let onboarding: string;
  let base: string;
  let seq = 0;
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });
  const tz = () => ctx.deps.config.platformTz;

  async function txn(day: string, amount = 10000): Promise<number> {
    const r = await ingestTransaction(
      ctx.db,
      { merId: SG, orderNo: `R${kind}${++seq}`, tranType: 'PURC', amount, currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa', gwResponse: '00', txnTime: new Date(`${day}T04:00:00Z`) },
      { platformTz: tz() },
    );
    return r.id;
  }

  /** Every figure settlement writes: rows, transactions' settlement fields, reserves, summary, the run. */
  async function figures() {
    const q = async (sql: string) => JSON.stringify((await ctx.db.query(sql)).rows);
    return [
      await q('SELECT * FROM settlement ORDER BY txn_set_date, mer_id, bus_line, set_cur'),
      await q('SELECT id, settle_flag, settle_date, settle_currency, fx_rate, settle_amount, settle_fee FROM txn ORDER BY id'),
      await q('SELECT mer_id, bus_line, set_cur, txn_set_date, amount, release_date, released, transfer_date FROM reserve ORDER BY 1,2,3,4'),
      await q('SELECT * FROM settlement_summary ORDER BY 1,2,3,4,5,6,7'),
      await q('SELECT run_date, txn_count, row_count FROM settlement_run ORDER BY run_date'),
      await q('SELECT * FROM settle_late ORDER BY txn_id'),
    ];
  }

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const a = await addOperator(ctx, 'rn-admin', 'administrator');
    const s = await addOperator(ctx, 'rn-support', 'support');
    const r = await addOperator(ctx, 'rn-reader', 'read-only');
    const o = await addOperator(ctx, 'rn-onboarding', 'onboarding');
    admin = await opsLogin(ctx, 'rn-admin', a.secret);
    support = await opsLogin(ctx, 'rn-support', s.secret);
    reader = await opsLogin(ctx, 'rn-reader', r.secret);
    onboarding = await opsLogin(ctx, 'rn-onboarding', o.secret);
    base = addDays(platformDate(ctx.clock.now(), tz()), -10);
    await txn(addDays(base, -3), 12345);
    await txn(addDays(base, -2), 50000);
    await txn(addDays(base, -1), 777);
  });
  afterAll(() => ctx?.close());

  it('re-runs a date: the gap first, then the date; listed with totals per currency and the operator; audited', async () => {
    const res = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${base}/rerun`, headers: h(admin) });
    expect(res.body.code, res.body.msg).toBe(0);
    expect(res.body.data).toMatchObject({ date: base, skipped: false });
    expect(res.body.data.alsoRan.length).toBeGreaterThan(0);
    const list = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(support), query: { from: addDays(base, -30), to: base } });
    expect(list.body.code, list.body.msg).toBe(0);
    const day = list.body.data.content.find((d: { date: string }) => d.date === base);
    expect(day).toMatchObject({ state: 'done', attempts: [{ state: 'done', trigger: 'operator', operator: 'rn-admin' }] });
    const all = list.body.data.content.flatMap((d: { totals: { currency: string; txnCount: number }[] }) => d.totals);
    expect(all.filter((t: { currency: string }) => t.currency === 'SGD').reduce((n: number, t: { txnCount: number }) => n + t.txnCount, 0)).toBe(3);
    const log = await ctx.db.query<{ detail: { before: { settled: boolean }; after: { settled: boolean } }; ip: string | null }>(
      `SELECT detail, ip FROM audit_log WHERE action = 'ops.settlement.rerun' AND target = $1 ORDER BY id DESC LIMIT 1`,
      [`settlement:${base}`],
    );
    expect(log.rows[0].detail.before.settled).toBe(false);
    expect(log.rows[0].detail.after.settled).toBe(true);
    expect(log.rows[0].ip).toBeTruthy();
  });

  it('re-running a settled date any number of times leaves every figure equal; a late transaction settles on the next date, never back in time', async () => {
    const before = await figures();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -5, max: 0 }), { minLength: 1, maxLength: 4 }), async (offsets) => {
        for (const o of offsets) {
          const res = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${addDays(base, o)}/rerun`, headers: h(admin) });
          expect(res.body.code, res.body.msg).toBe(0);
          expect(res.body.data.skipped).toBe(true);
        }
        expect(await figures()).toEqual(before);
      }),
      { numRuns: 5 },
    );
    // A transaction of an already settled date arrives late: re-running its date does not take it.
    const late = await txn(addDays(base, -2), 999);
    const again = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${addDays(base, -1)}/rerun`, headers: h(admin) });
    expect(again.body.data.skipped).toBe(true);
    const t0 = await ctx.db.query<{ settle_date: string | null }>('SELECT settle_date::text AS settle_date FROM txn WHERE id = $1', [late]);
    expect(t0.rows[0].settle_date).toBeNull();
    const next = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${addDays(base, 1)}/rerun`, headers: h(admin) });
    expect(next.body.data).toMatchObject({ skipped: false, txnCount: 1 });
    const t1 = await ctx.db.query<{ settle_date: string }>('SELECT settle_date::text AS settle_date FROM txn WHERE id = $1', [late]);
    expect(t1.rows[0].settle_date).toBe(addDays(base, 1));
    const after = await figures();
    const again2 = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${addDays(base, 1)}/rerun`, headers: h(admin) });
    expect(again2.body.data.skipped).toBe(true);
    expect(await figures()).toEqual(after);
  });

  it('bad input: a malformed date, a future date, a bad range — clear messages in the four languages', async () => {
    const bad = await ctx.call({ method: 'POST', url: '/api/ops/runs/settlement/2026-13-45/rerun', headers: h(admin) });
    expect(bad.status).toBe(400);
    const future = addDays(platformDate(ctx.clock.now(), tz()), 1);
    const msgs: string[] = [];
    for (const lang of ['en', 'zh', 'ko', 'ja']) {
      const res = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${future}/rerun`, headers: h(admin, lang) });
      expect(res.status).toBe(400);
      msgs.push(res.body.msg);
    }
    expect(msgs[0]).toMatch(/up to yesterday/);
    expect(msgs[1]).toMatch(/昨天/);
    expect(msgs[2]).toMatch(/어제/);
    expect(msgs[3]).toMatch(/昨日/);
    const range = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(admin), query: { from: base, to: addDays(base, -1) } });
    expect(range.status).toBe(400);
    const long = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(admin), query: { from: addDays(base, -200), to: base } });
    expect(long.status).toBe(400);
    const status = await ctx.call({ method: 'GET', url: '/api/ops/runs/jobs', headers: h(admin), query: { status: 'exploded' } });
    expect(status.status).toBe(400);
  });

  it('roles: support reads; support, read-only and onboarding may not re-run or retry; onboarding and read-only do not read', async () => {
    for (const url of ['/api/ops/runs/exports', '/api/ops/runs/jobs', '/api/ops/runs/gateways']) {
      expect((await ctx.call({ method: 'GET', url, headers: h(support) })).body.code).toBe(0);
      expect((await ctx.call({ method: 'GET', url, headers: h(reader) })).status).toBe(403);
      expect((await ctx.call({ method: 'GET', url, headers: h(onboarding) })).status).toBe(403);
    }
    for (const token of [support, reader, onboarding]) {
      const r = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${base}/rerun`, headers: h(token) });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(Code.FORBIDDEN);
      expect((await ctx.call({ method: 'POST', url: '/api/ops/runs/jobs/1/retry', headers: h(token) })).status).toBe(403);
    }
  });

  it('retries only a failed job: the same row and idempotency key queued again, audited; 404 and 409 otherwise', async () => {
    const { rows } = await ctx.db.query<{ id: string }>(
      `INSERT INTO job (kind, unique_key, payload, status, attempts, error, finished_at) VALUES ('webhook.mail', 'webhook.mail:rn:1', '{"endpointId":1}', 'failed', 3, 'smtp down', now()) RETURNING id`,
    );
    const id = Number(rows[0].id);
    const done = await ctx.db.query<{ id: string }>(`INSERT INTO job (kind, unique_key, status) VALUES ('webhook.mail', 'webhook.mail:rn:2', 'done') RETURNING id`);
    const list = await ctx.call({ method: 'GET', url: '/api/ops/runs/jobs', headers: h(support), query: { status: 'failed' } });
    expect(list.body.data.find((j: { id: number }) => j.id === id)).toMatchObject({ kind: 'webhook.mail', key: 'webhook.mail:rn:1', error: 'smtp down', attempts: 3 });
    const res = await ctx.call({ method: 'POST', url: `/api/ops/runs/jobs/${id}/retry`, headers: h(admin) });
    expect(res.body.code, res.body.msg).toBe(0);
    const j = await ctx.db.query<{ status: string; attempts: number; unique_key: string; payload: unknown; error: string | null }>(
      'SELECT status, attempts, unique_key, payload, error FROM job WHERE id = $1',
      [id],
    );
    expect(j.rows[0]).toEqual({ status: 'queued', attempts: 0, unique_key: 'webhook.mail:rn:1', payload: { endpointId: 1 }, error: null });
    const again = await ctx.call({ method: 'POST', url: `/api/ops/runs/jobs/${id}/retry`, headers: h(admin, 'zh') });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/失败/);
    expect((await ctx.call({ method: 'POST', url: `/api/ops/runs/jobs/${done.rows[0].id}/retry`, headers: h(admin) })).status).toBe(409);
    expect((await ctx.call({ method: 'POST', url: '/api/ops/runs/jobs/999999999/retry', headers: h(admin) })).status).toBe(404);
    expect((await ctx.call({ method: 'POST', url: '/api/ops/runs/jobs/abc/retry', headers: h(admin) })).status).toBe(400);
    const log = await ctx.db.query<{ detail: { before: { status: string }; after: { status: string } }; username: string }>(
      `SELECT detail, username FROM audit_log WHERE action = 'ops.job.retry' AND target = $1`,
      [`job:${id}`],
    );
    expect(log.rows).toHaveLength(1);
    expect(log.rows[0]).toMatchObject({ username: 'rn-admin', detail: { before: { status: 'failed' }, after: { status: 'queued' } } });
  });

  it('lists exports with merchant, kind, requester, size, and gateway connections with the last import', async () => {
    await ctx.db.query(
      `INSERT INTO export_file (user_id, mer_id, kind, scope, format, file_name, status, size_bytes, row_count, finished_at)
       SELECT id, $1::text, 'txn', ARRAY[$1::text], 'csv', 'rn.csv', 'ready', 2048, 10, now() FROM app_user WHERE username = 'demo'`,
      [SG],
    );
    await ctx.db.query(`INSERT INTO gateway_connection (id, name, merchants) VALUES ('rn-gw', 'Runs gateway', ARRAY[$1::text]) ON CONFLICT DO NOTHING`, [SG]);
    await ctx.db.query(
      `INSERT INTO import_file (file_hash, file_name, connection_id, format, status, rows_read, accepted, duplicate, rejected, finished_at)
       VALUES ('rn-hash', 'day.csv', 'rn-gw', 'csv', 'done', 10, 7, 1, 2, now())`,
    );
    const ex = await ctx.call({ method: 'GET', url: '/api/ops/runs/exports', headers: h(support) });
    expect(ex.body.data.find((e: { fileName?: string; merId: string; sizeBytes: number }) => e.merId === SG && e.sizeBytes === 2048)).toMatchObject({
      kind: 'txn',
      requestedBy: 'demo',
      status: 'ready',
      scheduled: false,
    });
    const gw = await ctx.call({ method: 'GET', url: '/api/ops/runs/gateways', headers: h(support) });
    expect(gw.body.data.find((g: { id: string }) => g.id === 'rn-gw')).toMatchObject({ merchants: [SG], imports: 1, lastImport: { fileName: 'day.csv', accepted: 7, duplicate: 1, rejected: 2 } });
  });

  it('the runs routes are in the ops document with their roles; the development failed job answers loopback callers only', async () => {
    const doc = await ctx.call({ method: 'GET', url: '/api/ops/docs/json' });
    const paths = (doc.body as unknown as { paths: Record<string, Record<string, { description?: string }>> }).paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/ops/runs/settlement',
        '/api/ops/runs/settlement/{date}/rerun',
        '/api/ops/runs/exports',
        '/api/ops/runs/jobs',
        '/api/ops/runs/jobs/{id}/retry',
        '/api/ops/runs/gateways',
      ]),
    );
    expect(paths['/api/ops/runs/jobs'].get.description).toContain('risk, support');
    expect(paths['/api/ops/runs/jobs/{id}/retry'].post.description).toBe('Roles: administrator.');
    const far = await ctx.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress: '203.0.113.9', headers: { host: 'localhost' } });
    expect(far.status).toBe(404);
    const near = await ctx.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress: '127.0.0.1' });
    expect(near.body.code, near.body.msg).toBe(0);
    const j = await ctx.db.query<{ status: string; kind: string }>('SELECT status, kind FROM job WHERE id = $1', [near.body.data.id]);
    expect(j.rows[0]).toEqual({ status: 'failed', kind: 'dev.example' });
  });

  it.runIf(isConcurrent(kind))('two re-runs of one date at once: one runs, the other is refused or finds it done — settled once', async () => {
    const d = addDays(base, 3);
    await txn(addDays(d, -1), 4242);
    const [a, b] = await Promise.all([0, 1].map(() => ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${d}/rerun`, headers: h(admin) })));
    const ran = [a, b].filter((r) => r.body.code === 0 && r.body.data.skipped === false);
    expect(ran).toHaveLength(1);
    for (const r of [a, b].filter((x) => x !== ran[0])) expect(r.status === 409 || r.body.data?.skipped === true).toBe(true);
    const n = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM settlement_run WHERE run_date = $1', [d]);
    expect(n.rows[0].n).toBe(1);
    // The daily job's own run of the date at the same moment: the table lock makes it wait, then skip.
    expect((await settleDate(ctx.db, d)).skipped).toBe(true);
    const running = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM settlement_run_log WHERE state = 'running'`);
    expect(running.rows[0].n).toBe(0);
  });
  it('the daily job records each date it settles (trigger job); the screen shows it', async () => {
    const yesterday = addDays(platformDate(ctx.clock.now(), tz()), -1);
    await txn(addDays(yesterday, -1), 3131);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    await settlementJob(tz())({ db: ctx.db, clock: ctx.clock, heartbeat: async () => undefined, log: quiet } as never);
    const list = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(support), query: { from: addDays(yesterday, -5), to: yesterday } });
    const day = list.body.data.content.find((d: { date: string }) => d.date === yesterday);
    expect(day).toMatchObject({ state: 'done', attempts: [{ state: 'done', trigger: 'job', operator: null }] });
    expect(list.body.data.lastRunDate).toBe(yesterday);
  });
});
