import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { startSmtpReceiver } from '../../../test/smtp-receiver';
import { createMailer } from '../../plugins/mail';
import { addTxn } from '../txn/txn.fixtures';
import { sendReminders } from './disputes.jobs';
import { receiveDispute } from './disputes.receive';
import { daysLeftOf } from './disputes.service';

describe('deadlines in the user’s zone, across DST', () => {
  it('counts calendar days in the zone, not 24-hour steps', () => {
    // New York leaves EST for EDT on 2026-03-08 at 02:00: the deadline 2026-03-09 03:30 UTC is the 8th there (23:30 EDT).
    const now = new Date('2026-03-07T12:00:00Z');
    const deadline = new Date('2026-03-09T03:30:00Z');
    expect(daysLeftOf(now, deadline, 'America/New_York')).toBe(1);
    expect(daysLeftOf(now, deadline, 'Asia/Shanghai')).toBe(2);
    expect(daysLeftOf(now, deadline, 'UTC')).toBe(2);
    // Autumn back (2026-11-01 in New York): still whole days.
    expect(daysLeftOf(new Date('2026-10-31T15:00:00Z'), new Date('2026-11-02T04:30:00Z'), 'America/New_York')).toBe(1);
    expect(daysLeftOf(new Date('2026-10-31T15:00:00Z'), new Date('2026-11-02T05:30:00Z'), 'America/New_York')).toBe(2);
  });
});

describe.each(DB_KINDS)('deadline reminders by e-mail, real SMTP receiver (%s)', (kind) => {
  let ctx: TestCtx;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    smtp = await startSmtpReceiver();
    ctx.deps.mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: ctx.outbox, from: ctx.config.mailFrom });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp.close();
  });

  it('7, 3 and 1 days before: each once, to the users who may respond, in their language and zone', async () => {
    await ctx.db.query(`UPDATE app_user SET lang = 'zh', time_zone = 'America/New_York' WHERE username = $1`, [DEMO.users.demo]);
    const p = await addTxn(ctx, { amount: 10000 });
    const now = ctx.clock.now();
    await ctx.db.tx((q) =>
      receiveDispute(
        q,
        {
          gwDisputeId: 'DSP-MAIL-1',
          gwTransId: p.gwTransId,
          kind: 'chargeback',
          state: 'needs_response',
          reasonCode: '13.1',
          amount: 5000,
          currency: 'CNY',
          deadline: new Date(now.getTime() + 6.5 * 86_400_000),
        },
        { platformTz: ctx.config.platformTz, now, by: 'test' },
      ),
    );
    const mailTo = async () => smtp.received.filter((m) => m.raw.toString().includes('DSP-MAIL-1')).flatMap((m) => m.to);
    expect(await sendReminders(ctx.deps)).toBeGreaterThan(0);
    expect(await sendReminders(ctx.deps)).toBe(0); // once
    const first = await mailTo();
    expect(first).toContain('demo@demo-group.example');
    // demo-sub reads but may not respond: no reminder.
    expect(first).not.toContain('demo-sub@demo-group.example');
    const zh = smtp.received.find((m) => m.to.includes('demo@demo-group.example') && m.raw.toString().includes('DSP-MAIL-1'))!.raw.toString();
    expect(zh).toContain('America/New_York');
    // 2.5 and 0.5 days before: the 3-day and the 1-day reminders, each once.
    ctx.clock.advance(4 * 86_400_000);
    await sendReminders(ctx.deps);
    ctx.clock.advance(2 * 86_400_000);
    await sendReminders(ctx.deps);
    await sendReminders(ctx.deps);
    const { rows } = await ctx.db.query<{ days: number; n: number }>(
      `SELECT r.days, count(*)::int AS n FROM dispute_reminder r JOIN dispute d ON d.id = r.dispute_id JOIN app_user u ON u.id = r.user_id
        WHERE d.gw_dispute_id = 'DSP-MAIL-1' AND u.username = $1 AND r.sent_at IS NOT NULL GROUP BY r.days ORDER BY r.days`,
      [DEMO.users.demo],
    );
    expect(rows).toEqual([
      { days: 1, n: 1 },
      { days: 3, n: 1 },
      { days: 7, n: 1 },
    ]);
    ctx.clock.advance(-6 * 86_400_000);
  });
});
