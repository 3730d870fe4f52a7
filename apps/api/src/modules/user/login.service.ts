import { Code, LIMITS, USERNAME_RE } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { hashPassword, safeEqual, sha256, sixDigitCode, verifyPassword } from '../../lib/crypto';
import { audit, AuditAction } from '../../lib/audit';
import { t } from '../../lib/messages';
import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { startSession, type TokenPair } from './session.service';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  email: string;
  mer_id: string;
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  failed_logins: number;
  locked_until: Date | null;
}

export interface Meta {
  ip?: string;
  userAgent?: string;
}

async function findUser(q: Queryable, username: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `SELECT id, username, password_hash, email, mer_id, status, failed_logins, locked_until
       FROM app_user WHERE lower(username) = lower($1)`,
    [username],
  );
  return rows[0];
}

function checkUsable(u: UserRow | undefined, username: string, now: Date): UserRow {
  if (!USERNAME_RE.test(username)) throw new AppError(Code.INVALID_USERNAME, 'invalidUsername');
  if (!u || u.status === 'DISABLED') throw new AppError(Code.USER_NOT_EXIST, 'userNotExist');
  if (u.status === 'INACTIVE') throw new AppError(Code.USER_NOT_ACTIVATED, 'userNotActivated');
  if (u.locked_until && new Date(u.locked_until) > now) {
    const m = Math.ceil((new Date(u.locked_until).getTime() - now.getTime()) / 60000);
    throw new AppError(Code.USER_LOCKED, 'userLocked', { m });
  }
  return u;
}

/** E-mails a 6-digit one-time code: valid 5 minutes, a new one after 60 s, 5 wrong tries at most. */
export async function sendEmailCode(deps: Deps, lang: Language, username: string, meta: Meta) {
  const now = deps.clock.now();
  const user = checkUsable(await findUser(deps.db, username), username, now);
  const code = sixDigitCode();
  await deps.db.tx(async (q) => {
    // Lock the user row so two requests at once cannot both pass the 60-second check.
    await q.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [user.id]);
    const { rows } = await q.query<{ created_at: Date }>(
      `SELECT created_at FROM email_code WHERE user_id = $1 AND purpose = 'login' ORDER BY created_at DESC LIMIT 1`,
      [user.id],
    );
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
    await audit(deps.db, { action: AuditAction.emailCode, outcome: 'failure', userId: user.id, username: user.username, merId: user.mer_id, detail: { error: String((err as Error).message).slice(0, 200) }, ...meta });
    throw new AppError(Code.SEND_MAIL_FAILED, 'sendMailFailed');
  }
  await audit(deps.db, { action: AuditAction.emailCode, userId: user.id, username: user.username, merId: user.mer_id, ...meta });
  return { resendAfter: LIMITS.emailCodeResendSeconds, expiresIn: LIMITS.emailCodeTtlSeconds };
}

/**
 * Counts one wrong password atomically (concurrent wrong attempts each count) and locks the user for
 * 30 minutes at the fifth. Returns the chances left (0 = now locked).
 */
export async function countWrongPassword(q: Queryable, user: UserRow, now: Date, meta: Meta, where: string): Promise<number> {
  const { rows } = await q.query<{ failed_logins: number }>(
    `UPDATE app_user
        SET failed_logins = CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END,
            locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL AND locked_until <= $2 THEN 1 ELSE failed_logins + 1 END) >= $3
                                THEN $4::timestamptz ELSE NULL END
      WHERE id = $1 RETURNING failed_logins`,
    [user.id, now, LIMITS.maxPasswordFailures, new Date(now.getTime() + LIMITS.lockMinutes * 60000)],
  );
  const failed = rows[0].failed_logins;
  const left = Math.max(0, LIMITS.maxPasswordFailures - failed);
  await audit(q, { action: AuditAction.loginFailure, outcome: 'failure', userId: user.id, username: user.username, merId: user.mer_id, detail: { reason: 'wrong-password', where, failed }, ...meta });
  if (left === 0) {
    await audit(q, { action: AuditAction.lockout, outcome: 'failure', userId: user.id, username: user.username, merId: user.mer_id, detail: { minutes: LIMITS.lockMinutes, where }, ...meta });
    // A locked user's open sessions end too.
    await q.query(`UPDATE user_session SET revoked_at = $2, revoke_reason = 'lockout' WHERE user_id = $1 AND revoked_at IS NULL`, [user.id, now]);
  }
  return left;
}

async function failLogin(deps: Deps, user: UserRow | undefined, username: string, reason: string, meta: Meta) {
  await audit(deps.db, { action: AuditAction.loginFailure, outcome: 'failure', userId: user?.id, username, merId: user?.mer_id, detail: { reason }, ...meta });
}

/** Sign-in: the password is checked before the code; every wrong password counts toward lockout. */
export async function login(
  deps: Deps,
  input: { username: string; password: string; verifyCode: string },
  meta: Meta,
): Promise<TokenPair> {
  const now = deps.clock.now();
  let user: UserRow;
  try {
    user = checkUsable(await findUser(deps.db, input.username), input.username, now);
  } catch (err) {
    await failLogin(deps, await findUser(deps.db, input.username).catch(() => undefined), input.username, (err as AppError).key, meta);
    throw err;
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    const left = await deps.db.tx((q) => countWrongPassword(q, user, now, meta, 'login'));
    if (left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: LIMITS.lockMinutes });
    throw new AppError(Code.WRONG_PASSWORD, 'wrongPassword', { n: left }, 200, { remaining: left });
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
    await q.query('UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE id = $1', [user.id]);
    const issued = await startSession(q, now, user.id, meta, deps.config.accessTokenSeconds);
    await audit(q, { action: AuditAction.loginSuccess, userId: user.id, username: user.username, merId: user.mer_id, ...meta });
    return issued;
  });
  if (!pair) throw new AppError(Code.VERIFY_CODE_ERROR, 'verifyCodeError');
  return pair;
}

/**
 * Step-up: re-checks the signed-in user's password. Success lets the session make sensitive
 * changes (refunds) for 5 minutes; a wrong password counts toward the sign-in lockout.
 */
export async function checkPassword(deps: Deps, userId: number, sessionId: number, password: string, meta: Meta): Promise<boolean> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<UserRow>(
    `SELECT id, username, password_hash, email, mer_id, status, failed_logins, locked_until FROM app_user WHERE id = $1`,
    [userId],
  );
  const user = rows[0];
  if (!(await verifyPassword(user.password_hash, password))) {
    const left = await deps.db.tx((q) => countWrongPassword(q, user, now, meta, 'check-password'));
    await audit(deps.db, { action: AuditAction.passwordCheck, outcome: 'failure', userId, username: user.username, merId: user.mer_id, ...meta });
    if (left === 0) throw new AppError(Code.SESSION_ENDED, 'userLocked', { m: LIMITS.lockMinutes }, 401);
    throw new AppError(Code.WRONG_PASSWORD, 'originalPasswordIncorrect', { n: left }, 200, { remaining: left });
  }
  await deps.db.tx(async (q) => {
    await q.query('UPDATE app_user SET failed_logins = 0 WHERE id = $1', [userId]);
    await q.query('UPDATE user_session SET step_up_until = $2 WHERE id = $1', [sessionId, new Date(now.getTime() + LIMITS.stepUpSeconds * 1000)]);
    await audit(q, { action: AuditAction.passwordCheck, userId, username: user.username, merId: user.mer_id, ...meta });
  });
  return true;
}

/** True when the session passed a password check within the last 5 minutes. */
export function hasStepUp(stepUpUntil: Date | null, now: Date): boolean {
  return !!stepUpUntil && stepUpUntil > now;
}

export { hashPassword };
