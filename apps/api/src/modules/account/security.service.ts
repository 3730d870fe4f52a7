import Bowser from 'bowser';
import { Code, LIMITS, Perm, type Language, type LoginHistoryItem } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { newToken, safeEqual, sha256, sixDigitCode } from '../../lib/crypto';
import { t } from '../../lib/messages';
import { formatInZone, type Zone } from '../txn';
import { checkSignIn, completeSecondFactor, findUserById, merchantRequiresSecondFactor, sendSecondFactor, verifyPasswordCounted, type Meta } from '../user';
import type { TokenPair } from '../user';
import { AccountAudit } from './account.audit';
import { endUserSessions } from '../user';
import { smsSenderOf } from './sms';
import { acceptTotp, newRecoveryCodes, newTotpSecret, recoveryCodesLeft, storeRecoveryCodes, totpFor } from '../user';
import { insertApproval, notifyApprovers } from '../team';
import { consumeOAuthState, createOAuthState, peekOAuthState, wechatClientOf } from './wechat.client';

const who = (u: SessionUser, meta: Meta) => ({ userId: u.id, username: u.username, merId: u.merId, ...meta });

/** '+8613812345678' → '+861*******5678'. */
const maskPhone = (p: string) => (p.length <= 8 ? `${p.slice(0, 2)}****` : `${p.slice(0, 4)}${'*'.repeat(p.length - 8)}${p.slice(-4)}`);

/** Does the user's merchant (or its group) require a second factor? */
export const merchantRequiresTotp = (deps: Deps, merId: string): Promise<boolean> => merchantRequiresSecondFactor(deps.db, merId);

export async function securityOverview(deps: Deps, u: SessionUser) {
  const user = (await findUserById(deps.db, u.id))!;
  const { rows } = await deps.db.query<{ phone: string | null; wechat_nickname: string | null; wechat_openid: string | null; require_totp: boolean }>(
    `SELECT u.phone, u.wechat_nickname, u.wechat_openid, m.require_totp FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id WHERE u.id = $1`,
    [u.id],
  );
  const r = rows[0];
  const required = await merchantRequiresTotp(deps, u.merId);
  return {
    phone: r.phone ? maskPhone(r.phone) : null,
    wechat: { available: !!deps.config.wechat, bound: !!r.wechat_openid, nickname: r.wechat_nickname },
    totp: { enabled: !!user.totp_enabled_at, recoveryCodesLeft: user.totp_enabled_at ? await recoveryCodesLeft(deps.db, u.id) : 0, required },
    passkeys: (await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_passkey WHERE user_id = $1', [u.id])).rows[0].n,
    /** Main user only: the merchant's own setting. */
    merchantRequireTotp: u.userType === 'MAIN' && u.userAdmin ? r.require_totp : null,
  };
}

// ---- phone ----

const E164 = /^\+[1-9]\d{6,14}$/;

export async function sendPhoneCode(deps: Deps, lang: Language, u: SessionUser, phone: string, meta: Meta) {
  if (!E164.test(phone)) throw new AppError(Code.BAD_REQUEST, 'phoneInvalid', {}, 400);
  const now = deps.clock.now();
  const code = sixDigitCode();
  const hash = sha256(`${u.id}:${phone}:${code}`);
  await deps.db.tx(async (q) => {
    await q.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [u.id]);
    const taken = await q.query('SELECT 1 FROM app_user WHERE phone = $1 AND id <> $2', [phone, u.id]);
    if (taken.rows.length) throw new AppError(Code.PHONE_CANNOT_BIND, 'phoneCannotBind');
    const last = await q.query<{ created_at: Date }>('SELECT created_at FROM sms_code WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1', [u.id]);
    const since = last.rows[0] ? new Date(last.rows[0].created_at).getTime() : 0;
    const wait = Math.ceil((since + LIMITS.emailCodeResendSeconds * 1000 - now.getTime()) / 1000);
    if (wait > 0) throw new AppError(Code.CODE_RESEND_TOO_SOON, 'codeResendTooSoon', { s: wait }, 200, { wait });
    await q.query('UPDATE sms_code SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [u.id, now]);
    await q.query('INSERT INTO sms_code (user_id, phone, code_hash, created_at, expires_at) VALUES ($1,$2,$3,$4,$5)', [
      u.id,
      phone,
      hash,
      now,
      new Date(now.getTime() + LIMITS.emailCodeTtlSeconds * 1000),
    ]);
  });
  try {
    await smsSenderOf(deps).send(phone, t(lang, 'smsBindBody', { code }));
  } catch (err) {
    await deps.db.query('DELETE FROM sms_code WHERE user_id = $1 AND code_hash = $2', [u.id, hash]);
    await audit(deps.db, { action: AccountAudit.phoneCode, outcome: 'failure', ...who(u, meta), detail: { phone: maskPhone(phone), error: String((err as Error).message).slice(0, 200) } });
    throw new AppError(Code.SERVER_ERROR, 'smsSendFailed');
  }
  await audit(deps.db, { action: AccountAudit.phoneCode, ...who(u, meta), detail: { phone: maskPhone(phone) } });
  return { resendAfter: LIMITS.emailCodeResendSeconds, expiresIn: LIMITS.emailCodeTtlSeconds };
}

export async function bindPhone(deps: Deps, u: SessionUser, phone: string, code: string, meta: Meta) {
  if (!E164.test(phone)) throw new AppError(Code.BAD_REQUEST, 'phoneInvalid', {}, 400);
  const now = deps.clock.now();
  const out = await deps.db
    .tx(async (q): Promise<AppError | null> => {
      const { rows } = await q.query<{ id: number; code_hash: string; attempts: number; expires_at: Date }>(
        `SELECT id, code_hash, attempts, expires_at FROM sms_code WHERE user_id = $1 AND phone = $2 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        [u.id, phone],
      );
      const c = rows[0];
      const usable = c && new Date(c.expires_at) > now && c.attempts < LIMITS.emailCodeMaxTries;
      if (!usable || !safeEqual(c.code_hash, sha256(`${u.id}:${phone}:${code}`))) {
        if (usable) await q.query('UPDATE sms_code SET attempts = attempts + 1 WHERE id = $1', [c.id]);
        await audit(q, { action: AccountAudit.phoneBound, outcome: 'failure', ...who(u, meta), detail: { phone: maskPhone(phone), reason: 'code' } });
        return new AppError(Code.VERIFY_CODE_ERROR, 'wrongVerifyCode');
      }
      const taken = await q.query('SELECT 1 FROM app_user WHERE phone = $1 AND id <> $2', [phone, u.id]);
      if (taken.rows.length) return new AppError(Code.PHONE_CANNOT_BIND, 'phoneCannotBind');
      await q.query('UPDATE sms_code SET consumed_at = $2 WHERE id = $1', [c.id, now]);
      await q.query('UPDATE app_user SET phone = $2, phone_bound_at = $3 WHERE id = $1', [u.id, phone, now]);
      await audit(q, { action: AccountAudit.phoneBound, ...who(u, meta), detail: { phone: maskPhone(phone) } });
      return null;
    })
    .catch((err: { code?: string }) => {
      if (err.code === '23505') return new AppError(Code.PHONE_CANNOT_BIND, 'phoneCannotBind'); // taken at the same moment
      throw err;
    });
  if (out) throw out;
  return { phone: maskPhone(phone) };
}

// ---- WeChat ----

const requireWechat = (deps: Deps) => {
  const c = wechatClientOf(deps);
  if (!c) throw new AppError(Code.NOT_FOUND, 'wechatNotConfigured', {}, 404);
  return c;
};
export const WECHAT_BIND = 'wechat-bind';
export const WECHAT_LOGIN = 'wechat-login';
const WECHAT_TICKET = 'wechat-ticket';

/** The URL that starts a WeChat round trip; `callback` is our /api/user/wechat/callback. */
export async function wechatAuthorize(deps: Deps, purpose: typeof WECHAT_BIND | typeof WECHAT_LOGIN, callback: string, userId?: number) {
  const client = requireWechat(deps);
  // The state is bound to the browser that asked (issue 28, login CSRF): a random value goes to it
  // as a cookie, its hash into the state; the callback accepts the state only with that cookie, so
  // an attacker's own state and code, planted in a victim's browser, sign the victim in to nothing.
  const browser = newToken();
  const state = await createOAuthState(deps.db, deps.clock.now(), purpose, { ...(userId ? { userId } : {}), browser: sha256(browser) });
  return { url: client.authorizeUrl(callback, state), browser };
}

/** The cookie carrying the browser's half of a WeChat round trip (HttpOnly; Lax, so WeChat's redirect back brings it). */
const WECHAT_BROWSER_COOKIE = 'mp_wx';
export function wechatBrowserCookie(value: string, secure: boolean, maxAge = 600): string {
  return `${WECHAT_BROWSER_COOKIE}=${value}; Path=/api/user/wechat; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
/** The browser value of a Cookie header, if any. */
export function wechatBrowserOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === WECHAT_BROWSER_COOKIE) return v.join('=');
  }
  return undefined;
}

/**
 * WeChat came back with code and state. Binding: the state's user gets the openid. Sign-in: the
 * user bound to the openid gets a one-time ticket (10 minutes) the sign-in page trades for tokens.
 * Returns where the browser goes next.
 */
export async function wechatCallback(deps: Deps, code: string, state: string, browser: string | undefined, meta: Meta): Promise<string> {
  const client = requireWechat(deps);
  const now = deps.clock.now();
  const bind = await consumeOAuthState(deps.db, state, WECHAT_BIND, now);
  const login = bind ? null : await consumeOAuthState(deps.db, state, WECHAT_LOGIN, now);
  if (!bind && !login) {
    await audit(deps.db, { action: AccountAudit.wechatBound, outcome: 'failure', detail: { reason: 'state' }, ...meta });
    return '/login?wechat=failed';
  }
  // Only the browser that started this round trip may finish it (the state is used up either way).
  const started = String((bind ?? login)!.browser ?? '');
  if (!browser || !started || !safeEqual(started, sha256(browser))) {
    await audit(deps.db, {
      action: bind ? AccountAudit.wechatBound : AccountAudit.wechatLogin,
      outcome: 'failure',
      userId: (bind?.userId as number) ?? null,
      detail: { reason: 'other-browser' },
      ...meta,
    });
    return bind ? '/user/security?wechat=bind-failed' : '/login?wechat=failed';
  }
  let identity;
  try {
    identity = await client.identify(code);
  } catch (err) {
    await audit(deps.db, {
      action: bind ? AccountAudit.wechatBound : AccountAudit.wechatLogin,
      outcome: 'failure',
      userId: (bind?.userId as number) ?? null,
      detail: { reason: String((err as Error).message).slice(0, 200) },
      ...meta,
    });
    return bind ? '/user/security?wechat=bind-failed' : '/login?wechat=failed';
  }
  if (bind) {
    const userId = Number(bind.userId);
    const user = (await findUserById(deps.db, userId))!;
    const res = await deps.db
      .query(
        'UPDATE app_user SET wechat_openid = $2, wechat_unionid = $3, wechat_nickname = $4, wechat_bound_at = $5 WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM app_user o WHERE o.wechat_openid = $2 AND o.id <> $1) RETURNING id',
        [userId, identity.openid, identity.unionid, identity.nickname, now],
      )
      .catch(() => ({ rows: [] }));
    const okBound = res.rows.length === 1;
    await audit(deps.db, {
      action: AccountAudit.wechatBound,
      outcome: okBound ? 'success' : 'failure',
      userId,
      username: user.username,
      merId: user.mer_id,
      detail: { nickname: identity.nickname, ...(okBound ? {} : { reason: 'openid-taken' }) },
      ...meta,
    });
    return okBound ? '/user/security?wechat=bound' : '/user/security?wechat=bind-failed';
  }
  const { rows } = await deps.db.query<{ id: number; username: string; mer_id: string; status: string; locked_until: Date | null }>(
    'SELECT id, username, mer_id, status, locked_until FROM app_user WHERE wechat_openid = $1',
    [identity.openid],
  );
  const u = rows[0];
  if (!u || u.status !== 'ACTIVE' || (u.locked_until && new Date(u.locked_until) > now)) {
    await audit(deps.db, { action: AccountAudit.wechatLogin, outcome: 'failure', userId: u?.id, username: u?.username, merId: u?.mer_id, detail: { reason: u ? u.status : 'not-bound' }, ...meta });
    return '/login?wechat=failed';
  }
  const ticket = await createOAuthState(deps.db, now, WECHAT_TICKET, { userId: u.id });
  return `/login?wechatTicket=${ticket}`;
}

/** What the sign-in page asks for after WeChat: the authenticator's code, or the code just e-mailed. */
export type WechatSecondFactor = { secondFactor: 'totp' | 'email'; resendAfter: number };

/**
 * Trades the one-time ticket of a WeChat sign-in for a session — after the user's second factor,
 * as after a password (issue 28: WeChat alone started a session, even for a user with TOTP).
 * Without `verifyCode`: answers which factor is asked (and e-mails the code when that is the
 * factor); the ticket stays. With it: the factor is checked like a sign-in's (wrong ones count
 * toward the lockout), and the ticket is used up in the transaction that starts the session.
 */
export async function wechatLogin(deps: Deps, ticket: string, verifyCode: string | undefined, lang: Language, meta: Meta): Promise<TokenPair | WechatSecondFactor> {
  const now = deps.clock.now();
  const data = await peekOAuthState(deps.db, ticket, WECHAT_TICKET, now);
  if (!data) throw new AppError(Code.WECHAT_LOGIN_FAILED, 'wechatLoginFailed');
  const user = await findUserById(deps.db, Number(data.userId));
  if (!user || user.status !== 'ACTIVE') throw new AppError(Code.WECHAT_LOGIN_FAILED, 'wechatLoginFailed');
  if (user.locked_until && new Date(user.locked_until) > now) throw new AppError(Code.USER_LOCKED, 'userLocked', { m: Math.ceil((new Date(user.locked_until).getTime() - now.getTime()) / 60000) });
  // Issue 51: "SSO required" refuses WeChat too (break-glass administrators excepted) — before any code is e-mailed.
  await checkSignIn(deps.db, user, 'second-factor');
  if (!verifyCode) {
    if (user.totp_enabled_at && user.totp_secret) return { secondFactor: 'totp', resendAfter: 0 };
    try {
      const sent = await sendSecondFactor(deps, lang, user, meta);
      return { secondFactor: 'email', resendAfter: sent.resendAfter };
    } catch (err) {
      // A code sent less than a minute ago (the page reloaded) is still the one to enter.
      if (err instanceof AppError && err.code === Code.CODE_RESEND_TOO_SOON) return { secondFactor: 'email', resendAfter: Number((err.data as { wait?: number })?.wait ?? 0) };
      throw err;
    }
  }
  return completeSecondFactor(deps, user, verifyCode, meta, {
    detail: { via: 'wechat' },
    onSuccess: async (q) => {
      if (!(await consumeOAuthState(q, ticket, WECHAT_TICKET, now))) throw new AppError(Code.WECHAT_LOGIN_FAILED, 'wechatLoginFailed');
    },
  });
}

export async function wechatUnbind(deps: Deps, u: SessionUser, meta: Meta) {
  await deps.db.query('UPDATE app_user SET wechat_openid = NULL, wechat_unionid = NULL, wechat_nickname = NULL, wechat_bound_at = NULL WHERE id = $1', [u.id]);
  await audit(deps.db, { action: AccountAudit.wechatUnbound, ...who(u, meta) });
}

// ---- TOTP ----

/** Starts an enrolment: a new secret (pending until a code confirms it) and its otpauth:// URL for the QR. */
export async function totpSetup(deps: Deps, u: SessionUser) {
  const user = (await findUserById(deps.db, u.id))!;
  if (user.totp_enabled_at) throw new AppError(Code.CONFLICT, 'totpAlreadyEnabled');
  const secret = newTotpSecret();
  await deps.db.query('UPDATE app_user SET totp_secret = $2, totp_last_step = NULL WHERE id = $1 AND totp_enabled_at IS NULL', [u.id, secret]);
  return { secret, otpauthUrl: totpFor(secret, u.username).toString() };
}

/** Confirms the enrolment with a code; answers the ten recovery codes, shown this once. */
export async function totpEnable(deps: Deps, u: SessionUser, code: string, meta: Meta) {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const user = (await findUserById(q, u.id))!;
    if (user.totp_enabled_at) throw new AppError(Code.CONFLICT, 'totpAlreadyEnabled');
    if (!user.totp_secret || !(await acceptTotp(q, u.id, user.totp_secret, code.trim(), now))) throw new AppError(Code.VERIFY_CODE_ERROR, 'wrongVerifyCode');
    const codes = newRecoveryCodes();
    await storeRecoveryCodes(q, u.id, codes);
    await q.query('UPDATE app_user SET totp_enabled_at = $2 WHERE id = $1', [u.id, now]);
    await audit(q, { action: AccountAudit.totpEnabled, ...who(u, meta) });
    return { recoveryCodes: codes };
  });
}

/** Turns TOTP off: the password (counted toward the lockout) and a current code. */
export async function totpDisable(deps: Deps, u: SessionUser, password: string, code: string, meta: Meta) {
  const now = deps.clock.now();
  const user = (await findUserById(deps.db, u.id))!;
  if (!user.totp_enabled_at || !user.totp_secret) throw new AppError(Code.CONFLICT, 'totpNotEnabled');
  // The merchant's rule is "a passkey or TOTP" (decision 047): TOTP goes only when a passkey stays.
  const keys = await deps.db.query('SELECT 1 FROM user_passkey WHERE user_id = $1 LIMIT 1', [u.id]);
  if (!keys.rows.length && (await merchantRequiresTotp(deps, u.merId))) throw new AppError(Code.TOTP_REQUIRED, 'totpRequired');
  const checked = await verifyPasswordCounted(deps, user, password, meta, 'totp-disable');
  if (!checked.ok) {
    await audit(deps.db, { action: AccountAudit.totpDisabled, outcome: 'failure', ...who(u, meta), detail: { reason: 'password' } });
    if (checked.left === 0) throw new AppError(Code.SESSION_ENDED, 'userLocked', { m: LIMITS.lockMinutes }, 401);
    throw new AppError(Code.PASSWORD_INCORRECT, 'passwordIncorrect', {}, 200, { remaining: checked.left });
  }
  await deps.db
    .tx(async (q) => {
      if (!(await acceptTotp(q, u.id, user.totp_secret!, code.trim(), now))) throw new AppError(Code.VERIFY_CODE_ERROR, 'wrongVerifyCode');
      await q.query('UPDATE app_user SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [u.id]);
      await q.query('DELETE FROM totp_recovery_code WHERE user_id = $1', [u.id]);
      await audit(q, { action: AccountAudit.totpDisabled, ...who(u, meta) });
    })
    .catch(async (err) => {
      if (err instanceof AppError) await audit(deps.db, { action: AccountAudit.totpDisabled, outcome: 'failure', ...who(u, meta), detail: { reason: 'code' } });
      throw err;
    });
}

/**
 * The main user's merchant setting: every user of the merchant must enrol at the next sign-in.
 * Switching it on (tightening) is at once; switching it off weakens a control (issue 47): it waits
 * for a second administrator (kind policy_change), carried out by its approval — as the approver,
 * on the requester's merchant (`opts.merId`).
 */
export async function setRequireTotp(deps: Deps, u: SessionUser, require: boolean, meta: Meta, opts: { approvalId?: number; merId?: string } = {}) {
  if (u.userType !== 'MAIN' || !u.userAdmin) throw forbidden();
  const merId = opts.merId ?? u.merId;
  if (!u.scope.includes(merId)) throw notFound();
  let approval: number | null = null;
  await deps.db.tx(async (q) => {
    // One change of the merchant's rules at a time: the merchant row's lock orders them.
    const { rows } = await q.query<{ require_totp: boolean }>('SELECT require_totp FROM merchant WHERE mer_id = $1 FOR UPDATE', [merId]);
    if (!rows[0]) throw notFound();
    if (rows[0].require_totp === require) return;
    if (!require && opts.approvalId === undefined) {
      approval = await insertApproval(q, {
        merId,
        kind: 'policy_change',
        permission: Perm.merchantUserManage,
        user: u,
        now: deps.clock.now(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        payload: { requireTotp: { merId, require: false } },
        summary: { policy: 'requireTotp', merId, loosened: ['requireTotp'], before: 'requireTotp true', after: 'requireTotp false' },
      });
      return;
    }
    await q.query('UPDATE merchant SET require_totp = $2 WHERE mer_id = $1', [merId, require]);
    await audit(q, { action: AccountAudit.requireTotp, ...who(u, meta), target: merId, detail: { require, ...(opts.approvalId !== undefined ? { approvalId: opts.approvalId } : {}) } });
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'requireTotpOffNeedsApproval', { id: approval }, 200);
  }
  return { require };
}

// ---- sessions and history ----

function describeAgent(ua: string | null): string {
  if (!ua) return '';
  const b = Bowser.parse(ua);
  const browser = [b.browser.name, b.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = [b.os.name, b.os.versionName ?? b.os.version].filter(Boolean).join(' ');
  const device = b.platform.type && b.platform.type !== 'desktop' ? `${b.platform.vendor ? `${b.platform.vendor} ` : ''}${b.platform.type}` : '';
  return [browser, os, device].filter(Boolean).join(' · ') || ua.slice(0, 60);
}

export async function listSessions(deps: Deps, u: SessionUser, zone: Zone) {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<{ id: number; created_at: Date; last_seen_at: Date; ip: string | null; user_agent: string | null }>(
    `SELECT id, created_at, last_seen_at, ip, user_agent FROM user_session
      WHERE user_id = $1 AND revoked_at IS NULL AND absolute_expires_at > $2 AND last_seen_at > $3
      ORDER BY last_seen_at DESC, id DESC LIMIT 50`,
    [u.id, now, new Date(now.getTime() - LIMITS.idleSeconds * 1000)],
  );
  return rows.map((r) => ({
    id: r.id,
    device: describeAgent(r.user_agent),
    ip: r.ip ?? '',
    startedAt: formatInZone(r.created_at, zone),
    lastSeenAt: formatInZone(r.last_seen_at, zone),
    current: r.id === u.sessionId,
  }));
}

export async function revokeSession(deps: Deps, u: SessionUser, sessionId: number, meta: Meta) {
  const { rows } = await deps.db.query(`UPDATE user_session SET revoked_at = now(), revoke_reason = 'revoked-by-user' WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id`, [
    sessionId,
    u.id,
  ]);
  if (!rows.length) throw notFound(); // another user's session answers as if it did not exist
  await audit(deps.db, { action: AccountAudit.sessionRevoked, ...who(u, meta), target: String(sessionId) });
}

export async function revokeOtherSessions(deps: Deps, u: SessionUser, meta: Meta) {
  const n = await endUserSessions(deps.db, u.id, 'revoked-by-user', u.sessionId);
  await audit(deps.db, { action: AccountAudit.sessionRevoked, ...who(u, meta), detail: { others: n } });
  return { ended: n };
}

const HISTORY_ACTIONS = ['auth.login', 'auth.login.failure', 'auth.lockout', 'auth.logout'];

export async function loginHistory(deps: Deps, u: SessionUser, zone: Zone): Promise<LoginHistoryItem[]> {
  const { rows } = await deps.db.query<{ id: number; at: Date; action: string; outcome: string; ip: string | null; user_agent: string | null; detail: Record<string, unknown> }>(
    `SELECT id, at, action, outcome, ip, user_agent, detail FROM audit_log WHERE user_id = $1 AND action = ANY($2) ORDER BY at DESC, id DESC LIMIT 30`,
    [u.id, HISTORY_ACTIONS],
  );
  return rows.map((r) => ({
    id: r.id,
    at: formatInZone(r.at, zone),
    event: r.action === 'auth.login' ? 'login' : r.action === 'auth.logout' ? 'logout' : r.action === 'auth.lockout' ? 'lockout' : 'failure',
    method: typeof r.detail?.factor === 'string' ? (r.detail.factor as string) : r.action === 'auth.login' ? 'email' : '',
    reason: typeof r.detail?.reason === 'string' ? (r.detail.reason as string) : '',
    ip: r.ip ?? '',
    device: describeAgent(r.user_agent),
  }));
}
