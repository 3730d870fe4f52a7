import type { Deps } from '../../plugins/context';

/**
 * Checks a module adds to every merchant sign-in (issue 51: the IP allow-list), run once the first
 * factor is proven and again before the session starts. A check throws its own refusal (audited by
 * it). Registered from a module's `init` — the sign-in never imports the modules that check it.
 */
export type SignInCheck = (deps: Deps, user: { id: number; username: string; mer_id: string }, meta: { ip?: string; userAgent?: string }, where: string) => Promise<void>;

const checks = new Map<string, SignInCheck>();

/** Registers (or replaces) the check named `name`. */
export function registerSignInCheck(name: string, check: SignInCheck): void {
  checks.set(name, check);
}

export async function runSignInChecks(deps: Deps, user: { id: number; username: string; mer_id: string }, meta: { ip?: string; userAgent?: string }, where: string): Promise<void> {
  for (const check of checks.values()) await check(deps, user, meta, where);
}
