import net from 'node:net';
import { API_KEY_RE, Code, type Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { sha256 } from '../../lib/crypto';

/** A /v1 request's key (split from apikey.service.ts, no behaviour change): the API versions, authentication, the key as a session user. */

/** The audit actions of API keys (their management in apikey.service.ts, their use here). */
export const ApiKeyAudit = {
  create: 'apikey.create',
  revoke: 'apikey.revoke',
  newIp: 'apikey.use.new_ip',
  refusedIp: 'apikey.use.ip_refused',
} as const;

/**
 * The versions of the merchant API (Portal-Version, issue 50), oldest first; docs/merchant-api.md
 * has the changelog. A key is pinned to the newest at its creation (keys older than versions: the
 * first); a request's Portal-Version header overrides it for that call.
 */
export const API_VERSIONS = ['2026-06-01', '2026-12-01', '2026-12-03'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const API_VERSION_CURRENT: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1];

/** The caller of a /v1 request: a key, cut to what its creator holds now. */
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
