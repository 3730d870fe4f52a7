import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { createMailer } from '../../plugins/mail';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { smtpError, startSmtpReceiver } from '../../../test/smtp-receiver';
import { createJobRunner } from '../../jobs/runner';
import { ACCESS_NOTICE_JOB, sendNotice, setUpAccessJobs } from './access.job';

/**
 * The inactivity warning through a real SMTP conversation (smtp-server as the receiving MTA), on
 * both databases: the mail server refuses at first — the warning stays recorded and unsent, its
 * job retried with backoff — then accepts: the warning goes once, in the user's language and
 * zone, and never again (a later run, a repeated job).
 */
describe.each(DB_KINDS)('access warning over SMTP (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let ctx: TestCtx;
  let accept = false;
  const quiet = { info: () => undefined, error: () => undefined };
  const T0 = new Date('2027-01-04T16:05:00Z');

  beforeAll(async () => {
    smtp = await startSmtpReceiver({ refuse: () => (accept ? undefined : smtpError(451, 'try again later')) });
    const port = smtp.port;
    ctx = await createTestApp({ kind, config: { passwordMaxAgeDays: 3650 } });
    const main = (await ctx.login()).token; // sign-in code through the outbox; then mail goes over SMTP
    const f = form({ userName: 'idle.ko', email: 'idle.ko@x.example', merIds: DEMO.subA, role: 'READONLY' });
    const r = await ctx.call({ method: 'POST', url: '/api/user/add', headers: { ...f.headers, 'x-token': main, 'accept-language': 'ko' }, payload: f.payload });
    expect(r.body.code, r.body.msg).toBe(0);
    await ctx.db.query(`UPDATE app_user SET status = 'ACTIVE', created_at = $2, time_zone = 'Asia/Seoul' WHERE id = $1`, [r.body.data.id, T0]);
    await ctx.db.query(`UPDATE app_user SET access_renewed_at = '2100-01-01Z' WHERE username <> 'idle.ko'`);
    ctx.deps.mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: ctx.outbox, from: ctx.config.mailFrom });
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await smtp.close();
  });

  it('a refused send is retried; the warning goes once, in Korean with Seoul time', async () => {
    await ctx.db.query('DELETE FROM job');
    const runner = createJobRunner({ db: ctx.db, clock: ctx.clock, log: quiet, handlers: await setUpAccessJobs(ctx.deps), workerId: 'w' });
    ctx.clock.set(new Date(T0.getTime() + 83 * 86_400_000));
    await ctx.db.query('UPDATE job SET run_at = $1', [ctx.clock.now()]);
    await runner.tick(); // the daily run records the warning; its job tries to send it: refused
    const notice = async () =>
      (
        await ctx.db.query<{ id: number; sent_at: Date | null; attempts: number; last_error: string | null }>(
          `SELECT id, sent_at, attempts, last_error FROM access_notice WHERE kind = 'inactivity_warning'`,
        )
      ).rows;
    const n1 = await notice();
    expect(n1).toHaveLength(1);
    expect(n1[0]).toMatchObject({ sent_at: null, attempts: 1 });
    expect(n1[0].last_error).toMatch(/451|try again/);
    const job = async () => (await ctx.db.query<{ status: string; attempts: number; run_at: Date }>('SELECT status, attempts, run_at FROM job WHERE kind = $1', [ACCESS_NOTICE_JOB])).rows[0];
    expect((await job()).status).toBe('queued');
    expect(smtp.received).toHaveLength(0);
    // not before its backoff
    await runner.tick();
    expect((await notice())[0].attempts).toBe(1);
    accept = true;
    ctx.clock.advance(60_000);
    await runner.tick();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['idle.ko@x.example']);
    const mail = await PostalMime.parse(smtp.received[0].raw);
    expect(mail.subject).toBe('포털 접근 권한이 2027-04-05에 비활성화됩니다');
    expect(mail.text).toContain('2027-04-05 01:05'); // 00:05 Shanghai = 01:05 Seoul
    expect(mail.text).toContain('Asia/Seoul');
    expect((await notice())[0]).toMatchObject({ attempts: 2, last_error: null });
    expect((await notice())[0].sent_at).not.toBeNull();
    expect((await job()).status).toBe('done');
    // the next days' runs and a repeated send change nothing
    for (let d = 84; d <= 86; d++) {
      ctx.clock.set(new Date(T0.getTime() + d * 86_400_000 + 3_600_000));
      await ctx.db.query(`UPDATE job SET run_at = $1 WHERE unique_key = 'access.daily'`, [ctx.clock.now()]);
      await runner.tick();
    }
    expect(await sendNotice(ctx.deps, n1[0].id)).toBe('already');
    expect(smtp.received).toHaveLength(1);
    expect(await notice()).toHaveLength(1);
  });
});
