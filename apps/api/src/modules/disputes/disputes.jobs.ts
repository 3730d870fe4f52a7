import { toDecimal, type Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/runner';
import { t } from '../../lib/messages';
import { reasonOf } from './reason-codes';
import { expireOverdue, resendDueOperations } from './disputes.service';

/** 'YYYY-MM-DD HH:mm' of an instant in an IANA zone (the reminder shows the deadline in the user's zone). */
export function inZone(d: Date, tz: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}

export const DISPUTE_JOB = 'disputes.tick';
const EVERY_MS = 60_000;
export const REMINDER_DAYS = [7, 3, 1] as const;

/**
 * Deadline reminders (issue 48): 7, 3 and 1 days before a dispute's deadline, an e-mail to every
 * active user of its merchant (or the merchant's group) holding dispute:respond — recorded first
 * (one row per dispute, threshold and user: at most once), sent after commit, marked sent. A send
 * that fails stays unsent and is tried at the next tick. Returns the number sent.
 */
export async function sendReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    for (const days of REMINDER_DAYS) {
      // The smallest threshold the deadline is within (a dispute arriving with 2 days left gets the 3-day one only).
      const lower = REMINDER_DAYS.filter((x) => x < days).at(0) ?? 0;
      await q.query(
        `INSERT INTO dispute_reminder (dispute_id, days, user_id, email, lang, created_at)
         SELECT d.id, $2, u.id, u.email, coalesce(u.lang, 'en'), $1
           FROM dispute d JOIN merchant m ON m.mer_id = d.mer_id
           JOIN app_user u ON (u.mer_id = d.mer_id OR u.mer_id = m.parent_id) AND u.status = 'ACTIVE' AND 'dispute:respond' = ANY(u.permissions)
          WHERE d.state = 'needs_response' AND d.deadline > $1::timestamptz
            AND d.deadline <= $1::timestamptz + make_interval(days => $2) AND d.deadline > $1::timestamptz + make_interval(days => $3)
         ON CONFLICT DO NOTHING`,
        [now, days, lower],
      );
    }
  });
  const { rows } = await deps.db.query<{
    dispute_id: string;
    days: number;
    user_id: number;
    email: string;
    lang: Language;
    time_zone: string | null;
    gw_dispute_id: string;
    order_no: string;
    amount: string;
    currency: string;
    brand: string;
    reason_code: string;
    deadline: Date;
  }>(
    `SELECT r.dispute_id, r.days, r.user_id, r.email, r.lang, u.time_zone, d.gw_dispute_id, p.order_no, d.amount, d.currency::text AS currency, d.brand,
            d.reason_code, d.deadline
       FROM dispute_reminder r JOIN dispute d ON d.id = r.dispute_id JOIN app_user u ON u.id = r.user_id
       JOIN txn_key k ON k.id = d.purchase_id JOIN txn p ON p.id = k.id AND p.txn_time = k.txn_time
      WHERE r.sent_at IS NULL AND d.state = 'needs_response' ORDER BY r.created_at LIMIT 200`,
  );
  let sent = 0;
  for (const r of rows) {
    const tz = r.time_zone || deps.config.platformTz;
    const lang = (['en', 'zh', 'ko', 'ja'] as const).includes(r.lang) ? r.lang : 'en';
    const cur = r.currency.trim();
    try {
      await deps.mailer.send({
        to: r.email,
        subject: t(lang, 'disputeReminderSubject', { id: r.gw_dispute_id, days: r.days }),
        text: t(lang, 'disputeReminderBody', {
          id: r.gw_dispute_id,
          orderNo: r.order_no,
          amount: toDecimal(Number(r.amount), cur),
          currency: cur,
          reason: reasonOf(r.brand, r.reason_code, lang).name,
          deadline: inZone(new Date(r.deadline), tz),
          tz,
          url: `${deps.config.publicUrl}/disputes/detail/${r.dispute_id}`,
        }),
      });
      await deps.db.query('UPDATE dispute_reminder SET sent_at = $4 WHERE dispute_id = $1 AND days = $2 AND user_id = $3', [r.dispute_id, r.days, r.user_id, deps.clock.now()]);
      sent++;
    } catch {
      // left unsent: the next tick tries again
    }
  }
  return sent;
}

/** One tick: answers not confirmed yet are sent again, overdue disputes expire, reminders go out. */
export async function disputeTick(deps: Deps) {
  const resent = await resendDueOperations(deps);
  const expired = await expireOverdue(deps);
  const reminded = await sendReminders(deps);
  return { resent, expired, reminded };
}

export async function setUpDisputeJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: DISPUTE_JOB, uniqueKey: DISPUTE_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ clock }) => ({ result: await disputeTick(deps), nextRunAt: new Date(clock.now().getTime() + EVERY_MS) });
  return { [DISPUTE_JOB]: handler };
}
