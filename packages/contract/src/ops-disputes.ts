import type { OpsRole } from './ops';

/**
 * The back office's disputes (issue 48, docs/disputes.md "Back office"): risk, support and
 * read-only read every merchant's disputes; risk (and the administrator) enter the outcome a
 * gateway reported by e-mail rather than feed — no four eyes. Onboarding sees none.
 */
export const OPS_DISPUTES_READ_ROLES: readonly OpsRole[] = ['risk', 'support', 'read-only'];
export const OPS_DISPUTES_WRITE_ROLES: readonly OpsRole[] = ['risk'];
/** The outcomes an operator may enter (the state machine decides which apply to a dispute's state). */
export const OPS_DISPUTE_OUTCOMES = ['under_review', 'won', 'lost'] as const;
