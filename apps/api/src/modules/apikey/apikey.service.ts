import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { ADMIN_ONLY_PERMISSIONS, ALL_PERMISSIONS, API_KEY_RE, API_KEY_UNUSED_DAYS, Code, type ApiKeyCreate, type ApiKeyRow, type Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { sha256 } from '../../lib/crypto';
import { formatInZone, zonedToUtc } from '../../lib/zone';

const ApiKeyAudit = {
  create: 'apikey.create',
  revoke: 'apikey.revoke',
  newIp: 'apikey.use.new_ip',
  refusedIp: 'apikey.use.ip_refused',
} as const;

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

/** The caller of a /v1 request: a key, cut to what its creator holds now. */
/**
 * The versions of the merchant API (Portal-Version, issue 50), oldest first; docs/merchant-api.md
 * has the changelog. A key is pinned to the newest at its creation (keys older than versions: the
 * first); a request's Portal-Version header overrides it for that call.
 */
export const API_VERSIONS = ['2026-06-01', '2026-12-01', '2026-12-03'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const API_VERSION_CURRENT: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1];

export interface KeyCaller {
  keyId: number;
  /** The API version the key is pinned to (Portal-Version). */
  apiVersion: ApiVersion;
  prefix: string;
  lang: Language;
  rateLimit: number;
  /** The key's merchants that its creator can still see. */
  scope: string[];
  /** The key's permissions that its creator still holds. */
  permissions: string[];
  creatorId: number;
  creatorName: string;
  ownerMerId: string;
}

interface AuthRow {
  api_version: string;
  id: number;
  prefix: string;
  secret_hash: string;
  owner_mer_id: string;
  mer_ids: string[];
  permissions: string[];
  ip_allow: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_ip: string | null;
  rate_limit: number;
  lang: Language;
  created_by: number;
  username: string;
  status: string;
  locked_until: Date | null;
  user_permissions: string[];
  user_scope: string[];
}

/** A plain IPv4 address for an IPv4-mapped IPv6 one (`::ffff:1.2.3.4`). */
const plainIp = (ip: string) => (ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip);

/** Whether `ip` is in one of `ranges` (addresses or CIDR ranges; empty = any). */
function ipAllowed(ranges: readonly string[], ip: string): boolean {
  if (!ranges.length) return true;
  const addr = plainIp(ip);
  const type = net.isIPv4(addr) ? 'ipv4' : net.isIPv6(addr) ? 'ipv6' : null;
  if (!type) return false;
  const list = new net.BlockList();
  for (const r of ranges) {
    const [a, bits] = r.split('/');
    const t = net.isIPv4(a) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(a, t);
    else list.addSubnet(a, Number(bits), t);
  }
  return list.check(addr, type);
}

/**
 * Resolves `Authorization: Bearer <key>` into the caller, looked up on every request (no cache:
 * a revoked key is refused at once everywhere). Refused: malformed or unknown (401), revoked,
 * expired, or its creator no longer active (401), an address outside the allow-list (403, audited).
 * The first use from each address is audited; the last use is written at most once a minute.
 */
export async function authenticateKey(deps: Deps, authorization: string | undefined, ip: string, userAgent?: string): Promise<KeyCaller> {
  const m = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
  if (!m) throw new AppError(Code.NOT_LOGGED_IN, 'apiKeyMissing', {}, 401);
  if (!API_KEY_RE.test(m[1])) throw new AppError(Code.TOKEN_INVALID, 'apiKeyInvalid', {}, 401);
  const now = deps.clock.now();
  const { rows } = await deps.db.query<AuthRow>(
    `SELECT k.id, k.prefix, k.owner_mer_id, k.mer_ids, k.permissions, k.ip_allow, k.expires_at, k.revoked_at, k.last_used_at, k.last_ip,
            k.rate_limit, k.lang, k.api_version, k.created_by, u.username, u.status, u.locked_until, u.permissions AS user_permissions,
            ARRAY(SELECT sm.mer_id::text FROM merchant sm
                   WHERE CASE WHEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id)
                     THEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id = sm.mer_id)
                          AND (sm.mer_id = COALESCE(m.parent_id, m.mer_id) OR sm.parent_id = COALESCE(m.parent_id, m.mer_id))
                     ELSE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) END) AS user_scope
       FROM api_key k JOIN app_user u ON u.id = k.created_by JOIN merchant m ON m.mer_id = u.mer_id
      WHERE k.secret_hash = $1`,
    [sha256(m[1])],
  );
  const k = rows[0];
  if (!k) throw new AppError(Code.TOKEN_INVALID, 'apiKeyInvalid', {}, 401);
  if (k.revoked_at) throw new AppError(Code.TOKEN_INVALID, 'apiKeyRevoked', {}, 401, { reason: 'revoked' });
  if (k.expires_at && new Date(k.expires_at) <= now) throw new AppError(Code.TOKEN_INVALID, 'apiKeyExpired', {}, 401, { reason: 'expired' });
  if (k.status !== 'ACTIVE' || (k.locked_until && new Date(k.locked_until) > now)) throw new AppError(Code.TOKEN_INVALID, 'apiKeyInvalid', {}, 401);
  const addr = plainIp(ip);
  if (!ipAllowed(k.ip_allow, addr)) {
    await audit(deps.db, {
      action: ApiKeyAudit.refusedIp,
      outcome: 'failure',
      userId: k.created_by,
      username: `apikey:${k.prefix}`,
      merId: k.owner_mer_id,
      target: k.prefix,
      detail: { keyId: Number(k.id) },
      ip: addr,
      userAgent,
    });
    throw new AppError(Code.FORBIDDEN, 'apiKeyIpRefused', { ip: addr }, 403, { reason: 'ip' });
  }
  const fresh = !k.last_used_at || now.getTime() - new Date(k.last_used_at).getTime() > 60_000 || k.last_ip !== addr;
  if (fresh) {
    await deps.db.tx(async (q) => {
      await q.query('UPDATE api_key SET last_used_at = $2, last_ip = $3 WHERE id = $1', [k.id, now, addr]);
      const seen = await q.query('INSERT INTO api_key_ip (key_id, ip, first_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key_id', [k.id, addr, now]);
      if (seen.rowCount) {
        await audit(q, {
          action: ApiKeyAudit.newIp,
          userId: k.created_by,
          username: `apikey:${k.prefix}`,
          merId: k.owner_mer_id,
          target: k.prefix,
          detail: { keyId: Number(k.id) },
          ip: addr,
          userAgent,
        });
      }
    });
  }
  return {
    keyId: Number(k.id),
    apiVersion: (API_VERSIONS as readonly string[]).includes(k.api_version) ? (k.api_version as ApiVersion) : API_VERSIONS[0],
    prefix: k.prefix,
    lang: k.lang,
    rateLimit: k.rate_limit,
    scope: k.mer_ids.filter((x) => k.user_scope.includes(x)),
    permissions: k.permissions.filter((p) => k.user_permissions.includes(p)),
    creatorId: k.created_by,
    creatorName: k.username,
    ownerMerId: k.owner_mer_id,
  };
}

/**
 * The key as the services' caller (SessionUser): its creator's id (audit rows name the key as
 * `apikey:<prefix>`), the key's scope and permissions. A key stands in for the portal's password
 * re-check before a refund (its secret is the proof), so the step-up window is this request.
 */
export function keyAsUser(k: KeyCaller, now: Date): SessionUser {
  return {
    id: k.creatorId,
    username: `apikey:${k.prefix}`,
    email: '',
    merId: k.ownerMerId,
    merName: '',
    userType: 'SUB',
    userAdmin: false,
    permissions: k.permissions,
    sessionId: 0,
    scope: k.scope,
    stepUpUntil: new Date(now.getTime() + 60_000),
  };
}
