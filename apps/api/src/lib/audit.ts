import type { Queryable } from '../db/db';
import { ensureMonthsOf } from '../db/partitions';
import { metrics } from '../plugins/metrics';

const SKEW_MS = 10 * 60_000;

export interface AuditEntry {
  action: string;
  outcome?: 'success' | 'failure';
  userId?: number | null;
  /** The provider's operator who acted (decision 038); user_id is then null. */
  operatorId?: number | null;
  username?: string | null;
  merId?: string | null;
  target?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
}

/** Audit actions: every sign-in, money movement and security event is written here. */
export const AuditAction = {
  loginSuccess: 'auth.login',
  loginFailure: 'auth.login.failure',
  lockout: 'auth.lockout',
  logout: 'auth.logout',
  emailCode: 'auth.email_code',
  refresh: 'auth.refresh',
  refreshReuse: 'auth.refresh.reuse',
  passwordCheck: 'auth.password_check',
  // A recovery code used as the second factor at sign-in (written by the sign-in; the account's list shows it).
  recoveryCodeUsed: 'account.totp.recovery_used',
  refund: 'txn.refund',
  // Gateway operations (decision 033): money reserved, and settled by the gateway's answer.
  refundReserve: 'txn.refund.reserve',
  refundResult: 'txn.refund.result',
  voidResult: 'txn.void.result',
  charge: 'checkout.charge',
  chargeResult: 'checkout.charge.result',
  manualBlend: 'txn.manual_blend',
} as const;

/** Sign-ins, lockouts and refunds counted for /metrics as their audit rows are written (issue 27). */
function count(e: AuditEntry): void {
  if (e.action === AuditAction.loginSuccess) metrics.signIns.inc({ result: 'success' });
  else if (e.action === AuditAction.loginFailure) metrics.signIns.inc({ result: 'failure' });
  else if (e.action === AuditAction.lockout) metrics.signIns.inc({ result: 'lockout' });
  else if (e.action === AuditAction.refund) metrics.refunds.inc({ result: e.outcome ?? 'success' });
}

export async function audit(q: Queryable, e: AuditEntry): Promise<void> {
  // The row's time is the database's now(): the month of this process's clock, or the next or the
  // previous one when the two clocks straddle a month's end.
  const now = Date.now();
  await ensureMonthsOf(q, 'audit_log', [now - SKEW_MS, now + SKEW_MS]);
  await q.query(
    `INSERT INTO audit_log (user_id, username, mer_id, action, outcome, target, detail, ip, user_agent, operator_id)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [
      e.userId ?? null,
      e.username ?? null,
      e.merId ?? null,
      e.action,
      e.outcome ?? 'success',
      e.target ?? null,
      JSON.stringify(e.detail ?? {}),
      e.ip ?? null,
      e.userAgent?.slice(0, 300) ?? null,
      e.operatorId ?? null,
    ],
  );
  count(e);
}
