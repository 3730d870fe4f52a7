import { z } from 'zod';
import { pageQuerySchema } from './api';
import { textInput } from './input';

/**
 * Four eyes (issue 28, decision 041): per merchant, set by its administrators — refunds above an
 * amount per currency, and changes that raise a user's permissions, need a second user holding the
 * permission to approve. The request waits in the approvals list, expires after a set time, and is
 * executed exactly once by its approval; its requester cannot approve it.
 */
export const APPROVAL_KINDS = ['refund', 'permission_raise', 'bank_change', 'policy_change'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface FourEyesPolicy {
  merId: string;
  /** Refunds above these amounts (decimal strings, by ISO currency) need a second user's approval. */
  refundLimits: Record<string, string>;
  /** Changes raising a user's permissions (edit, a named role's change) need approval. */
  permissionRaise: boolean;
  /** Bank-account change requests wait for a second user holding merchant:bank:change (decision 049). */
  bankChange: boolean;
  /** How long a request waits before it expires. */
  expiryHours: number;
  /**
   * Issue 47: a user created or raised within this many days cannot approve requests of the user
   * who created or raised it (nor of the one who approved that).
   */
  approverCooldownDays: number;
  /** A sub-merchant's: its group's policy, the floor it can only tighten (null: none, or a group itself). */
  groupFloor: Omit<FourEyesPolicy, 'groupFloor' | 'merId'> | null;
}

/** Default of `approverCooldownDays` (also when a merchant has no policy). */
export const APPROVER_COOLDOWN_DAYS_DEFAULT = 30;

const merId = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');
const CURRENCY_LIMIT = /^([A-Z]{3}):(\d{1,12}(?:\.\d{1,3})?)$/;
/** "USD:1000,EUR:500.50" (a form field) or an array of "CUR:amount". */
const limits = z.preprocess((v) => (typeof v === 'string' ? (v.trim() ? v.split(',').map((x) => x.trim()) : []) : v), z.array(z.string().regex(CURRENCY_LIMIT, 'CUR:amount')).max(40));
export const fourEyesPolicySchema = z.object({
  merId,
  refundLimits: limits,
  permissionRaise: z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()),
  /** Absent: off (clients of before decision 049 keep working). */
  bankChange: z.preprocess((v) => (v === undefined ? false : v === 'true' ? true : v === 'false' ? false : v), z.boolean()),
  expiryHours: z.coerce.number().int().min(1).max(720),
  /** Absent: unchanged (clients of before issue 47 keep working). */
  approverCooldownDays: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(0).max(365).optional()),
});
export type FourEyesPolicyInput = z.infer<typeof fourEyesPolicySchema>;
export const policyQuerySchema = z.object({ merId: merId.optional() });
export const parseCurrencyLimit = (s: string) => {
  const m = CURRENCY_LIMIT.exec(s)!;
  return { currency: m[1], amount: m[2] };
};

export interface ApprovalRow {
  id: number;
  merId: string;
  kind: ApprovalKind;
  status: ApprovalStatus;
  /** What is asked, for the list (e.g. refund: order, amount, currency; permission raise: user, added permissions). */
  summary: Record<string, unknown>;
  requestedBy: string;
  requestTime: string;
  expireTime: string;
  decidedBy: string | null;
  decideTime: string | null;
  /** The executed action's answer (refund result, or the edited user). */
  result: Record<string, unknown> | null;
  /** Whether the caller may decide it (holds the permission, is not its requester, pending). */
  canDecide: boolean;
  /** Who created or raised the user that decided it (issue 47), newest first. */
  deciderGrants: ApprovalGrant[];
  /** Set when the caller may not approve it because its requester created or raised the caller within the cool-down. */
  yourGrant: ApprovalGrant | null;
}

/** A user's creation or raise: by whom (user name), how, when (platform zone). */
export interface ApprovalGrant {
  by: string;
  how: 'created' | 'raised' | 'approved';
  time: string;
}

export const approvalListQuerySchema = pageQuerySchema.extend({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(APPROVAL_STATUSES).optional()),
});
export const approvalDecisionSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  /** Rejections may say why. */
  note: z.preprocess((v) => (v === undefined || v === null ? '' : v), textInput(200)),
});
