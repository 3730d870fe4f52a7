import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';

/**
 * SQL of four eyes (issue 28, decision 041): the merchant's policy and the approval requests. The
 * effective policy of a merchant is its own, else its group's (a sub-merchant without one follows
 * the group's administrators' choice).
 */
export interface PolicyRow {
  mer_id: string;
  refund_limits: Record<string, number>;
  permission_raise: boolean;
  bank_change: boolean;
  expiry_hours: number;
}

export async function effectivePolicy(q: Queryable, merId: string): Promise<PolicyRow | null> {
  const { rows } = await q.query<PolicyRow>(
    `SELECT p.mer_id, p.refund_limits, p.permission_raise, p.bank_change, p.expiry_hours FROM four_eyes_policy p
      WHERE p.mer_id = $1 OR p.mer_id = (SELECT m.parent_id FROM merchant m WHERE m.mer_id = $1)
      ORDER BY (p.mer_id = $1) DESC LIMIT 1`,
    [merId],
  );
  return rows[0] ?? null;
}

/** The amount (minor units) above which a refund of `currency` at `merId` needs approval, or null. */
export async function refundLimitFor(q: Queryable, merId: string, currency: string): Promise<number | null> {
  const p = await effectivePolicy(q, merId);
  const v = p?.refund_limits?.[currency];
  return typeof v === 'number' ? v : null;
}

export const ApprovalAudit = {
  policy: 'approval.policy',
  requested: 'approval.request',
  approved: 'approval.approve',
  rejected: 'approval.reject',
  expired: 'approval.expire',
} as const;

/** Records a request in the caller's transaction (audited); the approvers' e-mail goes after COMMIT. */
export async function insertApproval(
  q: Queryable,
  r: { merId: string; kind: 'refund' | 'permission_raise' | 'bank_change'; permission: string; payload: unknown; summary: Record<string, unknown>; user: { id: number; username: string }; now: Date; ip?: string; userAgent?: string },
): Promise<number> {
  const policy = await effectivePolicy(q, r.merId);
  const hours = policy?.expiry_hours ?? 48;
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO approval_request (mer_id, kind, permission, payload, summary, requested_by, requested_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [r.merId, r.kind, r.permission, JSON.stringify(r.payload), JSON.stringify(r.summary), r.user.id, r.now, new Date(r.now.getTime() + hours * 3_600_000)],
  );
  await audit(q, {
    action: ApprovalAudit.requested, userId: r.user.id, username: r.user.username, merId: r.merId, target: `approval #${rows[0].id}`,
    detail: { approvalId: rows[0].id, kind: r.kind, summary: r.summary }, ip: r.ip, userAgent: r.userAgent,
  });
  return rows[0].id;
}

/** The refund caps (minor units) of `userId`'s named role for `currency`, or null when none. */
export async function roleCapsOf(q: Queryable, userId: number, currency: string): Promise<{ perRefund: number | null; perDay: number | null } | null> {
  const { rows } = await q.query<{ caps: Record<string, { perRefund: number | null; perDay: number | null }> }>(
    `SELECT r.refund_caps AS caps FROM app_user u JOIN team_role r ON r.id = u.team_role_id WHERE u.id = $1`,
    [userId],
  );
  return rows[0]?.caps?.[currency] ?? null;
}

/** Adds `amount` to the user's day of `currency` if that stays within `cap`; false (nothing added) otherwise. One statement: atomic under parallel refunds. */
export async function claimDailyCap(q: Queryable, userId: number, currency: string, day: string, amount: number, cap: number): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO refund_cap_usage (user_id, currency, day, amount) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, currency, day) DO UPDATE SET amount = refund_cap_usage.amount + EXCLUDED.amount
       WHERE refund_cap_usage.amount + EXCLUDED.amount <= $5
     RETURNING amount`,
    [userId, currency, day, amount, cap],
  );
  return rows.length > 0;
}

export async function releaseDailyCap(q: Queryable, userId: number, currency: string, day: string, amount: number): Promise<void> {
  await q.query('UPDATE refund_cap_usage SET amount = amount - $4 WHERE user_id = $1 AND currency = $2 AND day = $3', [userId, currency, day, amount]);
}

export async function dailyCapUsed(q: Queryable, userId: number, currency: string, day: string): Promise<number> {
  const { rows } = await q.query<{ amount: string }>('SELECT amount FROM refund_cap_usage WHERE user_id = $1 AND currency = $2 AND day = $3', [userId, currency, day]);
  return rows[0] ? Number(rows[0].amount) : 0;
}
