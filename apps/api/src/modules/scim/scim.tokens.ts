import { randomBytes } from 'node:crypto';
import { Code, SCIM_TOKEN_RE, type Language, type ScimTokenRow } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { sha256 } from '../../lib/crypto';
import { formatInZone } from '../txn';
import { ScimError } from './scim.errors';

/**
 * SCIM bearer tokens (issue 51, decision 065): made by an administrator of the merchant group in
 * Team → Provisioning, shown once (only the SHA-256 is stored), revocable, every change audited.
 * Looked up on every SCIM request (no cache): a revoked token is refused at once by every process.
 */
export const ScimAudit = {
  tokenCreate: 'scim.token.create',
  tokenRevoke: 'scim.token.revoke',
  userCreate: 'scim.user.create',
  userUpdate: 'scim.user.update',
  userDeactivate: 'scim.user.deactivate',
  userDelete: 'scim.user.delete',
  userRole: 'scim.user.role',
  groupCreate: 'scim.group.create',
  groupUpdate: 'scim.group.update',
  groupDelete: 'scim.group.delete',
  mappingSave: 'scim.mapping.save',
  mappingRemove: 'scim.mapping.remove',
} as const;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const prefixId = () => Array.from(randomBytes(12), (x) => ALNUM[x % 62]).join('');

/** The merchant group an administrator manages: its own merchant, which must be a group or an independent merchant. */
export async function groupOfAdmin(deps: Deps, caller: SessionUser): Promise<string> {
  if (caller.userType !== 'MAIN' || !caller.userAdmin) throw forbidden();
  const { rows } = await deps.db.query<{ g: string }>('SELECT COALESCE(parent_id, mer_id) AS g FROM merchant WHERE mer_id = $1', [caller.merId]);
  // A sub-merchant follows its group: only the group's own administrators manage provisioning.
  if (rows[0]?.g !== caller.merId) throw new AppError(Code.FORBIDDEN, 'forbidden', {}, 403);
  return caller.merId;
}

interface TokenDbRow {
  id: number;
  mer_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  created_by_name: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
const SELECT = `SELECT t.id, t.mer_id, t.name, t.prefix, t.created_at, u.username AS created_by_name, t.last_used_at, t.revoked_at
  FROM scim_token t JOIN app_user u ON u.id = t.created_by`;

const toRow = (r: TokenDbRow, zone: string): ScimTokenRow => ({
  id: Number(r.id),
  name: r.name,
  prefix: r.prefix,
  createdAt: formatInZone(r.created_at, zone),
  createdBy: r.created_by_name,
  lastUsedAt: r.last_used_at ? formatInZone(r.last_used_at, zone) : null,
  revokedAt: r.revoked_at ? formatInZone(r.revoked_at, zone) : null,
  status: r.revoked_at ? 'revoked' : 'active',
});

const zoneOf = (deps: Deps, u: SessionUser) => u.timeZone ?? deps.config.platformTz;

export async function listTokens(deps: Deps, caller: SessionUser): Promise<ScimTokenRow[]> {
  const merId = await groupOfAdmin(deps, caller);
  const { rows } = await deps.db.query<TokenDbRow>(`${SELECT} WHERE t.mer_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT 200`, [merId]);
  return rows.map((r) => toRow(r, zoneOf(deps, caller)));
}

export async function createToken(deps: Deps, caller: SessionUser, lang: Language, name: string, meta: { ip?: string; userAgent?: string }): Promise<{ token: ScimTokenRow; secret: string }> {
  const merId = await groupOfAdmin(deps, caller);
  const prefix = `scim_${prefixId()}`;
  const secret = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const now = deps.clock.now();
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number }>('INSERT INTO scim_token (mer_id, name, prefix, secret_hash, lang, created_by, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id', [
      merId,
      name,
      prefix,
      sha256(secret),
      lang,
      caller.id,
      now,
    ]);
    await audit(q, { action: ScimAudit.tokenCreate, userId: caller.id, username: caller.username, merId, target: prefix, detail: { id: rows[0].id, name }, ...meta });
    return (await q.query<TokenDbRow>(`${SELECT} WHERE t.id = $1`, [rows[0].id])).rows[0];
  });
  return { token: toRow(row, zoneOf(deps, caller)), secret };
}

export async function revokeToken(deps: Deps, caller: SessionUser, id: number, meta: { ip?: string; userAgent?: string }): Promise<ScimTokenRow> {
  const merId = await groupOfAdmin(deps, caller);
  const now = deps.clock.now();
  const row = await deps.db.tx(async (q) => {
    const before = (await q.query<TokenDbRow>(`${SELECT} WHERE t.id = $1 AND t.mer_id = $2 FOR UPDATE OF t`, [id, merId])).rows[0];
    if (!before) throw notFound();
    if (before.revoked_at) return before;
    await q.query('UPDATE scim_token SET revoked_at = $2, revoked_by = $3 WHERE id = $1', [id, now, caller.id]);
    await audit(q, { action: ScimAudit.tokenRevoke, userId: caller.id, username: caller.username, merId, target: before.prefix, detail: { id, name: before.name }, ...meta });
    return (await q.query<TokenDbRow>(`${SELECT} WHERE t.id = $1`, [id])).rows[0];
  });
  return toRow(row, zoneOf(deps, caller));
}

/** The caller of a SCIM request: the token's merchant group, its creator (audit rows name the token). */
export interface ScimCaller {
  tokenId: number;
  prefix: string;
  merId: string;
  creatorId: number;
  lang: Language;
}

/** Resolves `Authorization: Bearer scim_…`; unknown, revoked, or its creator no longer active: 401. */
export async function authenticateScim(deps: Deps, authorization: string | undefined): Promise<ScimCaller> {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) throw new ScimError(401, 'scimTokenMissing');
  if (!SCIM_TOKEN_RE.test(m[1])) throw new ScimError(401, 'scimTokenInvalid');
  const { rows } = await deps.db.query<{ id: number; prefix: string; mer_id: string; created_by: number; lang: Language; revoked_at: Date | null; last_used_at: Date | null; status: string }>(
    `SELECT t.id, t.prefix, t.mer_id, t.created_by, t.lang, t.revoked_at, t.last_used_at, u.status
       FROM scim_token t JOIN app_user u ON u.id = t.created_by WHERE t.secret_hash = $1`,
    [sha256(m[1])],
  );
  const k = rows[0];
  if (!k || k.revoked_at || k.status !== 'ACTIVE') throw new ScimError(401, 'scimTokenInvalid');
  const now = deps.clock.now();
  if (!k.last_used_at || now.getTime() - new Date(k.last_used_at).getTime() > 60_000) {
    await deps.db.query('UPDATE scim_token SET last_used_at = $2 WHERE id = $1', [k.id, now]);
  }
  return { tokenId: Number(k.id), prefix: k.prefix, merId: k.mer_id, creatorId: k.created_by, lang: k.lang };
}
