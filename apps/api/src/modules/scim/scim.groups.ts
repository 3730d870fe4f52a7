import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { hasControlChars } from '@portal/contract';
import { ScimError, invalidValue, scimNotFound } from './scim.errors';
import { etagOf, ifMatch, listResponse, parseFilter } from './scim.filter';
import { ScimAudit, type ScimCaller } from './scim.tokens';
import { actorOf, applyRoles, type ScimMeta } from './scim.roles';
import { userIdsOf } from './scim.users';

/**
 * SCIM Groups (RFC 7643 §4.2) of one merchant group. A group's members are provisioned users;
 * every membership change (and a rename, which changes which mapping applies) sets the members'
 * roles from the group → role mappings in the same transaction (scim.roles.ts).
 * Lock order: the group row, then the users' rows.
 */
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface GroupDbRow {
  id: string;
  display_name: string;
  external_id: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  members: { value: string; display: string; user_id: number }[];
}

const SELECT = `SELECT g.id::text AS id, g.display_name, g.external_id, g.version, g.created_at, g.updated_at,
    COALESCE((SELECT json_agg(json_build_object('value', s.scim_id::text, 'display', u.username, 'user_id', u.id) ORDER BY u.username)
                FROM scim_group_member gm JOIN scim_user s ON s.user_id = gm.user_id JOIN app_user u ON u.id = gm.user_id
               WHERE gm.group_id = g.id AND u.removed_at IS NULL), '[]'::json) AS members
  FROM scim_group g`;

export function groupResource(r: GroupDbRow, base: string, withMembers = true) {
  return {
    schemas: [GROUP_SCHEMA],
    id: r.id,
    displayName: r.display_name,
    ...(r.external_id !== null ? { externalId: r.external_id } : {}),
    ...(withMembers ? { members: r.members.map((m) => ({ value: m.value, display: m.display, $ref: `${base}/scim/v2/Users/${m.value}` })) } : {}),
    meta: {
      resourceType: 'Group',
      created: new Date(r.created_at).toISOString(),
      lastModified: new Date(r.updated_at).toISOString(),
      version: etagOf(r.version),
      location: `${base}/scim/v2/Groups/${r.id}`,
    },
  };
}
export type GroupResource = ReturnType<typeof groupResource>;

function object(v: unknown, field: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidValue(field);
  return v as Record<string, unknown>;
}
function displayName(v: unknown): string {
  if (typeof v !== 'string' || !v.trim() || v.length > 256 || hasControlChars(v)) throw invalidValue('displayName');
  return v.trim();
}
function externalId(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 256 || hasControlChars(v)) throw invalidValue('externalId');
  return v;
}
/** The user ids (SCIM ids) of a `members` value: `[{ value }]`, or one `{ value }`. */
function memberIds(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > 1000) throw invalidValue('members');
  return list.map((m) => {
    const o = object(m, 'members');
    if (typeof o.value !== 'string') throw invalidValue('members');
    return o.value.toLowerCase();
  });
}

async function findRow(q: Queryable, merId: string, id: string, lock = false): Promise<GroupDbRow> {
  if (!UUID_RE.test(id)) throw scimNotFound();
  if (lock) await q.query('SELECT 1 FROM scim_group WHERE id = $2::uuid AND mer_id = $1 FOR UPDATE', [merId, id]);
  const { rows } = await q.query<GroupDbRow>(`${SELECT} WHERE g.id = $2::uuid AND g.mer_id = $1`, [merId, id]);
  if (!rows[0]) throw scimNotFound();
  return rows[0];
}

export async function getGroup(deps: Deps, c: ScimCaller, id: string, withMembers = true): Promise<GroupResource> {
  return groupResource(await findRow(deps.db, c.merId, id), deps.config.publicUrl, withMembers);
}

const GROUP_FILTERS: Record<string, string> = {
  displayname: 'lower(g.display_name) = lower($2::text)',
  externalid: 'g.external_id = $2::text',
  id: 'g.id::text = lower($2::text)',
  'members.value': 'EXISTS (SELECT 1 FROM scim_group_member gm JOIN scim_user s ON s.user_id = gm.user_id WHERE gm.group_id = g.id AND s.scim_id::text = lower($2::text))',
};

export async function listGroups(deps: Deps, c: ScimCaller, filter: string | undefined, startIndex: number, count: number, withMembers: boolean) {
  const f = parseFilter(filter);
  let where = 'g.mer_id = $1';
  const params: unknown[] = [c.merId];
  if (f) {
    const cond = GROUP_FILTERS[f.attr];
    if (!cond || typeof f.value !== 'string') throw new ScimError(400, 'scimInvalidFilter', 'invalidFilter');
    where += ` AND ${cond}`;
    params.push(f.value);
  }
  const [rows, n] = await Promise.all([
    deps.db.query<GroupDbRow>(`${SELECT} WHERE ${where} ORDER BY g.created_at, g.id LIMIT ${count} OFFSET ${startIndex - 1}`, params),
    deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scim_group g WHERE ${where}`, params),
  ]);
  return listResponse(
    rows.rows.map((r) => groupResource(r, deps.config.publicUrl, withMembers)),
    n.rows[0].n,
    startIndex,
  );
}

/** Sets the group's members to `userIds` (app_user ids): adds and removes rows. Returns the users whose membership changed. */
async function setMembers(q: Queryable, groupId: string, before: number[], after: number[]): Promise<number[]> {
  const add = after.filter((u) => !before.includes(u));
  const remove = before.filter((u) => !after.includes(u));
  if (add.length) await q.query('INSERT INTO scim_group_member (group_id, user_id) SELECT $1::uuid, unnest($2::int[]) ON CONFLICT DO NOTHING', [groupId, add]);
  if (remove.length) await q.query('DELETE FROM scim_group_member WHERE group_id = $1::uuid AND user_id = ANY($2::int[])', [groupId, remove]);
  return [...add, ...remove];
}

const isUnique = (e: unknown) => (e as { code?: string })?.code === '23505';

export async function createGroup(deps: Deps, c: ScimCaller, body: unknown, meta: ScimMeta): Promise<GroupResource> {
  const b = object(body, 'body');
  const name = displayName(b.displayName);
  const ext = externalId(b.externalId);
  const members = memberIds(b.members);
  const id = randomUUID();
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    const ins = await q.query(
      'INSERT INTO scim_group (id, mer_id, display_name, external_id, version, created_at, updated_at) VALUES ($1, $2, $3, $4, 1, $5, $5) ON CONFLICT DO NOTHING RETURNING id',
      [id, c.merId, name, ext, now],
    );
    if (!ins.rows[0]) throw new ScimError(409, 'scimExternalIdTaken', 'uniqueness');
    const users = await userIdsOf(q, c.merId, members);
    await setMembers(q, id, [], users);
    await audit(q, { action: ScimAudit.groupCreate, ...actorOf(c, meta), target: name, detail: { groupId: id, externalId: ext, members: users } });
    await applyRoles(q, c, users, meta);
  });
  return getGroup(deps, c, id);
}

interface GroupChange {
  displayName?: string;
  externalId?: string | null;
  /** The whole member list (replace), or additions and removals (SCIM ids). */
  members?: string[];
  add?: string[];
  remove?: string[];
}

/**
 * PATCH operations on a group (RFC 7644 §3.5.2), as Entra ID and Okta send them: `add` / `remove`
 * of `members` (with a value list, or the filtered path `members[value eq "…"]`), `replace` of
 * `members`, `displayName` or `externalId`, and Okta's path-less `replace` with `{ id, displayName }`.
 */
export function parseGroupPatch(body: unknown): GroupChange {
  const ops = object(body, 'body').Operations;
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > 100) throw invalidValue('Operations');
  const ch: GroupChange = {};
  const addTo = (k: 'add' | 'remove', ids: string[]) => {
    if (ch.members) {
      ch.members = k === 'add' ? [...new Set([...ch.members, ...ids])] : ch.members.filter((m) => !ids.includes(m));
      return;
    }
    const other = k === 'add' ? 'remove' : 'add';
    ch[other] = (ch[other] ?? []).filter((m) => !ids.includes(m));
    ch[k] = [...new Set([...(ch[k] ?? []), ...ids])];
  };
  for (const raw of ops) {
    const op = object(raw, 'Operations');
    const kind = typeof op.op === 'string' ? op.op.toLowerCase() : '';
    if (!['add', 'replace', 'remove'].includes(kind)) throw invalidValue('op');
    if (op.path !== undefined && op.path !== null && typeof op.path !== 'string') throw invalidValue('path');
    const path = typeof op.path === 'string' ? op.path.trim().replace(/^urn:ietf:params:scim:schemas:core:2\.0:Group:/i, '') : '';
    const filtered = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i.exec(path);
    if (filtered) {
      if (kind !== 'remove') throw new ScimError(400, 'scimInvalidPath', 'invalidPath', { path: path.slice(0, 100) });
      addTo('remove', [filtered[1].toLowerCase()]);
      continue;
    }
    switch (path.toLowerCase()) {
      case 'members':
        if (kind === 'replace') {
          ch.members = memberIds(op.value);
          delete ch.add;
          delete ch.remove;
        } else if (kind === 'add') addTo('add', memberIds(op.value));
        else if (op.value === undefined) {
          ch.members = [];
          delete ch.add;
          delete ch.remove;
        } else addTo('remove', memberIds(op.value));
        break;
      case 'displayname':
        if (kind === 'remove') throw new ScimError(400, 'scimInvalidValue', 'mutability', { field: 'displayName' });
        ch.displayName = displayName(op.value);
        break;
      case 'externalid':
        ch.externalId = kind === 'remove' ? null : externalId(op.value);
        break;
      case '': {
        if (kind === 'remove') throw new ScimError(400, 'scimInvalidPath', 'noTarget', { path: '' });
        const v = object(op.value, 'value');
        for (const [k, x] of Object.entries(v)) {
          const key = k.toLowerCase();
          if (key === 'displayname') ch.displayName = displayName(x);
          else if (key === 'externalid') ch.externalId = externalId(x);
          else if (key === 'members') {
            if (kind === 'replace') ch.members = memberIds(x);
            else addTo('add', memberIds(x));
          } else if (key !== 'id' && key !== 'schemas' && key !== 'meta') throw new ScimError(400, 'scimInvalidPath', 'invalidPath', { path: k.slice(0, 100) });
        }
        break;
      }
      default:
        throw new ScimError(400, 'scimInvalidPath', 'invalidPath', { path: path.slice(0, 100) });
    }
  }
  return ch;
}

/** A replace (PUT): the name, externalId and the whole member list. */
export function parseGroupBody(body: unknown): GroupChange {
  const b = object(body, 'body');
  return { displayName: displayName(b.displayName), externalId: externalId(b.externalId), members: memberIds(b.members) };
}

export async function changeGroup(deps: Deps, c: ScimCaller, id: string, ch: GroupChange, ifMatchHeader: string | string[] | undefined, meta: ScimMeta): Promise<GroupResource> {
  const now = deps.clock.now();
  try {
    await deps.db.tx(async (q) => {
      const g = await findRow(q, c.merId, id, true);
      if (!ifMatch(ifMatchHeader, g.version)) throw new ScimError(412, 'scimVersionMismatch');
      const before = g.members.map((m) => m.user_id);
      let after = before;
      if (ch.members) after = await userIdsOf(q, c.merId, ch.members);
      else {
        const add = await userIdsOf(q, c.merId, ch.add ?? []);
        // Removing a user that is not (or no longer) a member is no error (Entra ID retries removals).
        const { rows } = ch.remove?.length
          ? await q.query<{ user_id: number }>('SELECT user_id FROM scim_user WHERE mer_id = $1 AND scim_id::text = ANY($2::text[])', [c.merId, ch.remove])
          : { rows: [] as { user_id: number }[] };
        const remove = rows.map((r) => r.user_id);
        after = [...new Set([...before.filter((u) => !remove.includes(u)), ...add])];
      }
      const name = ch.displayName ?? g.display_name;
      const ext = ch.externalId === undefined ? g.external_id : ch.externalId;
      const touched = await setMembers(q, id, before, after);
      const renamed = name !== g.display_name;
      if (!touched.length && !renamed && ext === g.external_id) return;
      await q.query('UPDATE scim_group SET display_name = $2, external_id = $3, version = version + 1, updated_at = $4 WHERE id = $1::uuid', [id, name, ext, now]);
      await audit(q, {
        action: ScimAudit.groupUpdate,
        ...actorOf(c, meta),
        target: name,
        detail: { groupId: id, before: { displayName: g.display_name, externalId: g.external_id, members: before }, after: { displayName: name, externalId: ext, members: after } },
      });
      // A rename may change which mapping applies to every member.
      await applyRoles(q, c, renamed ? [...new Set([...before, ...after])] : touched, meta);
    });
  } catch (e) {
    if (isUnique(e)) throw new ScimError(409, 'scimExternalIdTaken', 'uniqueness');
    throw e;
  }
  return getGroup(deps, c, id);
}

export async function deleteGroup(deps: Deps, c: ScimCaller, id: string, ifMatchHeader: string | string[] | undefined, meta: ScimMeta): Promise<void> {
  await deps.db.tx(async (q) => {
    const g = await findRow(q, c.merId, id, true);
    if (!ifMatch(ifMatchHeader, g.version)) throw new ScimError(412, 'scimVersionMismatch');
    const members = g.members.map((m) => m.user_id);
    await q.query('DELETE FROM scim_group WHERE id = $1::uuid', [id]);
    await audit(q, { action: ScimAudit.groupDelete, ...actorOf(c, meta), target: g.display_name, detail: { groupId: id, members } });
    await applyRoles(q, c, members, meta);
  });
}
