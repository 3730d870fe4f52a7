import { randomBytes } from 'node:crypto';
import { ADMIN_ONLY_PERMISSIONS, ALL_PERMISSIONS, API_KEY_UNUSED_DAYS, Code, type ApiKeyCreate, type ApiKeyRow, type Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { sha256 } from '../../lib/crypto';
import { formatInZone, zonedToUtc } from '../../lib/zone';
import { API_VERSION_CURRENT, ApiKeyAudit } from './apikey.auth';

interface Meta {
  ip?: string;
  userAgent?: string;
}

interface KeyDbRow {
  id: number;
  prefix: string;
  name: string;
  owner_mer_id: string;
  mer_ids: string[];
  permissions: string[];
  ip_allow: string[];
  expires_at: Date | null;
  created_at: Date;
  created_by_name: string;
  last_used_at: Date | null;
  last_ip: string | null;
  revoked_at: Date | null;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 12 characters of [A-Za-z0-9] (the public prefix; 71 bits, unique by the table's index). */
function prefixId(): string {
  const b = randomBytes(12);
  return Array.from(b, (x) => ALNUM[x % 62]).join('');
}

/** The merchants and permissions a key asked for, each checked against its creator's own. */
function checkGrant(user: SessionUser, input: ApiKeyCreate): void {
  for (const m of input.merIds) {
    if (!user.scope.includes(m)) throw new AppError(Code.BAD_REQUEST, 'apiKeyMerchantOutOfScope', { merId: m }, 400, { field: 'merIds' });
  }
  for (const p of input.permissions) {
    const known = (ALL_PERMISSIONS as string[]).includes(p) && !(ADMIN_ONLY_PERMISSIONS as string[]).includes(p);
    if (!known || !user.permissions.includes(p)) throw new AppError(Code.BAD_REQUEST, 'apiKeyPermissionNotHeld', { perm: p }, 400, { field: 'permissions' });
  }
}

function toRow(r: KeyDbRow, now: Date, zone: string): ApiKeyRow {
  const expired = !!r.expires_at && new Date(r.expires_at) <= now;
  const since = r.last_used_at ?? r.created_at;
  return {
    id: Number(r.id),
    name: r.name,
    prefix: r.prefix,
    merIds: r.mer_ids,
    permissions: r.permissions,
    ipAllow: r.ip_allow,
    expiresAt: r.expires_at ? formatInZone(r.expires_at, zone) : null,
    createdAt: formatInZone(r.created_at, zone),
    createdBy: r.created_by_name,
    lastUsedAt: r.last_used_at ? formatInZone(r.last_used_at, zone) : null,
    lastIp: r.last_ip,
    revokedAt: r.revoked_at ? formatInZone(r.revoked_at, zone) : null,
    status: r.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    unused: !r.revoked_at && now.getTime() - new Date(since).getTime() > API_KEY_UNUSED_DAYS * 86_400_000,
  };
}

const SELECT = `SELECT k.id, k.prefix, k.name, k.owner_mer_id, k.mer_ids, k.permissions, k.ip_allow, k.expires_at, k.created_at,
  u.username AS created_by_name, k.last_used_at, k.last_ip, k.revoked_at FROM api_key k JOIN app_user u ON u.id = k.created_by`;

/**
 * Creates a key: its merchants within the creator's scope, its permissions within the creator's
 * own (never an administrator's user management, audit or key management). Only the SHA-256 of the
 * secret is stored; the secret is in this answer and nowhere else. Audited.
 */
export async function createKey(deps: Deps, user: SessionUser, lang: Language, input: ApiKeyCreate, meta: Meta): Promise<{ key: ApiKeyRow; secret: string }> {
  checkGrant(user, input);
  const zone = deps.config.platformTz;
  const now = deps.clock.now();
  let expiresAt: Date | null = null;
  if (input.expiresOn) {
    // The last day counts whole: the key stops at the next midnight of the platform's zone.
    expiresAt = new Date(zonedToUtc(`${input.expiresOn} 00:00:00`, zone).getTime() + 86_400_000);
    if (expiresAt <= now) throw new AppError(Code.BAD_REQUEST, 'apiKeyExpiryPast', {}, 400, { field: 'expiresOn' });
  }
  const prefix = `mpk_${prefixId()}`;
  const secret = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const merIds = [...new Set(input.merIds)].sort();
  const permissions = (ALL_PERMISSIONS as string[]).filter((p) => input.permissions.includes(p));
  const ipAllow = [...new Set(input.ipAllow ?? [])];
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO api_key (prefix, secret_hash, name, owner_mer_id, mer_ids, permissions, ip_allow, expires_at, created_by, lang, created_at, api_version)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING id`,
      [prefix, sha256(secret), input.name, user.merId, merIds, permissions, ipAllow, expiresAt, user.id, lang, now, API_VERSION_CURRENT],
    );
    const id = Number(rows[0].id);
    await audit(q, {
      action: ApiKeyAudit.create,
      userId: user.id,
      username: user.username,
      merId: user.merId,
      target: prefix,
      detail: { id, name: input.name, before: null, after: { merIds, permissions, ipAllow, expiresAt: expiresAt?.toISOString() ?? null } },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return (await q.query<KeyDbRow>(`${SELECT} WHERE k.id = $1`, [id])).rows[0];
  });
  return { key: toRow(row, now, zone), secret };
}

/** The keys owned by merchants in the caller's scope, newest first. */
export async function listKeys(
  deps: Deps,
  user: SessionUser,
  q: { page: number; size: number; status?: 'active' | 'revoked' | 'expired'; name?: string },
): Promise<{ content: ApiKeyRow[]; totalElements: number }> {
  const now = deps.clock.now();
  const params: unknown[] = [user.scope, now];
  const c = ['k.owner_mer_id = ANY($1::text[])', '$2::timestamptz IS NOT NULL'];
  if (q.status === 'revoked') c.push('k.revoked_at IS NOT NULL');
  else if (q.status === 'expired') c.push('k.revoked_at IS NULL AND k.expires_at <= $2');
  else if (q.status === 'active') c.push('k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)');
  if (q.name) {
    params.push(`%${q.name.replace(/[\\%_]/g, (x) => `\\${x}`)}%`);
    c.push(`k.name ILIKE $${params.length}`);
  }
  const where = c.join(' AND ');
  const [rows, n] = await Promise.all([
    deps.db.query<KeyDbRow>(`${SELECT} WHERE ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT ${q.size} OFFSET ${q.page * q.size}`, params),
    deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_key k WHERE ${where}`, params),
  ]);
  return { content: rows.rows.map((r) => toRow(r, now, deps.config.platformTz)), totalElements: Number(n.rows[0].n) };
}

/**
 * Revokes a key: one UPDATE, and since no process caches keys, the next request with it is refused
 * on every process. Revoking a revoked key changes nothing (and is not audited again).
 */
export async function revokeKey(deps: Deps, user: SessionUser, id: number, meta: Meta): Promise<ApiKeyRow> {
  const now = deps.clock.now();
  const row = await deps.db.tx(async (q) => {
    const before = (await q.query<KeyDbRow>(`${SELECT} WHERE k.id = $1 AND k.owner_mer_id = ANY($2::text[]) FOR UPDATE OF k`, [id, user.scope])).rows[0];
    if (!before) throw notFound();
    if (before.revoked_at) return before;
    await q.query('UPDATE api_key SET revoked_at = $2, revoked_by = $3 WHERE id = $1', [id, now, user.id]);
    await audit(q, {
      action: ApiKeyAudit.revoke,
      userId: user.id,
      username: user.username,
      merId: before.owner_mer_id,
      target: before.prefix,
      detail: { id, name: before.name, before: { revokedAt: null }, after: { revokedAt: now.toISOString() } },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return (await q.query<KeyDbRow>(`${SELECT} WHERE k.id = $1`, [id])).rows[0];
  });
  return toRow(row, now, deps.config.platformTz);
}
