import type { Queryable } from '../../db/db';
import type { OperationRequest } from './acquirer.types';

/** Who recorded an answer: the asker (its own request), the job, the query button, the feed. */
export interface Actor {
  kind: 'user' | 'system' | 'gateway' | 'buyer';
  userId?: number | null;
  username?: string | null;
}

/** A charge for an order whose final result an operation has just recorded (money moved, once). */
export interface SettledCharge {
  orderId: number;
  outcome: 'success' | 'failed';
  /** The charge's transaction. */
  txn: { id: number; gwTransId: string };
  result: { gwResponse: string; respMsg: string | null };
  actor: Actor;
  /** What was sent (brand, channel, the masked card the buyer's event shows). */
  request: OperationRequest;
  now: Date;
}

/**
 * What follows a charge's final result outside the acquirer (issue 45 §2: the acquirer names no
 * module above it): the order it paid — pay by link or in store — becomes paid or failed, with its
 * 'payment' event, in the settling transaction `q`. The paybylink module registers it from its
 * manifest's `init` (each app a process builds registers it again; the demo seed's process and the
 * import command run the modules' `init` too, `initModules`).
 */
export type ChargeOrderFollower = (q: Queryable, charge: SettledCharge) => Promise<void>;

let follower: ChargeOrderFollower | null = null;

/** Registers (or replaces) what a charge's order does with its result. */
export function registerChargeOrder(f: ChargeOrderFollower): void {
  follower = f;
}

/** The registered follower; none is a defect (the module owning the orders was not initialised), never a silent skip. */
export function chargeOrderFollower(): ChargeOrderFollower {
  if (!follower) throw new Error('acquirer: a charge for an order settled, but no module registered its orders (registerChargeOrder; the modules were not initialised)');
  return follower;
}
