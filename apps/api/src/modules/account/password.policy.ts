import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { maxAgeDaysOf } from '../user';

/** How many passwords back a new one may not repeat (the current one included). */
export const PASSWORD_HISTORY = 4;
const PASSWORD_MAX_LENGTH = 128;

export const minLengthOf = (deps: Deps) => deps.config.passwordMinLength ?? 8;

/**
 * Letters and digits (both), at least PASSWORD_MIN_LENGTH characters (counted as characters,
 * not UTF-16 units), at most 128, no control characters or spaces; the two entries match.
 */
export function checkPasswordRules(deps: Deps, password: string, confirm: string): void {
  const n = minLengthOf(deps);
  const len = [...password].length;
  if (len < n || len > PASSWORD_MAX_LENGTH || !/[A-Za-z]/.test(password) || !/[0-9]/.test(password) || /[\s\p{Cc}]/u.test(password)) {
    throw new AppError(Code.PASSWORD_RULES, 'passwordRules', { n }, 200);
  }
  if (password !== confirm) throw new AppError(Code.PASSWORD_MISMATCH, 'passwordMismatch');
}

/** Refuses a password equal to the current one or to the earlier ones kept (last 4 in all). */
export async function assertNotReused(q: Queryable, userId: number, currentHash: string, password: string): Promise<void> {
  const { rows } = await q.query<{ password_hash: string }>('SELECT password_hash FROM password_history WHERE user_id = $1 ORDER BY id DESC LIMIT $2', [userId, PASSWORD_HISTORY - 1]);
  for (const h of [currentHash, ...rows.map((r) => r.password_hash)]) {
    if (await verifyPassword(h, password)) throw new AppError(Code.PASSWORD_REUSED, 'passwordReused', { n: PASSWORD_HISTORY });
  }
}

/** Stores the new hash, keeps the old one in the history, restarts the expiry clock and the failure count. */
export async function storePassword(q: Queryable, userId: number, oldHash: string, newHash: string, now: Date): Promise<void> {
  if (oldHash && !oldHash.startsWith('!')) {
    await q.query('INSERT INTO password_history (user_id, password_hash, created_at) VALUES ($1,$2,$3)', [userId, oldHash, now]);
  }
  await q.query('UPDATE app_user SET password_hash = $2, password_changed_at = $3, failed_logins = 0, locked_until = NULL WHERE id = $1', [userId, newHash, now]);
}

export { hashPassword };
// The password's age is the sign-in's (user/password-age.ts); the policy's answer (`/api/user/password/policy`) shows it.
export { maxAgeDaysOf };
