import { Code, type ScimGroupRow, type ScimMappingRow } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { formatInZone } from '../txn';
import { groupOfAdmin, ScimAudit } from './scim.tokens';
import { applyRoles } from './scim.roles';

/**
 * Group → named-role mappings of Team → Provisioning (issue 51). A mapping names a directory group
 * (by display name, case-insensitive — it may be saved before the identity provider pushes the
 * group) and one of the merchant's named roles. Saving or removing one sets the roles of the
 * provisioned members at once, in the same transaction. Audited.
 */
interface MapDbRow {
  id: number;
  group_name: string;
  team_role_id: number;
  role_name: string;
  members: number;
  created_at: Date;
}

export async function listMappings(deps: Deps, caller: SessionUser): Promise<ScimMappingRow[]> {
  const merId = await groupOfAdmin(deps, caller);
  const { rows } = await deps.db.query<MapDbRow>(
    `SELECT m.id, m.group_name, m.team_role_id, r.name AS role_name, m.created_at,
            (SELECT count(*)::int FROM scim_group g JOIN scim_group_member gm ON gm.group_id = g.id
              WHERE g.mer_id = m.mer_id AND lower(g.display_name) = lower(m.group_name)) AS members
       FROM scim_role_map m JOIN team_role r ON r.id = m.team_role_id WHERE m.mer_id = $1 ORDER BY m.id`,
    [merId],
  );
  const zone = caller.timeZone ?? deps.config.platformTz;
  return rows.map((r) => ({ id: r.id, groupName: r.group_name, roleId: r.team_role_id, roleName: r.role_name, members: r.members, createdAt: formatInZone(r.created_at, zone) }));
}

export async function listScimGroups(deps: Deps, caller: SessionUser): Promise<ScimGroupRow[]> {
  const merId = await groupOfAdmin(deps, caller);
  const { rows } = await deps.db.query<{ id: string; display_name: string; members: number; role_name: string | null }>(
    `SELECT g.id::text AS id, g.display_name, (SELECT count(*)::int FROM scim_group_member gm WHERE gm.group_id = g.id) AS members,
            (SELECT r.name FROM scim_role_map m JOIN team_role r ON r.id = m.team_role_id WHERE m.mer_id = g.mer_id AND lower(m.group_name) = lower(g.display_name)) AS role_name
       FROM scim_group g WHERE g.mer_id = $1 ORDER BY lower(g.display_name) LIMIT 500`,
    [merId],
  );
  return rows.map((r) => ({ id: r.id, displayName: r.display_name, members: r.members, roleName: r.role_name }));
}

/** The provisioned members of groups of this name (the users whose role a mapping change moves). */
const MEMBERS_OF = `SELECT gm.user_id FROM scim_group g JOIN scim_group_member gm ON gm.group_id = g.id WHERE g.mer_id = $1 AND lower(g.display_name) = lower($2)`;

export async function saveMapping(deps: Deps, caller: SessionUser, input: { groupName: string; roleId: number }, meta: { ip?: string; userAgent?: string }): Promise<ScimMappingRow[]> {
  const merId = await groupOfAdmin(deps, caller);
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    // The role: one of the merchant's live named roles (FOR SHARE: the lock order of a role change).
    const role = (
      await q.query<{ id: number; name: string }>('SELECT id, name FROM team_role WHERE id = $1 AND mer_id = ANY($2::text[]) AND removed_at IS NULL FOR SHARE', [input.roleId, caller.scope])
    ).rows[0];
    if (!role) throw notFound();
    const before = (
      await q.query<{ id: number; team_role_id: number }>('SELECT id, team_role_id FROM scim_role_map WHERE mer_id = $1 AND lower(group_name) = lower($2) FOR UPDATE', [merId, input.groupName])
    ).rows[0];
    if (before) await q.query('UPDATE scim_role_map SET team_role_id = $2 WHERE id = $1', [before.id, role.id]);
    else {
      const ins = await q.query('INSERT INTO scim_role_map (mer_id, group_name, team_role_id, created_by, created_at) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING RETURNING id', [
        merId,
        input.groupName,
        role.id,
        caller.id,
        now,
      ]);
      if (!ins.rows[0]) throw new AppError(Code.BAD_REQUEST, 'scimMappingTaken', {}, 409);
    }
    await audit(q, {
      action: ScimAudit.mappingSave,
      userId: caller.id,
      username: caller.username,
      merId,
      target: input.groupName,
      detail: { before: before ? { roleId: before.team_role_id } : null, after: { roleId: role.id, role: role.name } },
      ...meta,
    });
    const users = (await q.query<{ user_id: number }>(MEMBERS_OF, [merId, input.groupName])).rows.map((r) => r.user_id);
    await applyRoles(q, { tokenId: 0, prefix: `admin:${caller.username}`, merId, creatorId: caller.id, lang: 'en' }, users, meta);
  });
  return listMappings(deps, caller);
}

export async function removeMapping(deps: Deps, caller: SessionUser, id: number, meta: { ip?: string; userAgent?: string }): Promise<ScimMappingRow[]> {
  const merId = await groupOfAdmin(deps, caller);
  await deps.db.tx(async (q) => {
    const m = (await q.query<{ id: number; group_name: string; team_role_id: number }>('SELECT id, group_name, team_role_id FROM scim_role_map WHERE id = $1 AND mer_id = $2 FOR UPDATE', [id, merId]))
      .rows[0];
    if (!m) throw notFound();
    await q.query('DELETE FROM scim_role_map WHERE id = $1', [id]);
    await audit(q, {
      action: ScimAudit.mappingRemove,
      userId: caller.id,
      username: caller.username,
      merId,
      target: m.group_name,
      detail: { before: { roleId: m.team_role_id }, after: null },
      ...meta,
    });
    const users = (await q.query<{ user_id: number }>(MEMBERS_OF, [merId, m.group_name])).rows.map((r) => r.user_id);
    await applyRoles(q, { tokenId: 0, prefix: `admin:${caller.username}`, merId, creatorId: caller.id, lang: 'en' }, users, meta);
  });
  return listMappings(deps, caller);
}
