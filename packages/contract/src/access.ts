import { z } from 'zod';
import { isoDate } from './input';

/**
 * Access that expires (issue 28 item 3, decision 048): the merchant's inactivity limit, grant end
 * dates, and the quarterly access review.
 */
export const INACTIVE_DAYS_MIN = 14;
export const INACTIVE_DAYS_MAX = 90;
export const INACTIVE_DAYS_DEFAULT = 90;

const merId = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');
const userId = z.coerce.number().int().positive().max(2_147_483_647);

/** The last day of a user's access (platform zone), or blank for none. */
export const accessEndsOnField = z.preprocess((v) => (v === '' || v === null ? undefined : v), isoDate.optional());

export const accessPolicyQuerySchema = z.object({ merId: merId.optional() });
export const accessPolicySchema = z.object({
  merId,
  /** Days without a sign-in after which a user is disabled (14–90; the range is checked by the service, for its message). */
  inactiveDays: z.coerce.number().int(),
});
export type AccessPolicyInput = z.infer<typeof accessPolicySchema>;
export interface AccessPolicy {
  merId: string;
  inactiveDays: number;
  /** Whose limit applies: this merchant's own, its group's, or the default. */
  source: 'own' | 'group' | 'default';
}

export const REVIEW_DECISIONS = ['CONFIRMED', 'DISABLED', 'REMOVED'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const reviewQuerySchema = z.object({ merId: merId.optional() });
export const reviewDecideSchema = z.object({
  merId,
  userId,
  decision: z.enum(['CONFIRM', 'DISABLE', 'REMOVE']),
});
export type ReviewDecideInput = z.infer<typeof reviewDecideSchema>;
export const reviewCompleteSchema = z.object({ merId });
export const reviewHistoryQuerySchema = z.object({
  merId: merId.optional(),
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(50).default(10),
});
export const reviewIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export interface ReviewUser {
  userId: number;
  userName: string;
  email: string;
  role: string | null;
  roleName: string | null;
  permissions: string[];
  merIds: string[];
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  lastLoginTime: string | null;
  accessEndsOn: string | null;
  /** Whole days since the user's last sign-in (or creation, activation, enable). */
  inactiveDays: number;
  self: boolean;
  /** Its whole scope lies within the caller's: it may be disabled or removed here. */
  manageable: boolean;
  decision: ReviewDecision | null;
  decidedBy: string | null;
  decideTime: string | null;
}

export interface ReviewState {
  merId: string;
  /** The current quarter in the platform zone, e.g. 2026-Q4. */
  quarter: string;
  /** No review of this merchant completed this quarter. */
  due: boolean;
  lastCompleteTime: string | null;
  open: { id: number; startedBy: string; startTime: string } | null;
  inactiveDays: number;
  users: ReviewUser[];
}

export interface ReviewRecord {
  id: number;
  merId: string;
  quarter: string;
  startedBy: string;
  startTime: string;
  completedBy: string | null;
  completeTime: string | null;
  confirmed: number;
  disabled: number;
  removed: number;
}

export interface ReviewRecordItem {
  userId: number;
  userName: string;
  decision: ReviewDecision;
  decidedBy: string;
  decideTime: string;
  /** What the user had when the decision was taken. */
  role: string | null;
  roleName: string | null;
  permissions: string[];
  merIds: string[];
  lastLoginTime: string | null;
  accessEndsOn: string | null;
}
