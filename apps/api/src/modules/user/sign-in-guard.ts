import type { Queryable } from '../../db/db';

/**
 * Sign-in guards (issue 51): rules other modules add to the sign-in without the user module
 * knowing them — the SSO module's "SSO required" refuses passwords, e-mailed codes and password
 * resets of its merchants' users (break-glass administrators excepted). A guard throws the
 * AppError to answer, or returns to let the step go on. Registered once per process (a module's
 * `init`); every app built in the process runs them (they only read the database they are given).
 */
export type SignInStep = 'password' | 'email-code' | 'second-factor' | 'password-reset' | 'passkey' | 'step-up';
export type SignInGuard = (q: Queryable, user: { id: number; username: string; mer_id: string }, step: SignInStep) => Promise<void>;

const guards = new Set<SignInGuard>();

/** Adds a guard (the same function twice is kept once). */
export function addSignInGuard(g: SignInGuard): void {
  guards.add(g);
}

/** Runs every guard for the step; the first to throw answers. */
export async function checkSignIn(q: Queryable, user: { id: number; username: string; mer_id: string }, step: SignInStep): Promise<void> {
  for (const g of guards) await g(q, user, step);
}

/** True when a guard refuses the step (for callers that answer alike, e.g. "send me a code"). */
export async function signInRefused(q: Queryable, user: { id: number; username: string; mer_id: string }, step: SignInStep): Promise<boolean> {
  try {
    await checkSignIn(q, user, step);
    return false;
  } catch {
    return true;
  }
}

/**
 * Guards of changes that take a user's access away (issue 51: the last break-glass administrator
 * of a merchant requiring SSO may not be disabled, removed or made a non-administrator — the
 * merchant would lock itself out). Called by the team module inside its transaction, the user's
 * row (and its merchant's administrators') locked; a guard throws the AppError to refuse.
 */
export type AccessChange = 'disable' | 'remove' | 'demote';
export type AccessGuard = (q: Queryable, user: { id: number; mer_id: string }, change: AccessChange) => Promise<void>;

const accessGuards = new Set<AccessGuard>();

export function addAccessGuard(g: AccessGuard): void {
  accessGuards.add(g);
}

export async function checkAccessChange(q: Queryable, user: { id: number; mer_id: string }, change: AccessChange): Promise<void> {
  for (const g of accessGuards) await g(q, user, change);
}
