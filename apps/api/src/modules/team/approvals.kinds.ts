import type { Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import type { Queryable } from '../../db/db';
import type { Meta } from './team.rules';

/**
 * What another module does when one of its four-eyes requests is decided (issue 45 §1: the team
 * module names no module it serves). A module registers its kinds in its manifest's `init`:
 * - `execute` runs an approved request as the approver, after the decision's transaction (a refund
 *   calls the acquirer); its answer is stored on the request;
 * - `close` moves what the request held in the decision's own transaction (no network call): a
 *   bank change handed to the provider when approved, closed when rejected or expired. It answers
 *   the id of what moved, or null when nothing was held.
 */
export interface ApprovalKind {
  execute?: (deps: Deps, approver: SessionUser, request: { id: number; payload: unknown; requestedBy: number }, lang: Language, meta: Meta) => Promise<Record<string, unknown>>;
  close?: (q: Queryable, approvalId: number, to: 'PENDING' | 'MERCHANT_REJECTED' | 'EXPIRED', now: Date, by?: { user: SessionUser; note: string; meta: Meta }) => Promise<number | null>;
}

const kinds = new Map<string, ApprovalKind>();

/**
 * Registers the handlers of a request kind, from the owning module's manifest `init` (each app a
 * process builds registers them again: the same handlers, kept once by kind).
 */
export function registerApprovalKind(kind: string, handlers: ApprovalKind): void {
  kinds.set(kind, handlers);
}

/** The handlers of a kind; a kind no module registered is a defect (its module is not loaded). */
export function approvalKind(kind: string): ApprovalKind {
  const k = kinds.get(kind);
  if (!k) throw new Error(`approval kind ${kind}: no module registered it`);
  return k;
}

/**
 * A change another module owns that goes through one of the team's own request kinds — a
 * `policy_change` whose payload is `{ requireTotp }` (the account module's merchant setting): the
 * payload's key names its handler, which runs the approved change as the approver. Registered from
 * the owning module's manifest `init`, as a kind is.
 */
const changes = new Map<string, NonNullable<ApprovalKind['execute']>>();

export function registerApprovalChange(payloadKey: string, execute: NonNullable<ApprovalKind['execute']>): void {
  changes.set(payloadKey, execute);
}

/** The handler of a payload another module registered (by its key), or undefined for the team's own. */
export function approvalChangeOf(payload: unknown): NonNullable<ApprovalKind['execute']> | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  for (const key of Object.keys(payload)) {
    const execute = changes.get(key);
    if (execute) return execute;
  }
  return undefined;
}

/** Every kind's `close`: an expired request closes whatever it held, of any kind. */
export function closers(): NonNullable<ApprovalKind['close']>[] {
  return [...kinds.values()].flatMap((k) => (k.close ? [k.close] : []));
}
