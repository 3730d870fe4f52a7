import { Code, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { newToken, sha256 } from '../../lib/crypto';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { publicBase } from '../../lib/public-url';
import { AccountAudit } from './account.audit';
import { MERCHANT_REALM, type Realm } from '../user';

/**
 * Single-use e-mailed links (activation, password reset). The token is 256 random bits; only its
 * SHA-256 is stored; a newer link of the same purpose supersedes the older ones. The team module
 * mails them when a main user creates a user or resets a user's password (through `registerUserLinks`,
 * from this module's manifest).
 */
const LINK_TTL_SECONDS = { activate: 72 * 3600, reset: 30 * 60 } as const;
export type LinkPurpose = keyof typeof LINK_TTL_SECONDS;

export interface LinkMeta {
  ip?: string;
  userAgent?: string;
  /** The user who asked for it (a main user creating or resetting another user). */
  byUserId?: number;
}

interface LinkUser {
  id: number;
  username: string;
  email: string;
  mer_id: string;
  mer_name: string;
  status: string;
}

const linkPath = { activate: '/user/active', reset: '/user/reset' } as const;

async function linkUser(q: Queryable, userId: number): Promise<LinkUser> {
  const { rows } = await q.query<LinkUser>(
    `SELECT u.id, u.username, u.email, u.mer_id, m.name AS mer_name, u.status
       FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id WHERE u.id = $1`,
    [userId],
  );
  if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
  return rows[0];
}

/** Creates a link (superseding older unused ones of the purpose) and returns its token. */
export async function createLink(q: Queryable, now: Date, userId: number, purpose: LinkPurpose, realm: Realm = MERCHANT_REALM): Promise<string> {
  const token = newToken();
  await q.query(`UPDATE ${realm.links} SET expires_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`, [userId, purpose, now]);
  await q.query(`INSERT INTO ${realm.links} (user_id, purpose, token_hash, created_at, expires_at) VALUES ($1,$2,$3,$4,$5)`, [
    userId,
    purpose,
    sha256(token),
    now,
    new Date(now.getTime() + LINK_TTL_SECONDS[purpose] * 1000),
  ]);
  return token;
}

async function mailLink(deps: Deps, q: Queryable, userId: number, lang: Language, meta: LinkMeta, purpose: LinkPurpose) {
  const now = deps.clock.now();
  const user = await linkUser(q, userId);
  const token = await createLink(q, now, user.id, purpose);
  const link = `${publicBase(deps)}${linkPath[purpose]}?token=${token}`;
  const action = purpose === 'activate' ? AccountAudit.activationSent : AccountAudit.resetSent;
  try {
    await deps.mailer.send({
      to: user.email,
      subject: t(lang, purpose === 'activate' ? 'mailActivationSubject' : 'mailResetSubject'),
      text: t(lang, purpose === 'activate' ? 'mailActivationBody' : 'mailResetBody', { user: user.username, merchant: user.mer_name, link }),
    });
  } catch (err) {
    await q.query('UPDATE account_link SET expires_at = $2 WHERE token_hash = $1', [sha256(token), now]);
    await audit(q, {
      action,
      outcome: 'failure',
      userId: user.id,
      username: user.username,
      merId: user.mer_id,
      detail: { error: String((err as Error).message).slice(0, 200), byUserId: meta.byUserId },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    throw new AppError(Code.SEND_MAIL_FAILED, 'sendMailFailed');
  }
  await audit(q, { action, userId: user.id, username: user.username, merId: user.mer_id, detail: { byUserId: meta.byUserId ?? null }, ip: meta.ip, userAgent: meta.userAgent });
}

/** E-mails the activation link (72 hours, single use) in `lang`. Throws SEND_MAIL_FAILED when the mail cannot go. */
export function sendActivation(deps: Deps, q: Queryable, userId: number, lang: Language, meta: LinkMeta): Promise<void> {
  return mailLink(deps, q, userId, lang, meta, 'activate');
}

/** E-mails a password-reset link (30 minutes, single use) in `lang`. */
export function sendPasswordReset(deps: Deps, q: Queryable, userId: number, lang: Language, meta: LinkMeta): Promise<void> {
  return mailLink(deps, q, userId, lang, meta, 'reset');
}

export interface LinkRow {
  id: number;
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
}

/** The link of a token, whether usable or not (undefined when unknown). */
export async function findLink(q: Queryable, token: string, purpose: LinkPurpose, realm: Realm = MERCHANT_REALM): Promise<LinkRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const { rows } = await q.query<LinkRow>(`SELECT id, user_id, expires_at, used_at FROM ${realm.links} WHERE token_hash = $1 AND purpose = $2`, [sha256(token), purpose]);
  return rows[0];
}

export const linkUsable = (l: LinkRow | undefined, now: Date): l is LinkRow => !!l && !l.used_at && new Date(l.expires_at) > now;

/** Uses the link atomically: the user id when it was usable (and now is not), else null. */
export async function consumeLink(q: Queryable, token: string, purpose: LinkPurpose, now: Date, realm: Realm = MERCHANT_REALM): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const { rows } = await q.query<{ user_id: number }>(`UPDATE ${realm.links} SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id`, [
    sha256(token),
    purpose,
    now,
  ]);
  return rows[0]?.user_id ?? null;
}
