import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { Code, LIMITS } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit, AuditAction } from '../../lib/audit';
import { newToken, sha256 } from '../../lib/crypto';
import { formatInZone, type Zone } from '../txn';
import { checkUsable, countWrongPassword, findUserById, hasStepUp, passwordStep, type Meta, type UserRow } from '../user';
import { startSession, type TokenPair } from '../user';
import { AccountAudit } from './account.audit';
// Issue 51: the checks modules add to every sign-in (the IP allow-list).
import { checkSignIn, runSignInChecks } from '../user';
import { merchantRequiresTotp } from './security.service';

/**
 * Passkeys (WebAuthn, issue 28 item 4, decision 047): a merchant user registers several, names and
 * removes them, and signs in with one as the second factor in place of the e-mailed code or TOTP.
 * The relying party ID and the expected origin come from configuration (PASSKEY_ORIGIN or
 * PUBLIC_URL), never from the request. Challenges are stored here, bound to the session (a
 * registration) or to the sign-in attempt (a sign-in), live 2 minutes and are used once.
 */

const PASSKEY_CHALLENGE_SECONDS = 120;
const MAX_PASSKEYS = 10;
/** User verification (PIN, biometrics) is preferred, not required: the passkey is the second factor after a password. */
const USER_VERIFICATION = 'preferred' as const;

const who = (u: SessionUser, meta: Meta) => ({ userId: u.id, username: u.username, merId: u.merId, ...meta });

/** A credential as the browser library hands it over, parsed strictly (the signature and data are checked by the library). */
const b64url = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/);
const transports = z
  .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
  .max(7)
  .optional();
const registrationJson = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url.max(16384),
    authenticatorData: b64url.optional(),
    transports,
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
const authenticationJson = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** The credential field is the JSON text the browser library made: parsed, else "bad request". */
function parseCredential<T>(schema: z.ZodType<T>, text: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError(Code.BAD_REQUEST, 'passkeyBadResponse', {}, 400);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError(Code.BAD_REQUEST, 'passkeyBadResponse', {}, 400);
  return parsed.data;
}

interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: Uint8Array;
  sign_count: string | number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const rpOf = (deps: Deps) => deps.config.passkey;

/** Does the user have a passkey? */
export async function hasPasskey(q: Queryable, userId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM user_passkey WHERE user_id = $1 LIMIT 1', [userId]);
  return rows.length > 0;
}

export async function listPasskeys(deps: Deps, u: SessionUser, zone: Zone) {
  const { rows } = await deps.db.query<PasskeyRow>('SELECT id, name, created_at, last_used_at FROM user_passkey WHERE user_id = $1 ORDER BY id', [u.id]);
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: formatInZone(r.created_at, zone), lastUsedAt: r.last_used_at ? formatInZone(r.last_used_at, zone) : null }));
}

// ---- registration ----

/**
 * Adding a passkey is a security change like removing one (issue 47): the session must have passed
 * a password check within 5 minutes (step-up) — asked for the options and again when the passkey is
 * stored. A stolen session alone cannot add a second factor of its own.
 */
async function requireStepUp(deps: Deps, u: SessionUser, action: string, meta: Meta, target?: string) {
  if (hasStepUp(u.stepUpUntil, deps.clock.now())) return;
  await audit(deps.db, { action, outcome: 'failure', ...who(u, meta), ...(target ? { target } : {}), detail: { reason: 'step-up' } });
  throw new AppError(Code.FORBIDDEN, 'passkeyStepUpRequired', {}, 403);
}

/** Options for navigator.credentials.create(); the challenge is kept for this session, 2 minutes, once. Needs a step-up. */
export async function registrationOptions(deps: Deps, u: SessionUser, meta: Meta = {}) {
  await requireStepUp(deps, u, AccountAudit.passkeyRegistered, meta);
  const now = deps.clock.now();
  const { rows } = await deps.db.query<PasskeyRow>('SELECT credential_id, transports FROM user_passkey WHERE user_id = $1', [u.id]);
  if (rows.length >= MAX_PASSKEYS) throw new AppError(Code.CONFLICT, 'passkeyTooMany', { n: MAX_PASSKEYS });
  const { rpId } = rpOf(deps);
  const options = await generateRegistrationOptions({
    rpName: 'Merchant Portal',
    rpID: rpId,
    userName: u.username,
    userDisplayName: u.username,
    // The user handle: stable per account, no personal data (the account id under a server-wide prefix).
    userID: new TextEncoder().encode(`portal-user-${u.id}`),
    attestationType: 'none',
    excludeCredentials: rows.map((r) => ({ id: r.credential_id, transports: r.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: USER_VERIFICATION },
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
  });
  await deps.db.tx(async (q) => {
    // One registration at a time per session: an earlier, unused challenge is withdrawn.
    await q.query(`UPDATE passkey_challenge SET consumed_at = $2 WHERE session_id = $1 AND purpose = 'register' AND consumed_at IS NULL`, [u.sessionId, now]);
    await q.query(`INSERT INTO passkey_challenge (user_id, purpose, challenge, session_id, created_at, expires_at) VALUES ($1, 'register', $2, $3, $4, $5)`, [
      u.id,
      options.challenge,
      u.sessionId,
      now,
      new Date(now.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000),
    ]);
  });
  return options;
}

/** Takes this session's registration challenge, once: two requests with it never both get it. */
async function consumeRegisterChallenge(q: Queryable, u: SessionUser, now: Date): Promise<string | null> {
  const { rows } = await q.query<{ challenge: string }>(
    `UPDATE passkey_challenge SET consumed_at = $3
      WHERE id = (SELECT id FROM passkey_challenge WHERE session_id = $1 AND user_id = $2 AND purpose = 'register' AND consumed_at IS NULL ORDER BY id DESC LIMIT 1)
        AND consumed_at IS NULL AND expires_at > $3
      RETURNING challenge`,
    [u.sessionId, u.id, now],
  );
  return rows[0]?.challenge ?? null;
}

/** Verifies the authenticator's answer to this session's challenge and stores the passkey under its name. Needs a step-up. */
export async function registerPasskey(deps: Deps, u: SessionUser, name: string, credential: string, meta: Meta) {
  await requireStepUp(deps, u, AccountAudit.passkeyRegistered, meta);
  const now = deps.clock.now();
  const response = parseCredential(registrationJson, credential) as RegistrationResponseJSON;
  const challenge = await consumeRegisterChallenge(deps.db, u, now);
  const fail = async (reason: string) => {
    await audit(deps.db, { action: AccountAudit.passkeyRegistered, outcome: 'failure', ...who(u, meta), detail: { reason } });
    return new AppError(Code.VERIFY_CODE_ERROR, 'passkeyFailed');
  };
  if (!challenge) throw await fail('challenge');
  const { origin, rpId } = rpOf(deps);
  let info;
  try {
    const v = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpId, requireUserVerification: false });
    if (!v.verified || !v.registrationInfo) throw new Error('not verified');
    info = v.registrationInfo;
  } catch (err) {
    throw await fail(String((err as Error).message).slice(0, 120));
  }
  const cred = info.credential;
  const row = await deps.db.tx(async (q) => {
    await q.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [u.id]);
    const count = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM user_passkey WHERE user_id = $1', [u.id]);
    if (count.rows[0].n >= MAX_PASSKEYS) throw new AppError(Code.CONFLICT, 'passkeyTooMany', { n: MAX_PASSKEYS });
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO user_passkey (user_id, credential_id, public_key, sign_count, transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
      [u.id, cred.id, Buffer.from(cred.publicKey), cred.counter, cred.transports ?? response.response.transports ?? [], name, now],
    );
    if (!rows[0]) throw new AppError(Code.CONFLICT, 'passkeyExists');
    await audit(q, { action: AccountAudit.passkeyRegistered, ...who(u, meta), target: `passkey #${rows[0].id}`, detail: { name, aaguid: info.aaguid, backedUp: info.credentialBackedUp } });
    return rows[0];
  });
  return { id: row.id, name };
}

export async function renamePasskey(deps: Deps, u: SessionUser, id: number, name: string, meta: Meta) {
  const { rows } = await deps.db.query<{ old: string }>(
    `UPDATE user_passkey p SET name = $3 FROM (SELECT id, name AS old FROM user_passkey WHERE id = $1 AND user_id = $2 FOR UPDATE) o
      WHERE p.id = o.id RETURNING o.old`,
    [id, u.id, name],
  );
  if (!rows[0]) throw notFound(); // another user's passkey answers as if it did not exist
  await audit(deps.db, { action: AccountAudit.passkeyRenamed, ...who(u, meta), target: `passkey #${id}`, detail: { before: rows[0].old, after: name } });
  return { id, name };
}

/**
 * Removes a passkey: a security change, so the session must have passed a password check within
 * 5 minutes (step-up). The last strong factor of a user whose merchant requires one stays.
 */
export async function removePasskey(deps: Deps, u: SessionUser, id: number, meta: Meta) {
  await requireStepUp(deps, u, AccountAudit.passkeyRemoved, meta, `passkey #${id}`);
  const required = await merchantRequiresTotp(deps, u.merId);
  await deps.db.tx(async (q) => {
    const user = (await q.query<{ totp_enabled_at: Date | null }>('SELECT totp_enabled_at FROM app_user WHERE id = $1 FOR UPDATE', [u.id])).rows[0];
    const { rows } = await q.query<{ id: number; name: string }>('SELECT id, name FROM user_passkey WHERE id = $1 AND user_id = $2', [id, u.id]);
    if (!rows[0]) throw notFound();
    if (required && !user.totp_enabled_at) {
      const n = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM user_passkey WHERE user_id = $1', [u.id]);
      if (n.rows[0].n <= 1) throw new AppError(Code.TOTP_REQUIRED, 'passkeyLastRequired');
    }
    await q.query('DELETE FROM user_passkey WHERE id = $1 AND user_id = $2', [id, u.id]);
    await audit(q, { action: AccountAudit.passkeyRemoved, ...who(u, meta), target: `passkey #${id}`, detail: { name: rows[0].name } });
  });
}

// ---- sign-in ----

/**
 * "Use a passkey", the sign-in's second step: the password is checked first (counted toward the
 * lockout, the same answers as the code sign-in), then a challenge is bound to this attempt — a
 * random token only this browser holds — and the user's passkeys are offered.
 */
export async function loginOptions(deps: Deps, input: { username: string; password: string }, meta: Meta) {
  const user = await passwordStep(deps, input, meta);
  const now = deps.clock.now();
  const { rows } = await deps.db.query<PasskeyRow>('SELECT credential_id, transports FROM user_passkey WHERE user_id = $1 ORDER BY id', [user.id]);
  if (!rows.length) {
    await audit(deps.db, {
      action: AuditAction.loginFailure,
      outcome: 'failure',
      userId: user.id,
      username: user.username,
      merId: user.mer_id,
      detail: { reason: 'no-passkey', factor: 'passkey' },
      ...meta,
    });
    throw new AppError(Code.VERIFY_CODE_ERROR, 'passkeyNone');
  }
  const { rpId } = rpOf(deps);
  const options = await generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials: rows.map((r) => ({ id: r.credential_id, transports: r.transports as AuthenticatorTransportFuture[] })),
    userVerification: USER_VERIFICATION,
    timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
  });
  const attempt = newToken();
  await deps.db.query(`INSERT INTO passkey_challenge (user_id, purpose, challenge, attempt_hash, created_at, expires_at) VALUES ($1, 'login', $2, $3, $4, $5)`, [
    user.id,
    options.challenge,
    sha256(attempt),
    now,
    new Date(now.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000),
  ]);
  return { attempt, options: { ...options } };
}

/**
 * Finishes a passkey sign-in: the attempt's challenge is taken once (a replayed assertion finds it
 * used), the assertion is verified against the attempt's user's passkey — another user's passkey
 * fails —, its signature counter must move forward and is stored by a guarded update, and the
 * session starts. A failed assertion counts toward the lockout like a wrong code.
 */
export async function loginWithPasskey(deps: Deps, attempt: string, credential: string, meta: Meta): Promise<TokenPair> {
  const now = deps.clock.now();
  const response = parseCredential(authenticationJson, credential) as AuthenticationResponseJSON;
  const { rows: taken } = await deps.db.query<{ user_id: number; challenge: string }>(
    `UPDATE passkey_challenge SET consumed_at = $2 WHERE attempt_hash = $1 AND purpose = 'login' AND consumed_at IS NULL AND expires_at > $2 RETURNING user_id, challenge`,
    [sha256(attempt), now],
  );
  if (!taken[0]) {
    await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', detail: { reason: 'passkey-challenge', factor: 'passkey' }, ...meta });
    throw new AppError(Code.VERIFY_CODE_ERROR, 'passkeyFailed');
  }
  const found = await findUserById(deps.db, taken[0].user_id);
  const user: UserRow = checkUsable(found, found?.username ?? '', now);
  const failed = async (reason: string): Promise<never> => {
    const left = await deps.db.tx(async (q) => {
      await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', userId: user.id, username: user.username, merId: user.mer_id, detail: { reason, factor: 'passkey' }, ...meta });
      return countWrongPassword(q, user, now, meta, 'passkey');
    });
    if (left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: LIMITS.lockMinutes });
    throw new AppError(Code.VERIFY_CODE_ERROR, 'passkeyFailed');
  };
  const { rows } = await deps.db.query<PasskeyRow>('SELECT id, credential_id, public_key, sign_count, transports FROM user_passkey WHERE credential_id = $1 AND user_id = $2', [response.id, user.id]);
  const key = rows[0];
  if (!key) return failed('passkey-unknown');
  // Issue 51: "SSO required" (turned on since the options were given: break-glass administrators
  // excepted) and the merchant group's sign-in IP allow-list, checked before the session starts.
  try {
    await checkSignIn(deps.db, user, 'passkey');
  } catch (err) {
    await audit(deps.db, {
      action: AuditAction.loginFailure,
      outcome: 'failure',
      userId: user.id,
      username: user.username,
      merId: user.mer_id,
      detail: { reason: 'sso-required', factor: 'passkey' },
      ...meta,
    });
    throw err;
  }
  await runSignInChecks(deps, user, meta, 'passkey');
  const stored = Number(key.sign_count);
  const { origin, rpId } = rpOf(deps);
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response,
      expectedChallenge: taken[0].challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      credential: { id: key.credential_id, publicKey: new Uint8Array(key.public_key), counter: stored, transports: key.transports as AuthenticatorTransportFuture[] },
      requireUserVerification: false,
    });
    if (!v.verified) return failed('passkey-signature');
    newCounter = v.authenticationInfo.newCounter;
  } catch (err) {
    // The library refuses a counter that did not move forward (a cloned authenticator) by throwing.
    return failed(/counter/i.test(String((err as Error).message)) ? 'passkey-counter' : 'passkey-signature');
  }
  const pair = await deps.db.tx(async (q): Promise<TokenPair | null> => {
    // The counter moves forward (or both stay 0: an authenticator that keeps none), checked again
    // in the update itself so two sign-ins with one assertion never both pass.
    const upd = await q.query(`UPDATE user_passkey SET sign_count = $3, last_used_at = $4 WHERE id = $1 AND (sign_count < $3 OR (sign_count = 0 AND $3 = 0)) AND sign_count = $2 RETURNING id`, [
      key.id,
      stored,
      newCounter,
      now,
    ]);
    if (!upd.rows[0]) return null;
    await q.query('UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE id = $1', [user.id]);
    const issued = await startSession(q, now, user.id, meta, deps.config.accessTokenSeconds);
    await audit(q, { action: AuditAction.loginSuccess, userId: user.id, username: user.username, merId: user.mer_id, detail: { factor: 'passkey', passkey: key.id }, ...meta });
    return issued;
  });
  if (!pair) return failed('passkey-counter');
  return pair;
}
