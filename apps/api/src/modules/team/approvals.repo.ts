import type { Queryable } from '../../db/db';
import { APPROVER_COOLDOWN_DAYS_DEFAULT } from '@portal/contract';
import { audit } from '../../lib/audit';

/**
 * SQL of four eyes (issue 28, decision 041): the merchant's policy and the approval requests. The
 * effective policy of a sub-merchant is its group's with its own on top, rule by rule the stricter
 * (issue 47): a group's policy is a floor its sub-merchants can only tighten.
 */
export interface PolicyRow {
  mer_id: string;
  refund_limits: Record<string, number>;
  permission_raise: boolean;
  bank_change: boolean;
  expiry_hours: number;
  approver_cooldown_days: number;
}

const POLICY_COLUMNS = 'p.mer_id, p.refund_limits, p.permission_raise, p.bank_change, p.expiry_hours, p.approver_cooldown_days';

/** Rule by rule the stricter of two policies: the lower refund limit per currency, either switch on, the shorter expiry, the longer cool-down. */
export function stricter(a: PolicyRow | null, b: PolicyRow | null, merId: string): PolicyRow | null {
  if (!a || !b) return a || b ? { ...(a ?? b)!, mer_id: merId } : null;
  const limits: Record<string, number> = { ...a.refund_limits };
  for (const [c, v] of Object.entries(b.refund_limits ?? {})) limits[c] = c in limits ? Math.min(limits[c], v) : v;
  return {
    mer_id: merId,
    refund_limits: limits,
    permission_raise: a.permission_raise || b.permission_raise,
    bank_change: a.bank_change || b.bank_change,
    expiry_hours: Math.min(a.expiry_hours, b.expiry_hours),
    approver_cooldown_days: Math.max(a.approver_cooldown_days, b.approver_cooldown_days),
  };
}

/** The rules `after` is looser in than `before` (names of the policy's fields); empty: not loosened. */
export function loosenedRules(before: PolicyRow | null, after: PolicyRow | null): string[] {
  const b: Omit<PolicyRow, 'mer_id'> = before ?? { refund_limits: {}, permission_raise: false, bank_change: false, expiry_hours: 48, approver_cooldown_days: APPROVER_COOLDOWN_DAYS_DEFAULT };
  const a: Omit<PolicyRow, 'mer_id'> = after ?? { refund_limits: {}, permission_raise: false, bank_change: false, expiry_hours: 48, approver_cooldown_days: APPROVER_COOLDOWN_DAYS_DEFAULT };
  const out: string[] = [];
  if (Object.entries(b.refund_limits ?? {}).some(([c, v]) => !(c in (a.refund_limits ?? {})) || a.refund_limits[c] > v)) out.push('refundLimits');
  if (b.permission_raise && !a.permission_raise) out.push('permissionRaise');
  if (b.bank_change && !a.bank_change) out.push('bankChange');
  if (a.expiry_hours > b.expiry_hours) out.push('expiryHours');
  if (a.approver_cooldown_days < b.approver_cooldown_days) out.push('approverCooldownDays');
  return out;
}

/** A merchant's own policy row and its group's (null when none / not a sub-merchant). */
export async function policyRows(q: Queryable, merId: string): Promise<{ own: PolicyRow | null; group: PolicyRow | null }> {
  const { rows } = await q.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM four_eyes_policy p
      WHERE p.mer_id = $1 OR p.mer_id = (SELECT m.parent_id FROM merchant m WHERE m.mer_id = $1)`,
    [merId],
  );
  return { own: rows.find((r) => r.mer_id === merId) ?? null, group: rows.find((r) => r.mer_id !== merId) ?? null };
}

export async function effectivePolicy(q: Queryable, merId: string): Promise<PolicyRow | null> {
  const { own, group } = await policyRows(q, merId);
  return stricter(group, own, merId);
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
  r: {
    merId: string;
    kind: 'refund' | 'permission_raise' | 'bank_change' | 'policy_change';
    permission: string;
    payload: unknown;
    summary: Record<string, unknown>;
    user: { id: number; username: string };
    now: Date;
    ip?: string;
    userAgent?: string;
  },
): Promise<number> {
  const policy = await effectivePolicy(q, r.merId);
  const hours = policy?.expiry_hours ?? 48;
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO approval_request (mer_id, kind, permission, payload, summary, requested_by, requested_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [r.merId, r.kind, r.permission, JSON.stringify(r.payload), JSON.stringify(r.summary), r.user.id, r.now, new Date(r.now.getTime() + hours * 3_600_000)],
  );
  await audit(q, {
    action: ApprovalAudit.requested,
    userId: r.user.id,
    username: r.user.username,
    merId: r.merId,
    target: `approval #${rows[0].id}`,
    detail: { approvalId: rows[0].id, kind: r.kind, summary: r.summary },
    ip: r.ip,
    userAgent: r.userAgent,
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

/**
 * Records that `by` created or raised `userId` (or approved that), in the change's transaction
 * (issue 47): for the cool-down, the user cannot approve requests of `by`.
 */
export async function recordGrant(q: Queryable, userId: number, by: number, how: 'created' | 'raised' | 'approved', now: Date): Promise<void> {
  if (userId === by) return;
  await q.query('INSERT INTO user_grant_origin (user_id, granted_by, how, granted_at) VALUES ($1, $2, $3, $4)', [userId, by, how, now]);
}

/** Who created or raised `userId` since `since` (newest first), with their user names. */
export async function grantsOf(
  q: Queryable,
  userId: number,
  since: Date | null = null,
): Promise<{ id: number; granted_by: number; by: string; how: 'created' | 'raised' | 'approved'; granted_at: Date }[]> {
  const { rows } = await q.query<{ id: number; granted_by: number; by: string; how: 'created' | 'raised' | 'approved'; granted_at: Date }>(
    `SELECT g.id, g.granted_by, u.username AS by, g.how, g.granted_at FROM user_grant_origin g JOIN app_user u ON u.id = g.granted_by
      WHERE g.user_id = $1 AND ($2::timestamptz IS NULL OR g.granted_at > $2::timestamptz) ORDER BY g.granted_at DESC, g.id DESC`,
    [userId, since],
  );
  return rows;
}
