import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { hashPassword } from '../../lib/crypto';
import { readOutbox } from '../../plugins/mail';
import { createJobRunner } from '../../jobs/runner';
import { startSession } from '../user/session.service';
import { ACCESS_JOB, nextAccessRunAt, setUpAccessJobs, sweepAccess } from './access.job';

/**
 * Access that expires (issue 28 item 3, decision 048) on both databases, with a clock the test
 * moves: the inactivity boundaries (warned on day 83, not again on day 84, not disabled on day 89,
 * disabled on day 90, nothing more on day 91), the warning in the user's language and zone sent
 * once, a sign-in restarting the count, the last administrator kept, the grant's end date, and
 * the daily job run once by two processes at the same time.
 */
const DAY = 86_400_000;
const quiet = { info: () => undefined, error: () => undefined };

describe.each(DB_KINDS)('team: access that expires (%s)', (kind) => {
  let ctx: TestCtx;
  let main: string;
  /** 00:05 Shanghai on 2027-01-05: the users under test are created (inactive) from here. */
  const T0 = new Date('2027-01-04T16:05:00Z');
  const at = (days: number, ms = 0) => new Date(T0.getTime() + days * DAY + ms);
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const user = async (id: number) =>
    (await ctx.db.query<{ status: string; removed_at: Date | null; lang: string | null }>('SELECT status, removed_at, lang FROM app_user WHERE id = $1', [id])).rows[0];
  const audits = async (action: string, target: string) =>
    (
      await ctx.db.query<{ username: string; user_id: number | null; detail: Record<string, unknown> }>(
        'SELECT username, user_id, detail FROM audit_log WHERE action = $1 AND target = $2 ORDER BY id',
        [action, target],
      )
    ).rows;
  /** The warnings sent to `to` (their subject names the day; the activation mail's does not). */
  const mailsTo = async (to: string) => (await readOutbox(ctx.outbox)).filter((m) => m.to.includes(to) && /\d{4}-\d{2}-\d{2}/.test(m.subject));
  /** Adds an active user (in the adder's language `lang`) whose inactivity starts at T0. */
  const addUser = async (userName: string, o: { role?: string; merIds?: string; lang?: string; accessEndsOn?: string; zone?: string } = {}) => {
    const r = await post(
      '/api/user/add',
      main,
      { userName, email: `${userName}@x.example`, merIds: o.merIds ?? DEMO.subA, role: o.role ?? 'READONLY', ...(o.accessEndsOn ? { accessEndsOn: o.accessEndsOn } : {}) },
      o.lang,
    );
    expect(r.body.code, r.body.msg).toBe(0);
    const id = r.body.data.id as number;
    await ctx.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE', created_at = $3, time_zone = $4 WHERE id = $1`, [id, await hashPassword(DEMO.password), T0, o.zone ?? null]);
    return id;
  };

  beforeAll(async () => {
    // The clock goes months ahead: passwords must not expire meanwhile.
    ctx = await createTestApp({ kind, config: { passwordMaxAgeDays: 3650 } });
    main = (await ctx.login()).token;
    // The seeded users are out of this test's way (their count restarts far ahead), except where a test brings one in.
    await ctx.db.query(`UPDATE app_user SET access_renewed_at = '2100-01-01Z'`);
  }, 120_000);
  afterAll(async () => ctx?.close());

  it('day 82 nothing, day 83 a warning (its language and zone, sent once), day 84 no second, day 89 kept, day 90 disabled as the system with its sessions ended, day 91 nothing more', async () => {
    const id = await addUser('idle.a', { lang: 'ja', zone: 'Asia/Tokyo' });
    expect((await user(id)).lang, 'the adder’s language').toBe('ja');
    // a session begun before its inactivity started (as if signed in on T0 − 1 day, then the count restarted at T0)
    const pair = await ctx.db.tx((q) => startSession(q, at(-1), id, {}, 900));
    const runner = createJobRunner({ db: ctx.db, clock: ctx.clock, log: quiet, handlers: await setUpAccessJobs(ctx.deps), workerId: 'w1' });
    const sweep = async (t: Date) => {
      ctx.clock.set(t);
      const r = await sweepAccess(ctx.deps);
      await runner.tick(); // sends what the sweep recorded
      return r;
    };
    expect((await sweep(at(83, -60_000))).warned).not.toContain('idle.a');
    expect(await mailsTo('idle.a@x.example')).toHaveLength(0);
    expect((await sweep(at(83))).warned).toContain('idle.a');
    const mails = await mailsTo('idle.a@x.example');
    expect(mails).toHaveLength(1);
    // disabled on the first run at or after day 90: 2027-04-05 00:05 Shanghai = 01:05 Tokyo
    expect(mails[0].subject).toBe('ポータルのアクセスは 2027-04-05 に無効になります');
    expect(mails[0].text).toContain('2027-04-05 01:05');
    expect(mails[0].text).toContain('Asia/Tokyo');
    expect(mails[0].text).toContain('90');
    expect((await sweep(at(84))).warned).not.toContain('idle.a');
    expect(await mailsTo('idle.a@x.example')).toHaveLength(1);
    expect((await sweep(at(90, -60_000))).disabledInactive).not.toContain('idle.a');
    expect((await user(id)).status).toBe('ACTIVE');
    expect((await sweep(at(90))).disabledInactive).toContain('idle.a');
    expect((await user(id)).status).toBe('DISABLED');
    const session = (await ctx.db.query<{ revoked_at: Date | null; revoke_reason: string }>('SELECT revoked_at, revoke_reason FROM user_session WHERE user_id = $1', [id])).rows[0];
    expect(session).toMatchObject({ revoke_reason: 'inactive' });
    expect(session.revoked_at).not.toBeNull();
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': pair.token } })).status).toBe(401);
    expect(await sweep(at(91))).toEqual({ disabledInactive: [], disabledGrantEnded: [], kept: [], warned: [] });
    const entries = await audits('user.disable', 'idle.a');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ username: 'system', user_id: null, detail: { reason: 'inactive', days: 90, limitDays: 90 } });
    expect(await mailsTo('idle.a@x.example')).toHaveLength(1);
    // enabled again by an administrator: the count restarts then (not disabled by the next run)
    main = (await ctx.login()).token;
    expect((await post('/api/user/updateUserStatus', main, { userId: id, status: 'ACTIVE' })).body.code).toBe(0);
    expect((await sweep(new Date(ctx.clock.now().getTime() + DAY))).disabledInactive).not.toContain('idle.a');
    expect((await user(id)).status).toBe('ACTIVE');
  });

  it("a sign-in restarts the count; the merchant's own limit (14–90) applies, a sub-merchant follows its group's", async () => {
    ctx.clock.set(at(0));
    main = (await ctx.login()).token;
    const saved = await post('/api/access/policy', main, { merId: DEMO.group, inactiveDays: 30 });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect(saved.body.data).toEqual({ merId: DEMO.group, inactiveDays: 30, source: 'own' });
    const b = await addUser('idle.b');
    const c = await addUser('idle.c');
    // idle.c signs in on day 20: its 30 days start again
    await ctx.db.tx((q) => startSession(q, at(20), c, {}, 900));
    ctx.clock.set(at(23));
    const w = await sweepAccess(ctx.deps);
    expect(w.warned).toContain('idle.b');
    expect(w.warned).not.toContain('idle.c');
    ctx.clock.set(at(30));
    const r = await sweepAccess(ctx.deps);
    expect(r.disabledInactive).toContain('idle.b');
    expect(r.disabledInactive).not.toContain('idle.c');
    expect((await user(b)).status).toBe('DISABLED');
    expect((await user(c)).status).toBe('ACTIVE');
    ctx.clock.set(at(50));
    expect((await sweepAccess(ctx.deps)).disabledInactive).toContain('idle.c');
    await ctx.db.query('DELETE FROM access_policy');
  });

  it('never disables the last active administrator of a merchant: kept, audited once, warned', async () => {
    ctx.clock.set(at(0));
    // the other merchant's only administrator, and a second administrator of the group beside demo
    await ctx.db.query(`UPDATE app_user SET access_renewed_at = $2 WHERE username = $1`, [DEMO.users.other, T0]);
    main = (await ctx.login()).token;
    const adm = await addUser('adm.two', { role: 'ADMIN', merIds: `${DEMO.group},${DEMO.subA},${DEMO.subB}` });
    ctx.clock.set(at(95));
    const r = await sweepAccess(ctx.deps);
    expect(r.kept).toEqual([DEMO.users.other]);
    expect(r.disabledInactive).toContain('adm.two'); // demo is still an active administrator of the group
    expect((await user(adm)).status).toBe('DISABLED');
    const other = (await ctx.db.query<{ status: string }>('SELECT status FROM app_user WHERE username = $1', [DEMO.users.other])).rows[0];
    expect(other.status).toBe('ACTIVE');
    ctx.clock.set(at(96));
    expect((await sweepAccess(ctx.deps)).kept).toEqual([]);
    const kept = await audits('user.disable.kept', DEMO.users.other);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ username: 'system', detail: { reason: 'inactive', lastAdministrator: true } });
    expect(await audits('user.disable', DEMO.users.other)).toHaveLength(0);
    // it was warned a week before like everyone (recorded once)
    const warned = await ctx.db.query(`SELECT 1 FROM access_notice n JOIN app_user u ON u.id = n.user_id WHERE u.username = $1 AND n.kind = 'inactivity_warning'`, [DEMO.users.other]);
    expect(warned.rows).toHaveLength(1);
    await ctx.db.query(`UPDATE app_user SET access_renewed_at = '2100-01-01Z' WHERE username = $1`, [DEMO.users.other]);
  });

  it('a grant end date: strict, not in the past (platform zone), shown on the list; the user is disabled after its last day, "grant ended"', async () => {
    ctx.clock.set(new Date('2027-03-10T03:00:00Z')); // 11:00 on 2027-03-10 in Shanghai
    main = (await ctx.login()).token;
    for (const [value, lang, text] of [
      ['2027-03-09', 'zh', '访问截止日期'],
      ['2027-02-30', 'en', ''],
      ['2027-3-20', 'en', ''],
      ['3000-01-01', 'en', ''],
    ] as const) {
      const r = await post('/api/user/add', main, { userName: 'grant.bad', email: 'grant.bad@x.example', merIds: DEMO.subA, role: 'READONLY', accessEndsOn: value }, lang);
      expect(r.status, value).toBe(400);
      if (text) expect(r.body.msg).toContain(text);
    }
    expect((await ctx.db.query(`SELECT 1 FROM app_user WHERE username = 'grant.bad'`)).rows).toHaveLength(0);
    const r = await post('/api/user/add', main, { userName: 'grant.c', email: 'grant.c@x.example', merIds: DEMO.subA, role: 'READONLY', accessEndsOn: '2027-03-10' });
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data.accessEndsOn).toBe('2027-03-10');
    const id = r.body.data.id as number;
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE' WHERE id = $1`, [id]);
    // an edit moves it (audited before/after); the list shows it
    const e = await post('/api/user/update', main, { userId: id, merIds: DEMO.subA, role: 'READONLY', accessEndsOn: '2027-03-12' });
    expect(e.body.code, e.body.msg).toBe(0);
    const listed = (await ctx.call({ method: 'GET', url: '/api/user/list?text=grant.c', headers: { 'x-token': main } })).body.data.content[0];
    expect(listed.accessEndsOn).toBe('2027-03-12');
    const upd = (await audits('user.update', 'grant.c'))[0];
    expect(upd.detail).toMatchObject({ before: { accessEndsOn: '2027-03-10' }, after: { accessEndsOn: '2027-03-12' } });
    ctx.clock.set(new Date('2027-03-12T15:59:00Z')); // 23:59 on its last day
    expect((await sweepAccess(ctx.deps)).disabledGrantEnded).not.toContain('grant.c');
    ctx.clock.set(nextAccessRunAt(new Date('2027-03-12T16:00:00Z'), ctx.config.platformTz));
    expect(ctx.clock.now().toISOString()).toBe('2027-03-12T16:05:00.000Z');
    expect((await sweepAccess(ctx.deps)).disabledGrantEnded).toEqual(['grant.c']);
    expect((await user(id)).status).toBe('DISABLED');
    expect((await audits('user.disable', 'grant.c'))[0]).toMatchObject({ username: 'system', detail: { reason: 'grant ended', accessEndsOn: '2027-03-12' } });
    // enabled again: the past end date is dropped, so the next run leaves it alone
    main = (await ctx.login()).token;
    expect((await post('/api/user/updateUserStatus', main, { userId: id, status: 'ACTIVE' })).body.data.accessEndsOn).toBeNull();
  });

  it('the daily job runs once a day however many processes run it at once, and re-queues itself for 00:05', async () => {
    await ctx.db.query('DELETE FROM job');
    await ctx.db.query('DELETE FROM access_run');
    ctx.clock.set(new Date('2027-06-01T02:00:00Z'));
    main = (await ctx.login()).token;
    const id = await addUser('idle.two', { merIds: DEMO.subB });
    await ctx.db.query('UPDATE app_user SET created_at = $2 WHERE id = $1', [id, new Date('2027-02-01T00:00:00Z')]);
    const a = createJobRunner({ db: ctx.db, clock: ctx.clock, log: quiet, handlers: await setUpAccessJobs(ctx.deps), workerId: 'a' });
    const b = createJobRunner({ db: ctx.db, clock: ctx.clock, log: quiet, handlers: await setUpAccessJobs(ctx.deps), workerId: 'b' });
    const ran = await Promise.all([a.tick(), b.tick(), a.tick()]);
    expect(ran.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
    expect((await user(id)).status).toBe('DISABLED');
    expect(await audits('user.disable', 'idle.two')).toHaveLength(1);
    const runs = (await ctx.db.query<{ day: string }>('SELECT day::text AS day FROM access_run')).rows;
    expect(runs).toEqual([{ day: '2027-06-01' }]);
    const job = (await ctx.db.query<{ status: string; run_at: Date }>('SELECT status, run_at FROM job WHERE unique_key = $1', [ACCESS_JOB])).rows[0];
    expect(job.status).toBe('queued');
    expect(new Date(job.run_at).toISOString()).toBe('2027-06-01T16:05:00.000Z');
    // the same day again (a revived job, a restart): skipped
    await ctx.db.query(`UPDATE job SET run_at = $1 WHERE unique_key = $2`, [ctx.clock.now(), ACCESS_JOB]);
    await a.tick();
    const result = (await ctx.db.query<{ result: { skipped?: boolean } }>('SELECT result FROM job WHERE unique_key = $1', [ACCESS_JOB])).rows[0].result;
    expect(result.skipped).toBe(true);
    if (isConcurrent(kind)) expect(ran.filter((n) => n > 0).length).toBeGreaterThanOrEqual(1);
  });

  it("a sign-in records the user's language for its later e-mails", async () => {
    ctx.clock.advance(61_000);
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: DEMO.users.sub } });
    const verifyCode = await ctx.lastCode();
    const r = await ctx.call({ method: 'POST', url: '/api/user/login', headers: { 'accept-language': 'ko' }, payload: { username: DEMO.users.sub, password: DEMO.password, verifyCode } });
    expect(r.body.code, r.body.msg).toBe(0);
    expect((await ctx.db.query<{ lang: string }>('SELECT lang FROM app_user WHERE username = $1', [DEMO.users.sub])).rows[0].lang).toBe('ko');
  });
});
