/** Scheduled reports through the API: happy path, bad input, permission, another merchant's schedule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { billInput, DEMO_MAIL, getList, OTHER_MAIL, post, runFiles, scheduleRunner, SUB_MAIL } from './schedule.test-utils';

describe.each(DB_KINDS)('scheduled reports API (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  }, 120_000);
  afterAll(() => ctx?.close());

  it('creates, lists, edits, pauses, resumes and deletes a schedule', async () => {
    const c = await post(ctx, demo, 'create', billInput({ recipients: `${DEMO_MAIL}, ${SUB_MAIL.toUpperCase()}` }));
    expect(c.body.code, c.body.msg).toBe(0);
    const s = c.body.data;
    expect(s).toMatchObject({ kind: 'report.bill', frequency: 'daily', time: '08:00', timeZone: 'Asia/Shanghai', paused: false, lastResult: null });
    expect(s.recipients).toEqual([DEMO_MAIL, SUB_MAIL]);
    expect(new Date(s.nextRunAt).getTime()).toBeGreaterThan(ctx.clock.now().getTime());
    expect(new Date(s.nextRunAt).toISOString().slice(11, 16)).toBe('00:00');
    const { rows: jobs } = await ctx.db.query<{ status: string; run_at: Date }>('SELECT status, run_at FROM job WHERE unique_key = $1', [`report-schedule:${s.id}`]);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].run_at).toISOString()).toBe(s.nextRunAt);

    const list = await getList(ctx, demo);
    expect(list.body.data.content.map((x: { id: number }) => x.id)).toContain(s.id);

    const e = await post(ctx, demo, 'update', { id: s.id, ...billInput({ frequency: 'monthly', monthDay: 31, time: '23:30', timeZone: 'America/New_York', format: 'xlsx' }) });
    expect(e.body.code, e.body.msg).toBe(0);
    expect(e.body.data).toMatchObject({ frequency: 'monthly', monthDay: 31, weekday: null, format: 'xlsx' });

    const p = await post(ctx, demo, 'pause', { id: s.id });
    expect(p.body.data).toMatchObject({ paused: true, nextRunAt: null });
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM job WHERE unique_key = $1', [`report-schedule:${s.id}`])).rows[0].status).toBe('done');
    const r = await post(ctx, demo, 'resume', { id: s.id });
    expect(r.body.data.paused).toBe(false);
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM job WHERE unique_key = $1', [`report-schedule:${s.id}`])).rows[0].status).toBe('queued');

    expect((await post(ctx, demo, 'delete', { id: s.id })).body.code).toBe(0);
    expect((await getList(ctx, demo)).body.data.content.map((x: { id: number }) => x.id)).not.toContain(s.id);
    expect((await post(ctx, demo, 'pause', { id: s.id })).status).toBe(404);
  });

  it('sends now through the job runner: the e-mail with the file attached, the run in the file report', async () => {
    const s = (await post(ctx, demo, 'create', billInput({ recipients: `${DEMO_MAIL},${SUB_MAIL}` }))).body.data;
    const now = await post(ctx, demo, 'sendNow', { id: s.id });
    expect(now.body).toMatchObject({ code: 0, msg: 'The report is being sent' });
    expect(await (await scheduleRunner(ctx)).tick()).toBe(1);
    const mails = (await readOutbox(ctx.outbox)).filter((m) => m.subject.startsWith('Scheduled report'));
    expect(mails.map((m) => m.to).sort()).toEqual([DEMO_MAIL, SUB_MAIL].sort());
    expect(mails[0].attachments).toHaveLength(1);
    expect(mails[0].attachments[0].filename).toMatch(/\.csv$/);
    expect(mails[0].attachments[0].size).toBeGreaterThan(10);
    const files = await ctx.call({ method: 'GET', url: '/api/report/file/list', headers: { 'x-token': demo } });
    const f = files.body.data.content.find((x: { fileName: string }) => x.fileName === mails[0].attachments[0].filename);
    expect(f).toMatchObject({ status: 'ready', kind: 'report.bill', format: 'csv' });
    const after = (await getList(ctx, demo)).body.data.content.find((x: { id: number }) => x.id === s.id);
    expect(after).toMatchObject({ lastResult: 'sent', lastError: null, lastFileId: f.id });
    // The regular schedule is untouched by 'send now'.
    expect(after.nextRunAt).toBe(s.nextRunAt);
  });

  it('refuses bad input: impossible time, day 32 or 0, missing weekday, unknown zone, bad filters, foreign or unknown recipient', async () => {
    const bad: Record<string, string | number>[] = [
      billInput({ time: '25:00' }),
      billInput({ time: '24:00' }),
      billInput({ time: '8:00' }),
      billInput({ time: '12:60' }),
      billInput({ frequency: 'monthly', monthDay: 32 }),
      billInput({ frequency: 'monthly', monthDay: 0 }),
      billInput({ frequency: 'monthly' }),
      billInput({ frequency: 'weekly' }),
      billInput({ frequency: 'weekly', weekday: 8 }),
      billInput({ frequency: 'hourly' }),
      billInput({ timeZone: 'Mars/Olympus' }),
      billInput({ timeZone: '+08:00' }),
      billInput({ kind: 'report.secret' }),
      billInput({ format: 'pdf' }),
      billInput({ params: 'not json' }),
      billInput({ params: '[1,2]' }),
      billInput({ params: JSON.stringify({ beginDate: '2026-02-31', endDate: '2026-03-05' }) }),
      billInput({ params: JSON.stringify({ beginDate: '2026-09-07', endDate: '2026-09-01' }) }),
      billInput({ params: JSON.stringify({ beginDate: '2026-01-01', endDate: '2026-06-01' }) }),
      billInput({ recipients: '' }),
      billInput({ recipients: 'not-an-address' }),
      billInput({ recipients: `${DEMO_MAIL}\u0007` }),
    ];
    for (const b of bad) {
      const r = await post(ctx, demo, 'create', b);
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.body.code).toBe(400);
    }
    const foreign = await post(ctx, demo, 'create', billInput({ recipients: `${DEMO_MAIL},${OTHER_MAIL}` }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe(`${OTHER_MAIL} is not an active user of your merchant`);
    expect((await post(ctx, demo, 'create', billInput({ recipients: 'stranger@example.com' }))).status).toBe(400);
    // A user of the merchant who is no longer active is not a recipient either.
    await ctx.db.query(`UPDATE app_user SET status = 'DISABLED' WHERE username = $1`, [DEMO.users.sub]);
    expect((await post(ctx, demo, 'create', billInput({ recipients: SUB_MAIL }))).status).toBe(400);
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE username = $1`, [DEMO.users.sub]);
    // Day 31 is valid (a shorter month runs on its last day).
    const ok31 = await post(ctx, demo, 'create', billInput({ frequency: 'monthly', monthDay: 31 }));
    expect(ok31.body.code, ok31.body.msg).toBe(0);
    // The recipients the dialog offers: the merchant's users, never another merchant's.
    const rec = await ctx.call({ method: 'GET', url: '/api/report/schedule/recipients', headers: { 'x-token': demo } });
    const emails = rec.body.data.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining([DEMO_MAIL, SUB_MAIL]));
    expect(emails).not.toContain(OTHER_MAIL);
  });

  it('a sub-user needs the export permission of the report (and report:file); one lost before a run fails that run with the reason', async () => {
    const mine = await post(ctx, sub, 'create', billInput({ recipients: SUB_MAIL }));
    expect(mine.body.code, mine.body.msg).toBe(0);
    await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, Perm.reportBill]);
    const lost = await post(ctx, sub, 'create', billInput({ recipients: SUB_MAIL }));
    expect(lost.status).toBe(403);
    expect(
      (await post(ctx, sub, 'create', billInput({ kind: 'report.reserve', params: JSON.stringify({ releaseBeginDate: '2026-09-01', releaseEndDate: '2026-09-07' }), recipients: SUB_MAIL }))).body.code,
    ).toBe(0);
    // The run re-checks: skipped, recorded as failed with the reason, nothing mailed.
    const before = (await readOutbox(ctx.outbox)).length;
    expect((await post(ctx, sub, 'sendNow', { id: mine.body.data.id })).status).toBe(403);
    await ctx.db.query(`INSERT INTO job (kind, payload, run_at) VALUES ('report-schedule.now', $1, $2)`, [JSON.stringify({ scheduleId: mine.body.data.id }), ctx.clock.now()]);
    await (await scheduleRunner(ctx)).tick();
    expect((await readOutbox(ctx.outbox)).length).toBe(before);
    const files = await runFiles(ctx, mine.body.data.id);
    expect(files).toEqual([expect.objectContaining({ status: 'failed', error: 'Skipped: the owner no longer holds the permission report:bill' })]);
    const s = (await getList(ctx, sub)).body.data.content.find((x: { id: number }) => x.id === mine.body.data.id);
    expect(s).toMatchObject({ lastResult: 'failed', lastError: 'Skipped: the owner no longer holds the permission report:bill' });
    await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, Perm.reportFile]);
    expect((await getList(ctx, sub)).status).toBe(403);
    await ctx.db.query('UPDATE app_user SET permissions = permissions || $2::text[] WHERE username = $1', [DEMO.users.sub, [Perm.reportBill, Perm.reportFile]]);
  });

  it("a merchant filter outside the owner's scope is refused; one inside narrows the run to it; a run never widens (issue 28)", async () => {
    const txn = (merId: string, over: Record<string, string> = {}) =>
      billInput({ kind: 'txn', params: JSON.stringify({ beginDate: '2026-09-01 00:00:00', endDate: '2026-09-07 23:59:59', merId }), recipients: SUB_MAIL, ...over });
    // The sub-user (scope: sub-merchant A) names its sibling B, and the group user another merchant.
    const sibling = await post(ctx, sub, 'create', txn(DEMO.subB));
    expect(sibling.status).toBe(400);
    expect(sibling.body).toMatchObject({ code: Code.BAD_REQUEST, msg: `Merchant ${DEMO.subB} is not one of your merchants` });
    const foreign = await ctx.call({
      method: 'POST',
      url: '/api/report/schedule/create',
      headers: { 'x-token': demo, 'accept-language': 'zh', ...form(txn(DEMO.other)).headers },
      payload: form(txn(DEMO.other)).payload,
    });
    expect(foreign.body).toMatchObject({ code: Code.BAD_REQUEST, msg: `商户 ${DEMO.other} 不在您的商户范围内` });
    const count = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM report_schedule')).rows[0].n;
    const before = await count();
    const good = await post(ctx, demo, 'create', txn(DEMO.subA));
    expect(good.body.code, good.body.msg).toBe(0);
    expect(await count()).toBe(before + 1);
    expect((await post(ctx, demo, 'update', { id: good.body.data.id, ...txn(DEMO.other) })).status).toBe(400);
    const stored = await ctx.db.query<{ scope: string[] }>('SELECT scope FROM report_schedule WHERE id = $1', [good.body.data.id]);
    expect(stored.rows[0].scope).toEqual([DEMO.subA]);
    // A run: the file covers the filter's merchant only.
    await post(ctx, demo, 'sendNow', { id: good.body.data.id });
    await (await scheduleRunner(ctx)).tick();
    const file = await ctx.db.query<{ scope: string[]; status: string }>('SELECT scope, status FROM export_file WHERE schedule_id = $1', [good.body.data.id]);
    expect(file.rows).toEqual([{ scope: [DEMO.subA], status: 'ready' }]);
    // A schedule saved before the check, naming a merchant outside its scope: the run fails, nothing wider is made or mailed.
    await ctx.db.query(`UPDATE report_schedule SET params = $2, scope = $3 WHERE id = $1`, [
      good.body.data.id,
      JSON.stringify({ beginDate: '2026-09-01 00:00:00', endDate: '2026-09-07 23:59:59', merId: DEMO.other }),
      [DEMO.group, DEMO.subA, DEMO.subB],
    ]);
    const mails = (await readOutbox(ctx.outbox)).length;
    await post(ctx, demo, 'sendNow', { id: good.body.data.id });
    await (await scheduleRunner(ctx)).tick();
    expect((await readOutbox(ctx.outbox)).length).toBe(mails);
    const files = await runFiles(ctx, good.body.data.id);
    expect(files.at(-1)).toMatchObject({ status: 'failed', error: "Skipped: the report's merchant is no longer among the owner's merchants" });
  });

  it("another merchant's schedule answers 404 to every call and never shows", async () => {
    const o = await post(ctx, other, 'create', billInput({ recipients: OTHER_MAIL }));
    expect(o.body.code, o.body.msg).toBe(0);
    const id = o.body.data.id;
    for (const path of ['pause', 'resume', 'delete', 'sendNow']) {
      const r = await post(ctx, demo, path, { id });
      expect(r.status, path).toBe(404);
    }
    expect((await post(ctx, demo, 'update', { id, ...billInput() })).status).toBe(404);
    expect((await getList(ctx, demo)).body.data.content.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await getList(ctx, other)).body.data.content.map((x: { id: number }) => x.id)).toEqual([id]);
    // demo's own schedule is equally absent for the other merchant.
    const mine = (await post(ctx, demo, 'create', billInput())).body.data.id;
    expect((await post(ctx, other, 'delete', { id: mine })).status).toBe(404);
  });

  it('schedules the transaction list with its filters', async () => {
    const params = JSON.stringify({ beginDate: '2026-11-01 00:00:00', endDate: '2026-11-07 23:59:59', gwResponse: '00' });
    const r = await post(ctx, demo, 'create', billInput({ kind: 'txn', params, frequency: 'weekly', weekday: 1, format: 'xlsx' }));
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data.params).toMatchObject({ gwResponse: '00' });
    expect((await post(ctx, demo, 'create', billInput({ kind: 'txn', params: JSON.stringify({ beginDate: '2026-11-01' }) }))).status).toBe(400);
  });
});
