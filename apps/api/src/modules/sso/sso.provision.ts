/** Just-in-time users of an SSO sign-in: the identity in the provider's claims, its mapped role, the linked or new portal user. */
import { randomBytes } from 'node:crypto';
import { Code, ROLE_PRESETS, USERNAME_RE, type SsoRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import type { Meta } from '../user';
import { domainVerifiedFor, SsoAudit, type ProviderRow } from './sso.provider';

export interface SsoIdentity {
  subject: string;
  email: string;
  name: string | null;
  groups: string[];
}

/** The identity in a provider's claims (OIDC's, or a SAML assertion's attributes). */
export function identityOf(claims: Record<string, unknown>, groupsClaim: string): SsoIdentity {
  const sub = String(claims.sub ?? '');
  const email = String(claims.email ?? '')
    .trim()
    .toLowerCase();
  if (!sub || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error('the provider gave no subject or e-mail');
  if (claims.email_verified === false) throw new Error('the provider says the e-mail is not verified');
  const raw = claims[groupsClaim];
  const groups = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).map(String).slice(0, 200);
  const name = claims.name ?? claims.preferred_username ?? null;
  return { subject: sub.slice(0, 255), email: email.slice(0, 254), name: name === null ? null : String(name).slice(0, 200), groups };
}

const refuse = (reason: string) => new AppError(Code.SSO_FAILED, 'ssoFailed', { reason });

/** The role the provider's groups map to: the first mapping (by priority) matching, else the default, else null. */
export async function mappedRole(q: Queryable, p: ProviderRow, groups: string[]): Promise<{ role: SsoRole; roleId: number | null } | null> {
  const { rows } = await q.query<{ role: SsoRole; team_role_id: number | null }>(
    'SELECT role, team_role_id FROM sso_role_mapping WHERE provider_id = $1 AND claim_value = ANY($2::text[]) ORDER BY priority, claim_value LIMIT 1',
    [p.id, groups],
  );
  if (rows[0]) return { role: rows[0].role, roleId: rows[0].team_role_id };
  return p.default_role ? { role: p.default_role, roleId: p.default_role_id } : null;
}

async function permissionsOf(q: Queryable, group: string, role: { role: SsoRole; roleId: number | null }): Promise<string[]> {
  if (role.role !== 'CUSTOM') return [...ROLE_PRESETS[role.role]];
  const { rows } = await q.query<{ permissions: string[] }>('SELECT permissions FROM team_role WHERE id = $1 AND mer_id = $2 AND removed_at IS NULL', [role.roleId, group]);
  if (!rows[0]) throw refuse('role-removed');
  return rows[0].permissions;
}

interface LinkedUser {
  id: number;
  username: string;
  email: string;
  mer_id: string;
  status: string;
  user_admin: boolean;
  role: string | null;
  team_role_id: number | null;
  permissions: string[];
  removed_at: Date | null;
}

/**
 * Just-in-time users (issue 51): the provider's subject is linked to one portal user of the
 * provider's group. First sign-in: a user of the group whose e-mail (in a domain the group
 * verified) is the provider's is linked; else a new active user is made with the mapped role (no
 * password). Later sign-ins update the e-mail, name and role (administrators' grants are left to
 * the team screen). No role mapped and no default: refused — and an existing user's sessions end.
 * Audited (created / updated, with before and after). Parallel first sign-ins of one subject make
 * one user (the unique indexes decide; the loser reads the winner's link).
 */
export async function provisionUser(deps: Deps, p: ProviderRow, id: SsoIdentity, meta: Meta, attempt = 0): Promise<number> {
  const now = deps.clock.now();
  const group = p.mer_id;
  let out: number | { refused: string };
  try {
    out = await deps.db.tx(async (q): Promise<number | { refused: string }> => {
      const role = await mappedRole(q, p, id.groups);
      const linked = await q.query<LinkedUser & { identity_id: number }>(
        `SELECT u.id, u.username, u.email, u.mer_id, u.status, u.user_admin, u.role, u.team_role_id, u.permissions, u.removed_at, i.id AS identity_id
           FROM sso_identity i JOIN app_user u ON u.id = i.user_id WHERE i.provider_id = $1 AND i.subject = $2 FOR UPDATE OF i, u`,
        [p.id, id.subject],
      );
      let u: (LinkedUser & { identity_id?: number }) | undefined = linked.rows[0];
      if (!role) {
        // The provider took the user's access away: its open sessions end (committed, then refused).
        if (u) await q.query(`UPDATE user_session SET revoked_at = $2, revoke_reason = 'sso-no-role' WHERE user_id = $1 AND revoked_at IS NULL`, [u.id, now]);
        return { refused: 'no-role-mapped' };
      }
      if (!u) {
        if (!(await domainVerifiedFor(q, group, id.email))) throw refuse('domain-not-verified');
        const byEmail = await q.query<LinkedUser>(
          `SELECT id, username, email, mer_id, status, user_admin, role, team_role_id, permissions, removed_at FROM app_user WHERE lower(email) = $1 FOR UPDATE`,
          [id.email],
        );
        const existing = byEmail.rows[0];
        if (existing) {
          const g = (await q.query<{ g: string }>('SELECT COALESCE(parent_id, mer_id) AS g FROM merchant WHERE mer_id = $1', [existing.mer_id])).rows[0]?.g;
          if (g !== group) throw refuse('email-of-another-merchant');
          u = existing;
        }
      }
      if (u && (u.removed_at || u.status === 'DISABLED')) throw refuse('user-disabled');
      const permissions = await permissionsOf(q, group, role);
      if (!u) {
        const username = USERNAME_RE.test(id.email) && !(await q.query('SELECT 1 FROM app_user WHERE lower(username) = $1', [id.email])).rows[0] ? id.email : `sso-${randomBytes(6).toString('hex')}`;
        const { rows } = await q.query<{ id: number }>(
          `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, role, team_role_id, permissions, created_at, password_changed_at, lang)
           VALUES ($1,$2,$3,$4,'SUB',false,'ACTIVE',$5,$6,$7,$8,$8,$9) RETURNING id`,
          [username, UNUSABLE_PASSWORD, id.email, group, role.role, role.roleId, permissions, now, meta.lang ?? null],
        );
        const userId = rows[0].id;
        await q.query('INSERT INTO sso_identity (mer_id, provider_id, subject, user_id, name, email, created_at, last_login_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$7)', [
          group,
          p.id,
          id.subject,
          userId,
          id.name,
          id.email,
          now,
        ]);
        await audit(q, {
          action: SsoAudit.userCreated,
          userId,
          username,
          merId: group,
          target: username,
          detail: { provider: p.id, subject: id.subject, role: role.role, roleId: role.roleId, groups: id.groups.slice(0, 20) },
          ...meta,
        });
        return userId;
      }
      // A known user: e-mail, name and (for non-administrators) role follow the provider.
      const manageRole = !u.user_admin;
      const changed = manageRole && (u.role !== role.role || u.team_role_id !== role.roleId || [...u.permissions].sort().join() !== [...permissions].sort().join());
      await q.query(
        `UPDATE app_user SET email = $2${manageRole ? ', role = $3, team_role_id = $4, permissions = $5' : ''} WHERE id = $1`,
        manageRole ? [u.id, id.email, role.role, role.roleId, permissions] : [u.id, id.email],
      );
      if (u.identity_id) {
        await q.query('UPDATE sso_identity SET name = $2, email = $3, last_login_at = $4 WHERE id = $1', [u.identity_id, id.name, id.email, now]);
      } else {
        await q.query('INSERT INTO sso_identity (mer_id, provider_id, subject, user_id, name, email, created_at, last_login_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$7)', [
          group,
          p.id,
          id.subject,
          u.id,
          id.name,
          id.email,
          now,
        ]);
      }
      if (changed || u.email !== id.email || !u.identity_id) {
        await audit(q, {
          action: SsoAudit.userUpdated,
          userId: u.id,
          username: u.username,
          merId: group,
          target: u.username,
          detail: {
            provider: p.id,
            linked: !u.identity_id,
            before: { email: u.email, role: u.role, roleId: u.team_role_id },
            after: { email: id.email, role: manageRole ? role.role : u.role, roleId: manageRole ? role.roleId : u.team_role_id },
          },
          ...meta,
        });
      }
      return u.id;
    });
  } catch (err) {
    // A parallel first sign-in of the same person won the unique index: read its link once more.
    if (attempt === 0 && /duplicate key|unique/i.test(String((err as Error).message))) return provisionUser(deps, p, id, meta, 1);
    if (/duplicate key|unique/i.test(String((err as Error).message))) throw refuse('email-taken');
    throw err;
  }
  if (typeof out !== 'number') throw refuse(out.refused);
  return out;
}
