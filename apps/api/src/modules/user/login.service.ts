import { Code, LIMITS, USERNAME_RE } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { hashPassword, safeEqual, sha256, sixDigitCode, verifyPassword } from '../../lib/crypto';
import { audit, AuditAction } from '../../lib/audit';
import { t } from '../../lib/messages';
import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { startSession, type TokenPair } from './session.service';
import { randomBytes } from 'node:crypto';
import { passwordExpired } from './password-age';
import { acceptTotp, totpCodeUsed, useRecoveryCode, RECOVERY_RE } from './totp';
import { MERCHANT_REALM, type Realm } from './realm';
import { checkSignIn, signInRefused } from './sign-in-guard';
// Issue 51: the checks modules add to every sign-in (the IP allow-list).
import { runSignInChecks } from './signin-checks';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  email: string;
  mer_id: string;
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  failed_logins: number;
  locked_until: Date | null;
  password_changed_at: Date;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
}

const USER_COLUMNS = `id, username, password_hash, email, mer_id, status, failed_logins, locked_until, password_changed_at, totp_secret, totp_enabled_at`;
/** The account row's columns in a realm (an operator has no merchant: mer_id is null). */
const columnsOf = (realm: Realm) => USER_COLUMNS.replace('mer_id', `${realm.merColumn} AS mer_id`);

export interface Meta {
  ip?: string;
  userAgent?: string;
  /** The request's language: recorded on the user at sign-in for its e-mails from jobs (decision 048). */
  lang?: string;
}

async function findUser(q: Queryable, username: string, realm: Realm = MERCHANT_REALM): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`SELECT ${columnsOf(realm)} FROM ${realm.users} WHERE lower(username) = lower($1)`, [username]);
  return rows[0];
}

export async function findUserById(q: Queryable, id: number, realm: Realm = MERCHANT_REALM): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`SELECT ${columnsOf(realm)} FROM ${realm.users} WHERE id = $1`, [id]);
  return rows[0];
}
export { findUser };

let dummy: Promise<string> | null = null;
/**
 * A hash of a random password, made once: an unknown user name is verified against it, so it
 * costs the same argon2 time as a known one with a wrong password.
 */
const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString('hex')));

export function checkUsable(u: UserRow | undefined, username: string, now: Date): UserRow {
  if (!USERNAME_RE.test(username)) throw new AppError(Code.INVALID_USERNAME, 'invalidUsername');
  if (!u || u.status === 'DISABLED') throw new AppError(Code.USER_NOT_EXIST, 'userNotExist');
  if (u.status === 'INACTIVE') throw new AppError(Code.USER_NOT_ACTIVATED, 'userNotActivated');
  if (u.locked_until && new Date(u.locked_until) > now) {
    const m = Math.ceil((new Date(u.locked_until).getTime() - now.getTime()) / 60000);
    throw new AppError(Code.USER_LOCKED, 'userLocked', { m });
  }
  return u;
}

/** A name that signs in: an active account. Any other name (unknown, not activated, disabled) answers alike. */
export const usableAccount = (u: UserRow | undefined): u is UserRow => !!u && u.status === 'ACTIVE';

const lockedFor = (until: Date | null, now: Date) => Math.max(1, Math.ceil(((until ? new Date(until).getTime() : now.getTime() + LIMITS.lockMinutes * 60000) - now.getTime()) / 60000));

/**
 * A password given for a name that is no usable account (unknown, not activated, disabled; decision
 * 036): answered exactly as a wrong password of a real one. The try is claimed per attempted name
 * (lower-cased) in one upsert before argon2 runs, so parallel guesses each count and the fifth locks
 * the name for 30 minutes; the password is verified against a dummy hash so it costs the same time.
 * Always throws: the same code, wording and remaining-tries count as a real account's wrong password.
 */
export async function refuseUnusable(
  deps: Deps,
  found: UserRow | undefined,
  username: string,
  password: string,
  meta: Meta,
  where: string,
  wrongKey: 'signInFailed' | 'originalPasswordIncorrect' = 'signInFailed',
  realm: Realm = MERCHANT_REALM,
): Promise<never> {
  const now = deps.clock.now();
  const max = LIMITS.maxPasswordFailures;
  const name = username.toLowerCase();
  const reason = !found ? 'unknown-user' : found.status === 'INACTIVE' ? 'not-activated' : 'disabled';
  const { rows } = await deps.db.query<{ failed: number }>(
    `INSERT INTO ${realm.nameAttempts} AS a (name, failed, locked_until, updated_at)
     VALUES ($1, 1, CASE WHEN 1 >= $3 THEN $4::timestamptz END, $2)
     ON CONFLICT (name) DO UPDATE
        SET failed = CASE WHEN a.locked_until IS NOT NULL AND a.locked_until <= $2 THEN 1 ELSE a.failed + 1 END,
            locked_until = CASE WHEN (CASE WHEN a.locked_until IS NOT NULL AND a.locked_until <= $2 THEN 1 ELSE a.failed + 1 END) >= $3
                                THEN $4::timestamptz ELSE NULL END,
            updated_at = $2
      WHERE a.locked_until IS NULL OR a.locked_until <= $2
     RETURNING failed`,
    [name, now, max, new Date(now.getTime() + LIMITS.lockMinutes * 60000)],
  );
  const base = { action: AuditAction.loginFailure, outcome: 'failure' as const, ...realm.actor(found, username), ...meta };
  if (!rows[0]) {
    const lk = await deps.db.query<{ locked_until: Date | null }>(`SELECT locked_until FROM ${realm.nameAttempts} WHERE name = $1`, [name]);
    await audit(deps.db, { ...base, detail: { reason: 'locked', account: reason, where } });
    throw new AppError(Code.USER_LOCKED, 'userLocked', { m: lockedFor(lk.rows[0]?.locked_until ?? null, now) });
  }
  await verifyPassword(await dummyHash(), password);
  const failed = rows[0].failed;
  const left = Math.max(0, max - failed);
  await audit(deps.db, { ...base, detail: { reason, where, failed } });
  if (left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: LIMITS.lockMinutes });
  throw new AppError(Code.WRONG_PASSWORD, wrongKey, { n: left }, 200, { remaining: left });
}

/** The lock of a name that is no usable account, if any: answered like a locked account. */
async function checkNameLock(deps: Deps, username: string, now: Date) {
  const { rows } = await deps.db.query<{ locked_until: Date | null }>('SELECT locked_until FROM login_name_attempt WHERE name = $1', [username.toLowerCase()]);
  const until = rows[0]?.locked_until;
  if (until && new Date(until) > now) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: lockedFor(until, now) });
}

/**
 * "Send me a code" for a name that is no usable account — or, asked without the password, for an
 * account whose second factor is not the e-mailed code (TOTP, a required passkey; issue 47): no
 * mail, but the answer a real e-mail account gets (decision 036), its 60-second resend minute
 * claimed per name in one guarded upsert, and its lock answered as a real one's.
 */
async function noCodeForName(deps: Deps, found: UserRow | undefined, username: string, now: Date, meta: Meta, why?: string) {
  await checkNameLock(deps, username, now);
  const name = username.toLowerCase();
  const { rows } = await deps.db.query<{ name: string }>(
    `INSERT INTO login_name_attempt AS a (name, code_sent_at, updated_at) VALUES ($1, $2, $2)
     ON CONFLICT (name) DO UPDATE SET code_sent_at = $2, updated_at = $2
      WHERE a.code_sent_at IS NULL OR a.code_sent_at <= $3
     RETURNING name`,
    [name, now, new Date(now.getTime() - LIMITS.emailCodeResendSeconds * 1000)],
  );
  if (!rows[0]) {
    const last = await deps.db.query<{ code_sent_at: Date }>('SELECT code_sent_at FROM login_name_attempt WHERE name = $1', [name]);
    const wait = Math.max(1, Math.ceil((new Date(last.rows[0].code_sent_at).getTime() + LIMITS.emailCodeResendSeconds * 1000 - now.getTime()) / 1000));
    throw new AppError(Code.CODE_RESEND_TOO_SOON, 'codeResendTooSoon', { s: wait }, 200, { wait });
  }
  const reason = why ?? (!found ? 'unknown-user' : found.status === 'INACTIVE' ? 'not-activated' : 'disabled');
  await audit(deps.db, { action: AuditAction.emailCode, outcome: 'failure', userId: found?.id, username, merId: found?.mer_id, detail: { reason }, ...meta });
  return { resendAfter: LIMITS.emailCodeResendSeconds, expiresIn: LIMITS.emailCodeTtlSeconds, totp: false };
}

/**
 * The merchant requires a passkey or TOTP (merchant.require_totp, decision 047) and this user has a
 * passkey but no authenticator: the e-mailed code is no second factor for them — the passkey is.
 */
async function passkeyInsteadOfEmail(q: Queryable, user: UserRow): Promise<boolean> {
  if (user.totp_enabled_at) return false;
  const { rows } = await q.query<{ r: boolean }>('SELECT EXISTS (SELECT 1 FROM user_passkey WHERE user_id = $1) AS r', [user.id]);
  return rows[0].r && (await merchantRequiresSecondFactor(q, user.mer_id));
}

/** Does the merchant (or its group) require a second factor of its users (merchant.require_totp)? */
export async function merchantRequiresSecondFactor(q: Queryable, merId: string): Promise<boolean> {
  const { rows } = await q.query<{ r: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM merchant m JOIN merchant x ON x.mer_id = m.mer_id OR x.mer_id = m.parent_id WHERE m.mer_id = $1 AND x.require_totp) AS r`,
    [merId],
  );
  return rows[0].r;
}

/**
 * "Send code" of the sign-in (issue 47: a TOTP user could be told apart by `totp: true` before the
 * password was proven). With the password — as the sign-in screen asks — it is checked first
 * (counted toward the lockout; an unknown name, a wrong password and a TOTP user's wrong password
 * answer alike), and only then is the user told the factor: the authenticator (`totp`), a required
 * passkey (`passkey`), or a code e-mailed (valid 5 minutes, a new one after 60 s, 5 wrong tries).
 * Without the password every name answers like an e-mail account: a code is e-mailed to e-mail
 * accounts only; TOTP and passkey accounts, and names that are no account, get that same answer
 * without a mail (decision 036).
 */
export async function sendEmailCode(deps: Deps, lang: Language, username: string, meta: Meta, password?: string) {
  const now = deps.clock.now();
  if (password !== undefined) return sendSecondFactor(deps, lang, await passwordStep(deps, { username, password }, meta), meta);
  if (!USERNAME_RE.test(username)) throw new AppError(Code.INVALID_USERNAME, 'invalidUsername');
  const found = await findUser(deps.db, username);
  if (!usableAccount(found)) return noCodeForName(deps, found, username, now, meta);
  const user = checkUsable(found, username, now);
  if (user.totp_enabled_at || (await passkeyInsteadOfEmail(deps.db, user))) return noCodeForName(deps, found, username, now, meta, 'factor-not-email-unproven');
  // Issue 51: "SSO required" — no code is e-mailed, the answer is an e-mail account's (the password step says why).
  if (await signInRefused(deps.db, user, 'email-code')) return noCodeForName(deps, found, username, now, meta, 'sso-required');
  return mailLoginCode(deps, lang, user, meta);
}

/**
 * The second factor of a user whose first one is proven (the password, or WeChat): the
 * authenticator's code (no mail), a required passkey (no mail, decision 047), or an e-mailed code.
 */
export async function sendSecondFactor(deps: Deps, lang: Language, user: UserRow, meta: Meta): Promise<{ resendAfter: number; expiresIn: number; totp: boolean; passkey?: boolean }> {
  // With an authenticator enrolled, the second factor is its code: no e-mail.
  if (user.totp_enabled_at) return { resendAfter: 0, expiresIn: 0, totp: true };
  // Required strong factor, and a passkey enrolled: no e-mail, the passkey is asked (decision 047).
  if (await passkeyInsteadOfEmail(deps.db, user)) return { resendAfter: 0, expiresIn: 0, totp: false, passkey: true };
  return mailLoginCode(deps, lang, user, meta);
}

/** E-mails a 6-digit one-time code: valid 5 minutes, a new one after 60 s, 5 wrong tries at most. */
async function mailLoginCode(deps: Deps, lang: Language, user: UserRow, meta: Meta) {
  const now = deps.clock.now();
  const code = sixDigitCode();
  await deps.db.tx(async (q) => {
    // Lock the user row so two requests at once cannot both pass the 60-second check.
    await q.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [user.id]);
    // The minute runs from the last code still waiting to be used: one a sign-in used up does not
    // hold the next back (a WeChat sign-in right after a password one e-mails its own code).
    const { rows } = await q.query<{ created_at: Date }>(`SELECT created_at FROM email_code WHERE user_id = $1 AND purpose = 'login' AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1`, [
      user.id,
    ]);
    const last = rows[0] ? new Date(rows[0].created_at).getTime() : 0;
    const wait = Math.ceil((last + LIMITS.emailCodeResendSeconds * 1000 - now.getTime()) / 1000);
    if (wait > 0) throw new AppError(Code.CODE_RESEND_TOO_SOON, 'codeResendTooSoon', { s: wait }, 200, { wait });
    await q.query(`UPDATE email_code SET consumed_at = $2 WHERE user_id = $1 AND purpose = 'login' AND consumed_at IS NULL`, [user.id, now]);
    await q.query(`INSERT INTO email_code (user_id, purpose, code_hash, created_at, expires_at) VALUES ($1,'login',$2,$3,$4)`, [
      user.id,
      sha256(`${user.id}:${code}`),
      now,
      new Date(now.getTime() + LIMITS.emailCodeTtlSeconds * 1000),
    ]);
  });
  try {
    await deps.mailer.send({
      to: user.email,
      subject: t(lang, 'mailCodeSubject'),
      text: t(lang, 'mailCodeBody', { user: user.username, code }),
    });
  } catch (err) {
    // The code was never delivered: withdraw it so the user may ask again at once.
    await deps.db.query(`DELETE FROM email_code WHERE user_id = $1 AND code_hash = $2`, [user.id, sha256(`${user.id}:${code}`)]);
    await audit(deps.db, {
      action: AuditAction.emailCode,
      outcome: 'failure',
      userId: user.id,
      username: user.username,
      merId: user.mer_id,
      detail: { error: String((err as Error).message).slice(0, 200) },
      ...meta,
    });
    throw new AppError(Code.SEND_MAIL_FAILED, 'sendMailFailed');
  }
  await audit(deps.db, { action: AuditAction.emailCode, userId: user.id, username: user.username, merId: user.mer_id, ...meta });
  return { resendAfter: LIMITS.emailCodeResendSeconds, expiresIn: LIMITS.emailCodeTtlSeconds, totp: false };
}

/**
 * Counts one wrong password atomically (concurrent wrong attempts each count) and locks the user for
 * 30 minutes at the fifth. Returns the chances left (0 = now locked).
 */
export async function countWrongPassword(q: Queryable, user: UserRow, now: Date, meta: Meta, where: string, realm: Realm = MERCHANT_REALM): Promise<number> {
  const { rows } = await q.query<{ failed_logins: number }>(
    `UPDATE ${realm.users}
        SET failed_logins = CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END,
            locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END) >= $3
                                THEN $4::timestamptz ELSE NULL END
      WHERE id = $1 RETURNING failed_logins`,
    [user.id, now, LIMITS.maxPasswordFailures, new Date(now.getTime() + LIMITS.lockMinutes * 60000)],
  );
  const failed = rows[0].failed_logins;
  const left = Math.max(0, LIMITS.maxPasswordFailures - failed);
  await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', ...realm.actor(user), detail: { reason: 'wrong-password', where, failed }, ...meta });
  if (left === 0) {
    await audit(q, { action: AuditAction.lockout, outcome: 'failure', ...realm.actor(user), detail: { minutes: LIMITS.lockMinutes, where }, ...meta });
    // A locked user's open sessions end too.
    await q.query(`UPDATE ${realm.sessions} SET revoked_at = $2, revoke_reason = 'lockout' WHERE user_id = $1 AND revoked_at IS NULL`, [user.id, now]);
  }
  return left;
}

export type PasswordCheck = { ok: true } | { ok: false; left: number };

/**
 * Checks a password under attack: one of the 5 attempt slots is claimed atomically in SQL *before*
 * argon2 runs (the row lock orders concurrent claims), so however many guesses arrive at once, at
 * most 5 passwords are ever verified before the lock; the 5th claim sets the lock itself. A right
 * password gives its slot back (and lifts the lock only if its own claim set it); a wrong one
 * keeps it. No slot left: locked, and the password is not even looked at.
 */
export async function verifyPasswordCounted(deps: Deps, user: UserRow, password: string, meta: Meta, where: string, realm: Realm = MERCHANT_REALM): Promise<PasswordCheck> {
  const now = deps.clock.now();
  const max = LIMITS.maxPasswordFailures;
  const { rows } = await deps.db.query<{ slot: number }>(
    `UPDATE ${realm.users}
        SET failed_logins = CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END,
            locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END) >= $3
                                THEN $4::timestamptz ELSE NULL END
      WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2)
      RETURNING failed_logins AS slot`,
    [user.id, now, max, new Date(now.getTime() + LIMITS.lockMinutes * 60000)],
  );
  if (!rows[0]) {
    const lk = await deps.db.query<{ locked_until: Date | null }>(`SELECT locked_until FROM ${realm.users} WHERE id = $1`, [user.id]);
    const until = lk.rows[0]?.locked_until ? new Date(lk.rows[0].locked_until).getTime() : now.getTime() + LIMITS.lockMinutes * 60000;
    await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', ...realm.actor(user), detail: { reason: 'locked', where }, ...meta });
    throw new AppError(Code.USER_LOCKED, 'userLocked', { m: Math.max(1, Math.ceil((until - now.getTime()) / 60000)) });
  }
  const slot = rows[0].slot;
  if (await verifyPassword(user.password_hash, password)) {
    await deps.db.query(`UPDATE ${realm.users} SET failed_logins = GREATEST(failed_logins - 1, 0), locked_until = CASE WHEN $2::boolean THEN NULL ELSE locked_until END WHERE id = $1`, [
      user.id,
      slot >= max,
    ]);
    return { ok: true };
  }
  const left = Math.max(0, max - slot);
  await deps.db.tx(async (q) => {
    await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', ...realm.actor(user), detail: { reason: 'wrong-password', where, failed: slot }, ...meta });
    if (left === 0) {
      await audit(q, { action: AuditAction.lockout, outcome: 'failure', ...realm.actor(user), detail: { minutes: LIMITS.lockMinutes, where }, ...meta });
      await q.query(`UPDATE ${realm.sessions} SET revoked_at = $2, revoke_reason = 'lockout' WHERE user_id = $1 AND revoked_at IS NULL`, [user.id, now]);
    }
  });
  return { ok: false, left };
}

async function failLogin(deps: Deps, user: UserRow | undefined, username: string, reason: string, meta: Meta, realm: Realm = MERCHANT_REALM) {
  await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', ...realm.actor(user, username), detail: { reason }, ...meta });
}

/** Sign-in: the password is checked before the code; every wrong password counts toward lockout. */
export async function login(deps: Deps, input: { username: string; password: string; verifyCode: string }, meta: Meta, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  const user = await passwordStep(deps, input, meta, realm);
  return completeSecondFactor(deps, user, input.verifyCode, meta, {}, realm);
}

/**
 * The first factor of a sign-in (user name and password, counted toward the lockout; an expired
 * password refused): the account whose second factor is asked next — a code, or a passkey (decision 047).
 */
export async function passwordStep(deps: Deps, input: { username: string; password: string }, meta: Meta, realm: Realm = MERCHANT_REALM): Promise<UserRow> {
  const now = deps.clock.now();
  let user: UserRow;
  if (!USERNAME_RE.test(input.username)) {
    // A malformed name costs the same argon2 time too.
    await verifyPassword(await dummyHash(), input.password);
    await failLogin(deps, undefined, input.username, 'invalidUsername', meta, realm);
    throw new AppError(Code.INVALID_USERNAME, 'invalidUsername');
  }
  const found = await findUser(deps.db, input.username, realm);
  // Unknown, not activated or disabled: the same answer, wording, count and argon2 time as a wrong
  // password of a real account (decision 036).
  if (!usableAccount(found)) return refuseUnusable(deps, found, input.username, input.password, meta, 'login', 'signInFailed', realm);
  try {
    user = checkUsable(found, input.username, now);
  } catch (err) {
    await failLogin(deps, found, input.username, (err as AppError).key, meta, realm);
    throw err;
  }
  const checked = await verifyPasswordCounted(deps, user, input.password, meta, 'login', realm);
  if (!checked.ok) {
    if (checked.left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: LIMITS.lockMinutes });
    throw new AppError(Code.WRONG_PASSWORD, 'signInFailed', { n: checked.left }, 200, { remaining: checked.left });
  }
  // Issue 51: the merchant requires SSO — told only once the password proved right.
  if (realm.id === 'merchant') {
    try {
      await checkSignIn(deps.db, user, 'password');
    } catch (err) {
      await failLogin(deps, user, user.username, 'sso-required', meta, realm);
      throw err;
    }
  }
  if (passwordExpired(deps, user.password_changed_at, now)) {
    await failLogin(deps, user, user.username, 'password-expired', meta, realm);
    throw new AppError(Code.PASSWORD_EXPIRED, 'passwordExpired', {}, 200, { username: user.username });
  }
  // Issue 51: the merchant group's sign-in IP allow-list, once the password is proven (so it tells
  // nothing to a caller without it), before any code is e-mailed or passkey offered.
  if (realm === MERCHANT_REALM) await runSignInChecks(deps, user, meta, 'password');
  return user;
}

/** Options of the second step: work done in the session's own transaction, detail for the success entry. */
export interface SecondFactorOptions {
  /** Runs in the transaction that starts the session (e.g. using up a WeChat ticket); throwing starts none. */
  onSuccess?: (q: Queryable) => Promise<void>;
  /** Added to the sign-in's audit entry (e.g. { via: 'wechat' }). */
  detail?: Record<string, unknown>;
}

/**
 * The second factor of a sign-in whose first one passed (a password, or WeChat): the authenticator's
 * or a recovery code when TOTP is on, else the e-mailed code. Starts the session on success.
 */
export async function completeSecondFactor(deps: Deps, user: UserRow, verifyCode: string, meta: Meta, opts: SecondFactorOptions = {}, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  const now = deps.clock.now();
  const input = { verifyCode };
  // Issue 51: "SSO required" also holds for a first factor that was not a password (WeChat).
  if (realm.id === 'merchant') await checkSignIn(deps.db, user, 'second-factor');
  // Issue 51: every sign-in's last step (password + code or TOTP, WeChat) checks the IP allow-list.
  if (realm === MERCHANT_REALM) await runSignInChecks(deps, user, meta, opts.detail?.via ? String(opts.detail.via) : 'second-factor');
  if (user.totp_enabled_at && user.totp_secret) return loginWithTotp(deps, user, input.verifyCode, now, meta, opts, realm);
  // A realm whose second factor is the authenticator only (operators): no e-mailed code, no session.
  if (realm.totpOnly) {
    await failLogin(deps, user, user.username, 'totp-not-enrolled', meta, realm);
    throw new AppError(Code.VERIFY_CODE_ERROR, 'verifyCodeError');
  }
  if (realm.id === 'merchant' && (await passkeyInsteadOfEmail(deps.db, user))) {
    await failLogin(deps, user, user.username, 'passkey-required', meta, realm);
    throw new AppError(Code.VERIFY_CODE_ERROR, 'passkeyUseIt');
  }
  // The transaction commits in both outcomes, so a wrong code's counted try is kept.
  const pair = await deps.db.tx(async (q): Promise<TokenPair | null> => {
    const { rows } = await q.query<{ id: number; code_hash: string; attempts: number; expires_at: Date }>(
      `SELECT id, code_hash, attempts, expires_at FROM email_code
        WHERE user_id = $1 AND purpose = 'login' AND consumed_at IS NULL
        ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [user.id],
    );
    const c = rows[0];
    const usable = c && new Date(c.expires_at) > now && c.attempts < LIMITS.emailCodeMaxTries;
    const matches = usable && safeEqual(c.code_hash, sha256(`${user.id}:${input.verifyCode}`));
    if (!matches) {
      if (usable) await q.query('UPDATE email_code SET attempts = attempts + 1 WHERE id = $1', [c.id]);
      await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', userId: user.id, username: user.username, merId: user.mer_id, detail: { reason: 'verify-code' }, ...meta });
      return null;
    }
    await q.query('UPDATE email_code SET consumed_at = $2 WHERE id = $1', [c.id, now]);
    await opts.onSuccess?.(q);
    await q.query('UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE id = $1', [user.id]);
    const issued = await startSession(q, now, user.id, meta, deps.config.accessTokenSeconds);
    await audit(q, {
      action: AuditAction.loginSuccess,
      userId: user.id,
      username: user.username,
      merId: user.mer_id,
      ...(opts.detail ? { detail: { factor: 'email', ...opts.detail } } : {}),
      ...meta,
    });
    return issued;
  });
  if (!pair) throw new AppError(Code.VERIFY_CODE_ERROR, 'verifyCodeError');
  return pair;
}

/**
 * Second step for a user with an authenticator: its code, or one of the recovery codes. A right code
 * whose 30-second step was already used (replay protection) is refused with its own answer
 * (TOTP_CODE_USED, issue 46) — given only after the password proved right — and counts like a wrong one.
 */
async function loginWithTotp(deps: Deps, user: UserRow, code: string, now: Date, meta: Meta, opts: SecondFactorOptions = {}, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  const out = await deps.db.tx(async (q): Promise<TokenPair | { left: number; used: boolean }> => {
    const c = code; // trimmed by the request schema (textInput)
    let how: 'totp' | 'recovery' | null = null;
    if (await acceptTotp(q, user.id, user.totp_secret!, c, now, realm)) how = 'totp';
    else if (RECOVERY_RE.test(c) && (await useRecoveryCode(q, user.id, c, now, realm))) how = 'recovery';
    if (!how) {
      const used = await totpCodeUsed(q, user.id, user.totp_secret!, c, now, realm);
      await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', ...realm.actor(user), detail: { reason: used ? 'totp-used' : 'totp' }, ...meta });
      // Wrong authenticator codes count toward the lockout like wrong passwords.
      return { left: await countWrongPassword(q, user, now, meta, 'totp', realm), used };
    }
    if (how === 'recovery') await audit(q, { action: AuditAction.recoveryCodeUsed, ...realm.actor(user), ...meta });
    await opts.onSuccess?.(q);
    await q.query(`UPDATE ${realm.users} SET failed_logins = 0, locked_until = NULL WHERE id = $1`, [user.id]);
    const issued = await startSession(q, now, user.id, meta, deps.config.accessTokenSeconds, realm);
    await audit(q, { action: AuditAction.loginSuccess, ...realm.actor(user), detail: { factor: how, ...opts.detail }, ...meta });
    return issued;
  });
  if ('left' in out) {
    if (out.left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: LIMITS.lockMinutes });
    if (out.used) throw new AppError(Code.TOTP_CODE_USED, 'totpCodeUsed');
    throw new AppError(Code.VERIFY_CODE_ERROR, 'verifyCodeError');
  }
  return out;
}

/**
 * Step-up: re-checks the signed-in user's password. Success lets the session make sensitive
 * changes (refunds) for 5 minutes; a wrong password counts toward the sign-in lockout.
 */
export async function checkPassword(deps: Deps, userId: number, sessionId: number, password: string, meta: Meta): Promise<boolean> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM app_user WHERE id = $1`, [userId]);
  const user = rows[0];
  // Issue 51: a user without a portal password (made by SSO) or whose merchant requires SSO (not
  // break-glass) confirms with the identity provider instead — told so, no try counted.
  const noPassword = !user.password_hash.startsWith('$');
  const refusedBy = noPassword ? 'no-password' : (await signInRefused(deps.db, user, 'step-up')) ? 'sso-required' : null;
  if (refusedBy) {
    await audit(deps.db, { action: AuditAction.passwordCheck, outcome: 'failure', userId, username: user.username, merId: user.mer_id, detail: { reason: refusedBy }, ...meta });
    throw new AppError(Code.STEP_UP_USE_SSO, 'stepUpUseSso');
  }
  const checked = await verifyPasswordCounted(deps, user, password, meta, 'check-password').catch((err: AppError) => {
    throw err.key === 'userLocked' ? new AppError(Code.SESSION_ENDED, 'userLocked', err.params, 401) : err;
  });
  if (!checked.ok) {
    const left = checked.left;
    await audit(deps.db, { action: AuditAction.passwordCheck, outcome: 'failure', userId, username: user.username, merId: user.mer_id, ...meta });
    if (left === 0) throw new AppError(Code.SESSION_ENDED, 'userLocked', { m: LIMITS.lockMinutes }, 401);
    throw new AppError(Code.WRONG_PASSWORD, 'refundPasswordIncorrect', { n: left }, 200, { remaining: left });
  }
  await deps.db.tx(async (q) => {
    await q.query('UPDATE app_user SET failed_logins = 0 WHERE id = $1', [userId]);
    await q.query('UPDATE user_session SET step_up_until = $2 WHERE id = $1', [sessionId, new Date(now.getTime() + LIMITS.stepUpSeconds * 1000)]);
    await audit(q, { action: AuditAction.passwordCheck, userId, username: user.username, merId: user.mer_id, ...meta });
  });
  return true;
}

/**
 * Grants the session its step-up (5 minutes) once another proof than the password was given (issue
 * 51: a fresh re-authentication at the identity provider). Only a live session of that user is
 * granted: false otherwise.
 */
export async function grantStepUp(q: Queryable, sessionId: number, userId: number, now: Date): Promise<boolean> {
  const { rows } = await q.query('UPDATE user_session SET step_up_until = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [
    sessionId,
    userId,
    new Date(now.getTime() + LIMITS.stepUpSeconds * 1000),
  ]);
  return !!rows[0];
}

/** True when the session passed a password check within the last 5 minutes. */
export function hasStepUp(stepUpUntil: Date | null, now: Date): boolean {
  return !!stepUpUntil && stepUpUntil > now;
}
