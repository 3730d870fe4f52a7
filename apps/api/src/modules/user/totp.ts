import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Queryable } from '../../db/db';
import { sha256 } from '../../lib/crypto';
import { MERCHANT_REALM, type Realm } from './realm';

/**
 * The second factor's secrets and codes, per realm (merchant users, operators): made at enrolment
 * (the account module, the back office), checked at sign-in (this module) — issue 45 §2: the sign-in
 * owns them, so it needs nothing of the account module.
 */

/** RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30 s; one step either side. */
const TOTP_ISSUER = 'Merchant Portal';
const PERIOD = 30;
const WINDOW = 1;

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The time step a code matches (within one step of now), or null. */
function matchingStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

/**
 * Accepts a TOTP code once: the step must be newer than the last one accepted (a code seen on the
 * wire cannot be replayed), claimed atomically.
 */
export async function acceptTotp(q: Queryable, userId: number, secret: string, code: string, now: Date, realm: Realm = MERCHANT_REALM): Promise<boolean> {
  const step = matchingStep(secret, code, now);
  if (step === null) return false;
  const { rows } = await q.query(`UPDATE ${realm.users} SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`, [userId, step]);
  return rows.length === 1;
}

/**
 * A code refused by acceptTotp because its step was already used (the replay protection), not
 * because it is wrong: the sign-in says "this code was just used; wait for the next one" (issue 46:
 * the code typed at activation, typed again at the first sign-in within its 30 seconds).
 */
export async function totpCodeUsed(q: Queryable, userId: number, secret: string, code: string, now: Date, realm: Realm = MERCHANT_REALM): Promise<boolean> {
  const step = matchingStep(secret, code, now);
  if (step === null) return false;
  const { rows } = await q.query<{ s: string | number | null }>(`SELECT totp_last_step AS s FROM ${realm.users} WHERE id = $1`, [userId]);
  return rows[0]?.s !== null && rows[0]?.s !== undefined && Number(rows[0].s) >= step;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_RE = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;
const normalise = (code: string) => code.toLowerCase().replace('-', '');
const hashRecovery = (userId: number, code: string) => sha256(`recovery:${userId}:${normalise(code)}`);

/** Ten recovery codes like `k7m2q-x9p4r` (about 49 bits each); the caller shows them once. */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const s = one();
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

/** Replaces the user's recovery codes with these (stored hashed). */
export async function storeRecoveryCodes(q: Queryable, userId: number, codes: string[], realm: Realm = MERCHANT_REALM): Promise<void> {
  await q.query(`DELETE FROM ${realm.recoveryCodes} WHERE user_id = $1`, [userId]);
  for (const c of codes) await q.query(`INSERT INTO ${realm.recoveryCodes} (user_id, code_hash) VALUES ($1,$2)`, [userId, hashRecovery(userId, c)]);
}

/** Uses a recovery code once (atomic): true when it was one of the user's unused codes. */
export async function useRecoveryCode(q: Queryable, userId: number, code: string, now: Date, realm: Realm = MERCHANT_REALM): Promise<boolean> {
  if (!RECOVERY_RE.test(code.trim())) return false;
  const { rows } = await q.query(
    `UPDATE ${realm.recoveryCodes} SET used_at = $3 WHERE id = (SELECT id FROM ${realm.recoveryCodes} WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1) AND used_at IS NULL RETURNING id`,
    [userId, hashRecovery(userId, code.trim()), now],
  );
  return rows.length === 1;
}

export async function recoveryCodesLeft(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM totp_recovery_code WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return rows[0].n;
}
