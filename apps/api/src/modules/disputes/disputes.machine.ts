/**
 * The dispute state machine (issue 48, docs/disputes.md). A dispute needs a response, is under
 * review once the merchant answered, and ends won, lost, accepted (the merchant gave in) or expired
 * (the deadline passed unanswered: lost). Final states never change; every other change is refused.
 */
export const DISPUTE_KINDS = ['inquiry', 'chargeback', 'pre_arbitration'] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];
export const DISPUTE_STATES = ['needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];
export const OPEN_STATES: readonly DisputeState[] = ['needs_response', 'under_review'];
export const FINAL_STATES: readonly DisputeState[] = ['won', 'lost', 'accepted', 'expired'];

/** Who may make a change: the merchant (answer, accept), the gateway / back office (review, outcome), the clock (expiry). */
export type Actor = 'merchant' | 'gateway' | 'clock';

const NEXT: Record<DisputeState, Partial<Record<DisputeState, readonly Actor[]>>> = {
  needs_response: {
    under_review: ['merchant', 'gateway'],
    accepted: ['merchant', 'gateway'],
    expired: ['clock', 'gateway'],
    // A gateway may rule without an answer (an inquiry closed, a chargeback decided by the issuer).
    won: ['gateway'],
    lost: ['gateway'],
  },
  under_review: { won: ['gateway'], lost: ['gateway'] },
  won: {},
  lost: {},
  accepted: {},
  expired: {},
};

export function canMove(from: DisputeState, to: DisputeState, actor: Actor): boolean {
  return NEXT[from][to]?.includes(actor) ?? false;
}

/** Whether a kind moves money (an inquiry / retrieval request never does). */
export const movesMoney = (kind: DisputeKind): boolean => kind !== 'inquiry';
