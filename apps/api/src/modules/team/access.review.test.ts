import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';

/**
 * The quarterly access review and the inactivity limit (issue 28 item 3, decision 048) on both
 * databases: the review lists each user's grants, merchants, last sign-in and access end;
 * confirm / disable / remove through the team rules (oneself, the whole-scope rule — nothing
 * recorded when refused); completion only when every user has a decision; the record and its
 * decisions readable afterwards; a sub-user, another merchant and bad input refused.
 */
describe.each(DB_KINDS)('team: access review (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  let sub: string;
  let other: string;
  let subAdmin: string;
  const ids: Record<string, number> = {};
  const get = (url: string, token: string, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': token, 'accept-language': lang } });
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const addUser = async (userName: string, role: string, merIds: string) => {
    const r = await post('/api/user/add', main, { userName, email: `${userName}@x.example`, merIds, role });
    expect(r.body.code, r.body.msg).toBe(0);
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [r.body.data.id, await hashPassword(DEMO.password)]);
    ids[userName] = r.body.data.id;
  };
  const items = async () => (await ctx.db.query<{ username: string; decision: string }>('SELECT username, decision FROM access_review_item ORDER BY username')).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    main = (await ctx.login()).token;
    await addUser('rev.keep', 'FINANCE', DEMO.subA);
    await addUser('rev.off', 'READONLY', DEMO.subA);
    await addUser('rev.gone', 'SUPPORT', DEMO.subB);
    await addUser('rev.both', 'READONLY', `${DEMO.subA},${DEMO.subB}`);
    await addUser('suba.admin', 'ADMIN', DEMO.subA);
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
    subAdmin = (await ctx.login('suba.admin')).token;
    main = (await ctx.login()).token;
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('the inactivity limit: administrators set 14–90 (audited); bad input, a sub-user and another merchant refused', async () => {
    expect((await get(`/api/access/policy?merId=${DEMO.subA}`, main)).body.data).toEqual({ merId: DEMO.subA, inactiveDays: 90, source: 'default' });
    const saved = await post('/api/access/policy', main, { merId: DEMO.group, inactiveDays: 45 });
    expect(saved.body.data).toEqual({ merId: DEMO.group, inactiveDays: 45, source: 'own' });
    expect((await get(`/api/access/policy?merId=${DEMO.subA}`, main)).body.data).toEqual({ merId: DEMO.subA, inactiveDays: 45, source: 'group' });
    for (const [days, lang, text] of [
      [13, 'zh', '14 到 90'],
      [91, 'ko', '14에서 90'],
      ['x', 'en', ''],
      ['30.5', 'en', ''],
    ] as const) {
      const r = await post('/api/access/policy', main, { merId: DEMO.group, inactiveDays: days }, lang);
      expect(r.status, String(days)).toBe(400);
      if (text) expect(r.body.msg).toContain(text);
    }
    expect((await post('/api/access/policy', sub, { merId: DEMO.group, inactiveDays: 30 })).status).toBe(403);
    expect((await post('/api/access/policy', other, { merId: DEMO.group, inactiveDays: 30 })).status).toBe(404);
    expect((await get(`/api/access/policy?merId=${DEMO.group}`, other)).status).toBe(404);
    const rows = (await ctx.db.query<{ inactive_days: number }>('SELECT inactive_days FROM access_policy')).rows;
    expect(rows).toEqual([{ inactive_days: 45 }]);
    const audit = (await ctx.db.query<{ detail: { before: { inactiveDays: number }; after: { inactiveDays: number } } }>(`SELECT detail FROM audit_log WHERE action = 'access.policy'`)).rows;
    expect(audit).toHaveLength(1);
    expect(audit[0].detail).toMatchObject({ before: { inactiveDays: 90 }, after: { inactiveDays: 45 } });
  });

  it('lists each user with grants, merchants, last sign-in and access end; due this quarter', async () => {
    const r = await get('/api/access/review', main);
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data).toMatchObject({ merId: DEMO.group, due: true, open: null, lastCompleteTime: null, inactiveDays: 45 });
    expect(r.body.data.quarter).toMatch(/^\d{4}-Q[1-4]$/);
    const byName: Record<string, { permissions: string[]; lastLoginTime: string | null }> = Object.fromEntries(
      (r.body.data.users as { userName: string; permissions: string[]; lastLoginTime: string | null }[]).map((u) => [u.userName, u]),
    );
    expect(Object.keys(byName).sort()).toEqual(['demo', 'demo-sub', 'rev.both', 'rev.gone', 'rev.keep', 'rev.off', 'suba.admin']);
    expect(byName['rev.keep']).toMatchObject({ role: 'FINANCE', merIds: [DEMO.subA], lastLoginTime: null, accessEndsOn: null, decision: null, manageable: true, self: false });
    expect(byName['rev.keep'].permissions).toContain(Perm.txnList);
    expect(byName.demo).toMatchObject({ self: true });
    expect(byName['suba.admin'].lastLoginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // the other merchant's users are not in it; a sub-merchant's administrator sees its own merchant's
    expect(JSON.stringify(r.body.data)).not.toContain(DEMO.users.other);
    const s = await get(`/api/access/review?merId=${DEMO.subA}`, subAdmin);
    expect(s.body.code, s.body.msg).toBe(0);
    expect((s.body.data.users as { userName: string }[]).map((u) => u.userName).sort()).toEqual(['demo-sub', 'rev.both', 'rev.keep', 'rev.off', 'suba.admin']);
    expect((s.body.data.users as { userName: string; manageable: boolean }[]).find((u) => u.userName === 'rev.both')!.manageable).toBe(false);
    expect((await get(`/api/access/review?merId=${DEMO.group}`, subAdmin)).status).toBe(404);
    expect((await get('/api/access/review', sub)).status).toBe(403);
    expect((await get(`/api/access/review?merId=${DEMO.group}`, other)).status).toBe(404);
    expect((await get('/api/access/review?merId=12', main)).status).toBe(400);
  });

  it('revokes through the team rules: not oneself, not a user reaching beyond one\u2019s scope, not another merchant\u2019s — nothing recorded then', async () => {
    const demoId = (await ctx.db.query<{ id: number }>(`SELECT id FROM app_user WHERE username = 'demo'`)).rows[0].id;
    const self = await post('/api/access/review/decide', main, { merId: DEMO.group, userId: demoId, decision: 'DISABLE' });
    expect(self.body.code).toBe(Code.NOT_ON_SELF);
    const beyond = await post('/api/access/review/decide', subAdmin, { merId: DEMO.subA, userId: ids['rev.both'], decision: 'REMOVE' }, 'ja');
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toContain('範囲外');
    const otherId = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.other])).rows[0].id;
    expect((await post('/api/access/review/decide', main, { merId: DEMO.group, userId: otherId, decision: 'CONFIRM' })).status).toBe(404);
    expect((await post('/api/access/review/decide', other, { merId: DEMO.other, userId: ids['rev.keep'], decision: 'DISABLE' })).status).toBe(404);
    expect((await post('/api/access/review/decide', other, { merId: DEMO.group, userId: ids['rev.keep'], decision: 'DISABLE' })).status).toBe(404);
    expect((await post('/api/access/review/decide', sub, { merId: DEMO.group, userId: ids['rev.keep'], decision: 'CONFIRM' })).status).toBe(403);
    for (const body of [
      { merId: DEMO.group, userId: ids['rev.keep'], decision: 'MAYBE' },
      { merId: DEMO.group, userId: 'x', decision: 'CONFIRM' },
      { merId: 'g', userId: ids['rev.keep'], decision: 'CONFIRM' },
    ]) {
      expect((await post('/api/access/review/decide', main, body)).status).toBe(400);
    }
    expect(await items()).toEqual([]);
    const statuses = (await ctx.db.query<{ status: string }>(`SELECT status FROM app_user WHERE username IN ('rev.both', 'rev.keep', $1)`, [DEMO.users.other])).rows;
    expect(statuses.every((s) => s.status === 'ACTIVE')).toBe(true);
  });

  it('confirm, disable (sessions end), remove; completed only when every user has a decision; the record is kept and readable', async () => {
    const offToken = (await ctx.login('rev.off')).token;
    main = (await ctx.login()).token;
    const c = await post('/api/access/review/decide', main, { merId: DEMO.group, userId: ids['rev.keep'], decision: 'CONFIRM' });
    expect(c.body.code, c.body.msg).toBe(0);
    expect(c.body.data.open).toMatchObject({ startedBy: 'demo' });
    expect(c.body.data.users.find((u: { userName: string }) => u.userName === 'rev.keep')).toMatchObject({ decision: 'CONFIRMED', decidedBy: 'demo' });
    const d = await post('/api/access/review/decide', main, { merId: DEMO.group, userId: ids['rev.off'], decision: 'DISABLE' });
    expect(d.body.code, d.body.msg).toBe(0);
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM app_user WHERE id = $1', [ids['rev.off']])).rows[0].status).toBe('DISABLED');
    expect((await get('/api/user/info', offToken)).status).toBe(401);
    const dis = (await ctx.db.query<{ username: string; detail: { reason: string } }>(`SELECT username, detail FROM audit_log WHERE action = 'user.disable' AND target = 'rev.off'`)).rows;
    expect(dis).toEqual([{ username: 'demo', detail: { userId: ids['rev.off'], reason: 'access review' } }]);
    expect((await post('/api/access/review/decide', main, { merId: DEMO.group, userId: ids['rev.gone'], decision: 'REMOVE' })).body.code).toBe(0);
    expect((await ctx.db.query<{ removed_at: Date | null }>('SELECT removed_at FROM app_user WHERE id = $1', [ids['rev.gone']])).rows[0].removed_at).not.toBeNull();
    // not complete yet: four users left (demo, demo-sub, rev.both, suba.admin)
    const early = await post('/api/access/review/complete', main, { merId: DEMO.group }, 'zh');
    expect(early.body.code).toBe(Code.CONFLICT);
    expect(early.body.msg).toContain('4 位用户');
    for (const u of ['demo', 'demo-sub', 'rev.both', 'suba.admin']) {
      const id = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [u])).rows[0].id;
      expect((await post('/api/access/review/decide', main, { merId: DEMO.group, userId: id, decision: 'CONFIRM' })).body.code).toBe(0);
    }
    const done = await post('/api/access/review/complete', main, { merId: DEMO.group });
    expect(done.body.code, done.body.msg).toBe(0);
    expect(done.body.data).toMatchObject({ merId: DEMO.group, startedBy: 'demo', completedBy: 'demo', confirmed: 5, disabled: 1, removed: 1 });
    expect((await post('/api/access/review/complete', main, { merId: DEMO.group })).body.code).toBe(Code.CONFLICT);
    const state = (await get('/api/access/review', main)).body.data;
    expect(state).toMatchObject({ due: false, open: null });
    expect(state.lastCompleteTime).not.toBeNull();
    const hist = (await get(`/api/access/review/history?merId=${DEMO.group}`, main)).body.data;
    expect(hist.totalElements).toBe(1);
    const id = hist.content[0].id as number;
    const detail = (await get(`/api/access/review/${id}`, main)).body.data;
    expect(detail.items).toHaveLength(7);
    expect(detail.items.find((i: { userName: string }) => i.userName === 'rev.gone')).toMatchObject({ decision: 'REMOVED', decidedBy: 'demo', role: 'SUPPORT', merIds: [DEMO.subB] });
    expect(detail.items.find((i: { userName: string }) => i.userName === 'rev.keep').permissions).toContain(Perm.txnList);
    // another merchant cannot read it; the audit keeps each confirmation and the completion
    expect((await get(`/api/access/review/${id}`, other)).status).toBe(404);
    expect((await get(`/api/access/review/history?merId=${DEMO.group}`, other)).status).toBe(404);
    expect((await get(`/api/access/review/${id}`, sub)).status).toBe(403);
    const audits = (await ctx.db.query<{ action: string; n: number }>(`SELECT action, count(*)::int AS n FROM audit_log WHERE action LIKE 'access.review.%' GROUP BY action ORDER BY action`)).rows;
    expect(audits).toEqual([
      { action: 'access.review.complete', n: 1 },
      { action: 'access.review.decide', n: 5 },
    ]);
  });
});
