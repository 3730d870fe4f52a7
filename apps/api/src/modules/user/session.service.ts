import { Code, LIMITS } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { newToken, sha256 } from '../../lib/crypto';
import { audit, AuditAction } from '../../lib/audit';
import { endSession } from '../../plugins/auth';
import type { Deps } from '../../plugins/context';
import { MERCHANT_REALM, merOf, type Realm } from './realm';

export interface TokenPair {
  token: string;
  refreshToken: string;
  expiresIn: number;
}

async function issuePair(q: Queryable, sessionId: number, now: Date, parentHash: string | null, ttl: number, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  const token = newToken();
  const refreshToken = newToken();
  await q.query(`INSERT INTO ${realm.accessTokens} (token_hash, session_id, expires_at, refresh_hash) VALUES ($1,$2,$3,$4)`, [
    sha256(token),
    sessionId,
    new Date(now.getTime() + ttl * 1000),
    sha256(refreshToken),
  ]);
  await q.query(`INSERT INTO ${realm.refreshTokens} (token_hash, session_id, parent_hash, created_at) VALUES ($1,$2,$3,$4)`, [sha256(refreshToken), sessionId, parentHash, now]);
  return { token, refreshToken, expiresIn: ttl };
}

export async function startSession(q: Queryable, now: Date, userId: number, meta: { ip?: string; userAgent?: string; lang?: string }, ttl: number, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  // The language the user signed in with: its e-mails from jobs use it (decision 048).
  if (meta.lang && realm === MERCHANT_REALM) await q.query('UPDATE app_user SET lang = $2 WHERE id = $1 AND lang IS DISTINCT FROM $2', [userId, meta.lang]);
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO ${realm.sessions} (user_id, created_at, last_seen_at, absolute_expires_at, ip, user_agent)
     VALUES ($1,$2,$2,$3,$4,$5) RETURNING id`,
    [userId, now, new Date(now.getTime() + LIMITS.absoluteSeconds * 1000), meta.ip ?? null, meta.userAgent?.slice(0, 300) ?? null],
  );
  return issuePair(q, rows[0].id, now, null, ttl, realm);
}

interface RefreshRow {
  session_id: number;
  used_at: Date | null;
  revoked_at: Date | null;
  last_seen_at: Date;
  absolute_expires_at: Date;
  user_id: number;
  username: string;
  mer_id: string;
  status: string;
}

/**
 * Rotates a refresh token. A token used a second time within the grace window (two tabs
 * refreshing at once) gets a fresh pair of its own; used again later, it is treated as stolen and
 * its whole chain — the session — is revoked.
 */
export async function refresh(deps: Deps, refreshToken: string, meta: { ip?: string; userAgent?: string }, realm: Realm = MERCHANT_REALM): Promise<TokenPair> {
  const now = deps.clock.now();
  const hash = sha256(refreshToken);
  // The transaction commits whatever the outcome (a revoked chain must stay revoked), so failures
  // are returned from it and thrown after.
  const out = await deps.db.tx(async (q): Promise<TokenPair | AppError> => {
    const { rows } = await q.query<RefreshRow>(
      `SELECT r.session_id, r.used_at, s.revoked_at, s.last_seen_at, s.absolute_expires_at,
              u.id AS user_id, u.username, ${merOf(realm, 'u')} AS mer_id, u.status
         FROM ${realm.refreshTokens} r JOIN ${realm.sessions} s ON s.id = r.session_id JOIN ${realm.users} u ON u.id = s.user_id
        WHERE r.token_hash = $1 FOR UPDATE OF r`,
      [hash],
    );
    const r = rows[0];
    if (!r) return new AppError(Code.TOKEN_INVALID, 'refreshInvalid', {}, 401);
    if (r.revoked_at) return new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
    const idle = now.getTime() - new Date(r.last_seen_at).getTime() > LIMITS.idleSeconds * 1000;
    if (idle || now >= new Date(r.absolute_expires_at) || r.status !== 'ACTIVE') {
      await endSession(q, r.session_id, idle ? 'idle' : 'absolute', realm);
      return new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
    }
    if (r.used_at) {
      const age = now.getTime() - new Date(r.used_at).getTime();
      if (age > LIMITS.refreshGraceSeconds * 1000) {
        await endSession(q, r.session_id, 'refresh-reuse', realm);
        await audit(q, {
          action: AuditAction.refreshReuse,
          outcome: 'failure',
          ...realm.actor({ id: r.user_id, username: r.username, mer_id: r.mer_id }),
          detail: { sessionId: r.session_id, usedSecondsAgo: Math.round(age / 1000) },
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        return new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
      }
    } else {
      await q.query(`UPDATE ${realm.refreshTokens} SET used_at = $2 WHERE token_hash = $1`, [hash, now]);
      // The access token issued with this refresh token ends with it: at once after the grace
      // window that lets a second tab still use it (finding 8), not at its own 15 minutes.
      await q.query(`UPDATE ${realm.accessTokens} SET expires_at = LEAST(expires_at, $2) WHERE refresh_hash = $1`, [hash, new Date(now.getTime() + LIMITS.refreshGraceSeconds * 1000)]);
    }
    await q.query(`UPDATE ${realm.sessions} SET last_seen_at = $2 WHERE id = $1`, [r.session_id, now]);
    return issuePair(q, r.session_id, now, hash, deps.config.accessTokenSeconds, realm);
  });
  if (out instanceof AppError) throw out;
  return out;
}

/** Revokes the session behind an access token (expired or not). */
export async function logout(deps: Deps, token: string, meta: { ip?: string; userAgent?: string }, realm: Realm = MERCHANT_REALM): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ session_id: number; user_id: number; username: string; mer_id: string }>(
      `SELECT a.session_id, u.id AS user_id, u.username, ${merOf(realm, 'u')} AS mer_id FROM ${realm.accessTokens} a
         JOIN ${realm.sessions} s ON s.id = a.session_id JOIN ${realm.users} u ON u.id = s.user_id
        WHERE a.token_hash = $1 AND s.revoked_at IS NULL`,
      [sha256(token)],
    );
    const r = rows[0];
    if (!r) return;
    await endSession(q, r.session_id, 'logout', realm);
    await audit(q, { action: AuditAction.logout, ...realm.actor({ id: r.user_id, username: r.username, mer_id: r.mer_id }), ip: meta.ip, userAgent: meta.userAgent });
  });
}

/** Ends every open session of the user (but `exceptSessionId`); returns how many ended. */
export async function endUserSessions(q: Queryable, userId: number, reason: string, exceptSessionId?: number): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `UPDATE user_session SET revoked_at = now(), revoke_reason = $2
      WHERE user_id = $1 AND revoked_at IS NULL AND ($3::bigint IS NULL OR id <> $3::bigint) RETURNING id`,
    [userId, reason, exceptSessionId ?? null],
  );
  return rows.length;
}
