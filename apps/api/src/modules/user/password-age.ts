import type { Deps } from '../../plugins/context';

/** How many days a password lasts (PASSWORD_MAX_AGE_DAYS, 90 by default; 0 = never expires). */
export const maxAgeDaysOf = (deps: Pick<Deps, 'config'>) => deps.config.passwordMaxAgeDays ?? 90;

/**
 * True when the password is older than PASSWORD_MAX_AGE_DAYS (0 = never expires): the sign-in then
 * asks for a new one, and the account's change of an expired password accepts it without a session.
 */
export function passwordExpired(deps: Pick<Deps, 'config'>, changedAt: Date | string, now: Date): boolean {
  const days = maxAgeDaysOf(deps);
  return days > 0 && now.getTime() - new Date(changedAt).getTime() > days * 86_400_000;
}
