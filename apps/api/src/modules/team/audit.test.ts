import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMonths } from '../../db/partitions';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { drainExports, exportDir } from '../export/export.service';
import { audit } from '../../lib/audit';
import { AUDIT_PURGE_JOB, purgeAudit, setUpTeamJobs } from './audit.service';
import type { JobContext } from '../../jobs/runner';

/** The audit log viewer (issue 12): scope, filters, paging, CSV export through the queue, retention. */
describe.each(DB_KINDS)('team: audit viewer (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  let sub: string;
  let other: string;
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number>) => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token }, payload: f.payload });
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    main = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    await post('/api/user/add', main, { userName: 'audited', email: 'audited@x.example', merIds: DEMO.subB, role: 'FINANCE' });
  }, 180_000);
  afterAll(async () => ctx?.close());

  it("lists the scope's events newest first with who, what, target, address, time; not another merchant's", async () => {
    const r = await get('/api/audit/list?page=0&size=50', main);
    expect(r.body.code).toBe(0);
    const rows = r.body.data.content as { action: string; userName: string; target: string; ip: string; time: string; merId: string }[];
    expect(rows[0]).toMatchObject({ action: 'account.activation.sent', userName: 'audited' });
    expect(rows.find((x) => x.action === 'user.add')).toMatchObject({ userName: DEMO.users.demo, target: 'audited', merId: DEMO.subB, ip: '127.0.0.1' });
    expect(
      rows
        .filter((x) => x.action === 'auth.login')
        .map((x) => x.userName)
        .sort(),
    ).toEqual([DEMO.users.demo, DEMO.users.sub]);
    expect(rows.some((x) => x.userName === DEMO.users.other)).toBe(false);
    expect(rows[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const theirs = await get('/api/audit/list', other);
    expect(theirs.body.data.content.every((x: { merId: string }) => x.merId === DEMO.other)).toBe(true);
  });

  it('filters by event type, user and days; pages', async () => {
    const users = await get('/api/audit/list?eventType=user', main);
    expect(users.body.data.content.map((x: { action: string }) => x.action)).toEqual(['user.add']);
    const signIns = await get('/api/audit/list?eventType=signIn&userName=DEMO-SUB', main);
    expect(signIns.body.data.content.length).toBeGreaterThan(0);
    expect(signIns.body.data.content.every((x: { userName: string; action: string }) => x.userName === DEMO.users.sub && x.action.startsWith('auth.'))).toBe(true);
    const past = await get('/api/audit/list?beginDate=2020-01-01&endDate=2020-01-31', main);
    expect(past.body.data).toEqual({ content: [], totalElements: 0 });
    const page = await get('/api/audit/list?page=0&size=5', main);
    expect(page.body.data.content).toHaveLength(5);
    const all = await get('/api/audit/list?size=100', main);
    expect(page.body.data.totalElements).toBe(all.body.data.content.length);
  });

  it('bad input is 400; a sub-user is refused', async () => {
    expect((await get('/api/audit/list?beginDate=2026-02-30', main)).status).toBe(400);
    expect((await get('/api/audit/list?eventType=everything', main)).status).toBe(400);
    expect((await get('/api/audit/list?beginDate=2026-03-02&endDate=2026-03-01', main)).status).toBe(400);
    expect((await get('/api/audit/list', sub)).status).toBe(403);
    expect((await post('/api/audit/export', sub, {})).status).toBe(403);
  });

  it('exports CSV through the export queue, with the same scope and filters', async () => {
    const q = await post('/api/audit/export', main, { eventType: 'user' });
    expect(q.body.data.status).toBe('queued');
    expect(await drainExports(ctx.deps)).toBe(1);
    const { rows } = await ctx.db.query<{ status: string; path: string; row_count: number }>('SELECT status, path, row_count FROM export_file WHERE id = $1', [q.body.data.id]);
    expect(rows[0]).toMatchObject({ status: 'ready', row_count: 1 });
    const csv = fs.readFileSync(path.join(exportDir(ctx.deps), rows[0].path), 'utf8');
    expect(csv).toContain('user.add');
    expect(csv).toContain('audited');
    expect(csv).not.toContain(DEMO.users.other);
    const exported = await get('/api/audit/list?eventType=export', main);
    // the request (audit.export) and the file written for it (export.file, decision 036)
    const actions = exported.body.data.content.map((r: { action: string; userName: string }) => `${r.action}:${r.userName}`);
    expect(actions).toEqual(expect.arrayContaining([`audit.export:${DEMO.users.demo}`, `export.file:${DEMO.users.demo}`]));
  });

  it('retention: rows older than 12 months are purged, and a name removed 12 months ago is free again', async () => {
    const now = ctx.clock.now();
    const old = new Date(now.getTime() - 370 * 86_400_000);
    await audit(ctx.db, { action: 'auth.login', username: 'ancient', merId: DEMO.group });
    await ensureMonths(ctx.db, 'audit_log', old);
    await ctx.db.query(`UPDATE audit_log SET at = $1 WHERE username = 'ancient'`, [old]);
    const { rows: u } = await ctx.db.query<{ id: number }>(`SELECT id FROM app_user WHERE username = 'audited'`);
    await post('/api/user/remove', main, { userId: u[0].id });
    expect((await get('/api/user/checkUserExist?userName=audited', main)).body.data.userName).toBe(true);
    expect(await ctx.db.tx((q) => purgeAudit(q, now))).toEqual({ auditRows: 1, usersFreed: 0 });
    await ctx.db.query(`UPDATE app_user SET removed_at = $2 WHERE id = $1`, [u[0].id, old]);
    expect(await ctx.db.tx((q) => purgeAudit(q, now))).toEqual({ auditRows: 0, usersFreed: 1 });
    expect((await get('/api/user/checkUserExist?userName=audited&email=audited@x.example', main)).body.data.exists).toBe(false);
    // The audit trail still names the removed user.
    expect((await get('/api/audit/list?userName=audited', main)).body.data.totalElements).toBeGreaterThan(0);
  });

  it('retention: its boundaries — a row and a removal exactly 12 months old stay; an anonymised user is not counted again', async () => {
    const now = ctx.clock.now();
    const cutoff = new Date(now);
    cutoff.setUTCMonth(cutoff.getUTCMonth() - 12);
    await audit(ctx.db, { action: 'auth.login', username: 'at-the-cutoff', merId: DEMO.group });
    await audit(ctx.db, { action: 'auth.login', username: 'just-before', merId: DEMO.group });
    await ensureMonths(ctx.db, 'audit_log', cutoff);
    await ctx.db.query(`UPDATE audit_log SET at = $1 WHERE username = 'at-the-cutoff'`, [cutoff]);
    await ctx.db.query(`UPDATE audit_log SET at = $1 WHERE username = 'just-before'`, [new Date(cutoff.getTime() - 1)]);
    const added = await post('/api/user/add', main, { userName: 'edge.removed', email: 'edge.removed@x.example', merIds: DEMO.subB, role: 'FINANCE' });
    expect(added.body.code, added.body.msg).toBe(0);
    const id = added.body.data.id as number;
    expect((await post('/api/user/remove', main, { userId: id })).body.code).toBe(0);
    await ctx.db.query(`UPDATE app_user SET removed_at = $2 WHERE id = $1`, [id, cutoff]);
    expect(await ctx.db.tx((q) => purgeAudit(q, now))).toEqual({ auditRows: 1, usersFreed: 0 });
    expect((await ctx.db.query<{ username: string }>(`SELECT username FROM audit_log WHERE username IN ('at-the-cutoff', 'just-before')`)).rows).toEqual([{ username: 'at-the-cutoff' }]);
    expect((await ctx.db.query<{ username: string }>('SELECT username FROM app_user WHERE id = $1', [id])).rows[0].username).toBe('edge.removed');
    // a millisecond later it is freed, once: the next run finds nothing left to free
    await ctx.db.query(`UPDATE app_user SET removed_at = $2 WHERE id = $1`, [id, new Date(cutoff.getTime() - 1)]);
    expect((await ctx.db.tx((q) => purgeAudit(q, now))).usersFreed).toBe(1);
    expect((await ctx.db.query<{ username: string }>('SELECT username FROM app_user WHERE id = $1', [id])).rows[0].username).toBe(`removed-${id}`);
    expect((await ctx.db.tx((q) => purgeAudit(q, now))).usersFreed).toBe(0);
  });

  it('retention: the daily job also clears the sign-in counts of unknown names untouched for longer than the lockout window', async () => {
    const now = ctx.clock.now();
    const ago = (min: number, ms = 0) => new Date(now.getTime() - min * 60_000 - ms);
    await ctx.db.query(`DELETE FROM login_name_attempt`);
    for (const [name, failed, locked, at] of [
      ['old-count', 3, null, ago(30, 1)],
      ['old-lock', 5, ago(0, 1), ago(30, 1)],
      ['at-window', 2, null, ago(30)],
      ['recent-lock', 5, new Date(now.getTime() + 60_000), ago(29)],
    ] as const) {
      await ctx.db.query('INSERT INTO login_name_attempt (name, failed, locked_until, updated_at) VALUES ($1, $2, $3, $4)', [name, failed, locked, at]);
    }
    const handlers = await setUpTeamJobs(ctx.deps);
    const out = await handlers[AUDIT_PURGE_JOB]({ db: ctx.db, clock: ctx.clock } as unknown as JobContext);
    expect(out).toMatchObject({ result: { nameAttempts: 2 } });
    expect((await ctx.db.query<{ name: string }>('SELECT name FROM login_name_attempt ORDER BY name')).rows.map((r) => r.name)).toEqual(['at-window', 'recent-lock']);
  });
});
