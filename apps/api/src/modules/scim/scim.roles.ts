import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { ScimAudit, type ScimCaller } from './scim.tokens';

export interface ScimMeta {
  ip?: string;
  userAgent?: string;
}

/** The audit fields of a SCIM change: the token's creator, named as the token (`scim:<prefix>`). */
export const actorOf = (c: ScimCaller, meta: ScimMeta) => ({ userId: c.creatorId, username: `scim:${c.prefix}`, merId: c.merId, ip: meta.ip, userAgent: meta.userAgent });

/**
 * Sets each provisioned user's role from its groups (issue 51): the named role of the first mapping
 * (by id, the screen's order) whose group name is one of the user's groups; none — no role, no
 * permissions. The permissions are copied onto app_user in this transaction, as a named role's are
 * (decision 041): the app_user trigger announces the change to every process at COMMIT. Only users
 * whose role changes are written (and audited).
 */
export async function applyRoles(q: Queryable, c: ScimCaller, userIds: readonly number[], meta: ScimMeta): Promise<void> {
  if (!userIds.length) return;
  const { rows } = await q.query<{ id: number; username: string; old_role: number | null; role_id: number | null; role_name: string | null; permissions: string[] | null }>(
    `SELECT u.id, u.username, u.team_role_id AS old_role, r.id AS role_id, r.name AS role_name, r.permissions
       FROM app_user u
       LEFT JOIN LATERAL (
         SELECT tr.id, tr.name, tr.permissions FROM scim_role_map m
           JOIN scim_group g ON g.mer_id = m.mer_id AND lower(g.display_name) = lower(m.group_name)
           JOIN scim_group_member gm ON gm.group_id = g.id AND gm.user_id = u.id
           JOIN team_role tr ON tr.id = m.team_role_id AND tr.removed_at IS NULL
          WHERE m.mer_id = $1 ORDER BY m.id LIMIT 1) r ON true
      WHERE u.id = ANY($2::int[]) AND EXISTS (SELECT 1 FROM scim_user s WHERE s.user_id = u.id AND s.mer_id = $1)
      ORDER BY u.id FOR UPDATE OF u`,
    [c.merId, [...new Set(userIds)]],
  );
  for (const r of rows) {
    if (r.old_role === r.role_id && r.role_id !== null) continue;
    const cur = await q.query<{ role: string | null; permissions: string[] }>('SELECT role, permissions FROM app_user WHERE id = $1', [r.id]);
    const perms = r.permissions ?? [];
    if (r.role_id === null && cur.rows[0].role === null && cur.rows[0].permissions.length === 0) continue;
    await q.query('UPDATE app_user SET role = $2, team_role_id = $3, permissions = $4 WHERE id = $1', [r.id, r.role_id === null ? null : 'CUSTOM', r.role_id, perms]);
    await audit(q, {
      action: ScimAudit.userRole,
      ...actorOf(c, meta),
      target: r.username,
      detail: { userId: r.id, before: { roleId: r.old_role, permissions: cur.rows[0].permissions }, after: { roleId: r.role_id, role: r.role_name, permissions: perms } },
    });
  }
}
