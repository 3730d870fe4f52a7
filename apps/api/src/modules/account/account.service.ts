import { Code, USERNAME_RE, type Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { checkUsable, findUser, refuseUnusable, usableAccount, findUserById, verifyPasswordCounted, type Meta, type UserRow } from '../user';
import { AccountAudit } from './account.audit';
import { checkSignIn, endUserSessions, passwordExpired } from '../user';
import { consumeLink, findLink, linkUsable, sendPasswordReset } from './links.service';
import { assertNotReused, checkPasswordRules, hashPassword, storePassword } from './password.policy';

/** 'demo-sub@demo-group.example' → 'de*****b@demo-group.example'. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const keep = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${keep}${'*'.repeat(Math.max(3, local.length - keep.length - 1))}${local.length > 2 ? local.slice(-1) : ''}${email.slice(at)}`;
}

const expired = (purpose: 'activate' | 'reset') => (purpose === 'activate' ? new AppError(Code.LINK_EXPIRED, 'activationLinkExpired') : new AppError(Code.LINK_EXPIRED, 'resetLinkExpired'));

async function linkOwner(deps: Deps, token: string, purpose: 'activate' | 'reset') {
  const link = await findLink(deps.db, token, purpose);
  if (!linkUsable(link, deps.clock.now())) throw expired(purpose);
  const { rows } = await deps.db.query<{ username: string; email: string; mer_name: string; status: string }>(
    'SELECT u.username, u.email, m.name AS mer_name, u.status FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id WHERE u.id = $1',
    [link.user_id],
  );
  const u = rows[0];
  if (!u || (purpose === 'activate' && u.status !== 'INACTIVE') || (purpose === 'reset' && u.status === 'DISABLED')) throw expired(purpose);
  return u;
}

/** Who is activating: user name, merchant name, e-mail masked; or 'activation link expired'. */
export async function activeInfo(deps: Deps, token: string) {
  const u = await linkOwner(deps, token, 'activate');
  return { username: u.username, merName: u.mer_name, email: maskEmail(u.email) };
}

/** Sets the first password and activates; the link is used once (atomically). */
export async function activate(deps: Deps, input: { token: string; newPassword: string; confirmPassword: string }, meta: Meta): Promise<{ username: string }> {
  checkPasswordRules(deps, input.newPassword, input.confirmPassword);
  await linkOwner(deps, input.token, 'activate');
  const hash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const userId = await consumeLink(q, input.token, 'activate', now);
    if (!userId) throw expired('activate');
    const { rows } = await q.query<{ username: string; mer_id: string }>(
      `UPDATE app_user SET status = 'ACTIVE', password_hash = $2, password_changed_at = $3, failed_logins = 0, locked_until = NULL
        WHERE id = $1 AND status = 'INACTIVE' RETURNING username, mer_id`,
      [userId, hash, now],
    );
    if (!rows[0]) throw expired('activate');
    await audit(q, { action: AccountAudit.activated, userId, username: rows[0].username, merId: rows[0].mer_id, ...meta });
    return { username: rows[0].username };
  });
}

/**
 * Changes the password: signed in (`userId`, other sessions end), or without a session for a
 * user whose password expired (`username`; every session ends). The original password counts
 * toward the lockout like a sign-in.
 */
export async function updatePassword(
  deps: Deps,
  who: { userId: number; sessionId: number } | { username: string },
  input: { oldPassword: string; newPassword: string; confirmPassword: string },
  meta: Meta,
): Promise<{ sessionsEnded: number }> {
  const now = deps.clock.now();
  let user: UserRow;
  if ('userId' in who) {
    user = (await findUserById(deps.db, who.userId))!;
  } else {
    const found = USERNAME_RE.test(who.username) ? await findUser(deps.db, who.username) : undefined;
    // A name that is no usable account answers as a wrong original password (decision 036).
    if (!USERNAME_RE.test(who.username)) throw new AppError(Code.INVALID_USERNAME, 'invalidUsername');
    if (!usableAccount(found)) return refuseUnusable(deps, found, who.username, input.oldPassword, meta, 'update-password', 'originalPasswordIncorrect');
    user = checkUsable(found, who.username, now);
  }
  checkPasswordRules(deps, input.newPassword, input.confirmPassword);
  const checked = await verifyPasswordCounted(deps, user, input.oldPassword, meta, 'update-password');
  if (!checked.ok) {
    if (checked.left === 0) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: 30 }, 'userId' in who ? 401 : 200);
    throw new AppError(Code.WRONG_PASSWORD, 'originalPasswordIncorrect', { n: checked.left }, 200, { remaining: checked.left });
  }
  // Without a session only an expired password may be changed here (it is the way back in).
  if (!('userId' in who) && !passwordExpired(deps, user.password_changed_at, now)) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
  await assertNotReused(deps.db, user.id, user.password_hash, input.newPassword);
  const hash = await hashPassword(input.newPassword);
  return deps.db.tx(async (q) => {
    await storePassword(q, user.id, user.password_hash, hash, now);
    const ended = await endUserSessions(q, user.id, 'password-changed', 'sessionId' in who ? who.sessionId : undefined);
    await audit(q, { action: AccountAudit.passwordChanged, userId: user.id, username: user.username, merId: user.mer_id, detail: { expired: !('userId' in who), sessionsEnded: ended }, ...meta });
    return { sessionsEnded: ended };
  });
}

/** Resets in flight (tests wait for them). */
const background = new Set<Promise<unknown>>();
export const settleBackground = () => Promise.allSettled(background);

/**
 * 'Forgot password': by user name or e-mail. The answer is the same whether or not the account
 * exists and is given before any mail is sent (the mail goes in the background), so it also
 * takes the same time. At most one reset mail per account per minute.
 */
export async function forgotPassword(deps: Deps, lang: Language, account: string, meta: Meta): Promise<void> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<{ id: number; username: string; mer_id: string; status: string }>(
    `SELECT u.id, u.username, u.mer_id, u.status
       FROM app_user u WHERE lower(u.username) = lower($1) OR lower(u.email) = lower($1) LIMIT 1`,
    [account],
  );
  const u = rows[0];
  // Issue 51: a user whose merchant requires SSO gets no reset mail (the answer stays the same; the audit says why).
  let ssoRequired = false;
  if (u && u.status === 'ACTIVE')
    ssoRequired = await checkSignIn(deps.db, u, 'password-reset').then(
      () => false,
      () => true,
    );
  const usable = !!u && u.status === 'ACTIVE' && !ssoRequired;
  // The minute is claimed atomically: of two requests at once, only one gets the row back.
  const tooSoon =
    usable &&
    (await deps.db.query(`UPDATE app_user SET reset_mail_at = $2 WHERE id = $1 AND (reset_mail_at IS NULL OR reset_mail_at <= $3) RETURNING id`, [u.id, now, new Date(now.getTime() - 60_000)])).rows
      .length === 0;
  await audit(deps.db, {
    action: AccountAudit.resetAsked,
    outcome: usable && !tooSoon ? 'success' : 'failure',
    userId: u?.id,
    username: u?.username ?? account.slice(0, 100),
    merId: u?.mer_id,
    detail: { found: !!u, ...(u && !usable ? { status: u.status } : {}), ...(tooSoon ? { throttled: true } : {}), ...(ssoRequired ? { reason: 'sso-required' } : {}) },
    ...meta,
  });
  if (!usable || tooSoon) return;
  const p = deps.db.tx((q) => sendPasswordReset(deps, q, u.id, lang, meta)).catch(() => undefined /* audited by sendPasswordReset */);
  background.add(p);
  void p.finally(() => background.delete(p));
}

export async function resetInfo(deps: Deps, token: string) {
  const u = await linkOwner(deps, token, 'reset');
  return { username: u.username };
}

/** A new password from the e-mailed link: the link is used once; every session of the user ends. */
export async function resetByLink(deps: Deps, input: { token: string; newPassword: string; confirmPassword: string }, meta: Meta): Promise<{ username: string }> {
  checkPasswordRules(deps, input.newPassword, input.confirmPassword);
  const owner = await linkOwner(deps, input.token, 'reset');
  const user = (await findUser(deps.db, owner.username))!;
  // Issue 51: a link sent before the merchant required SSO no longer sets a password.
  await checkSignIn(deps.db, user, 'password-reset');
  await assertNotReused(deps.db, user.id, user.password_hash, input.newPassword);
  const hash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const userId = await consumeLink(q, input.token, 'reset', now);
    if (userId !== user.id) throw expired('reset');
    const cur = (await findUserById(q, user.id))!;
    await storePassword(q, user.id, cur.password_hash, hash, now);
    const ended = await endUserSessions(q, user.id, 'password-reset');
    await audit(q, { action: AccountAudit.resetUsed, userId: user.id, username: user.username, merId: user.mer_id, detail: { sessionsEnded: ended }, ...meta });
    return { username: user.username };
  });
}
