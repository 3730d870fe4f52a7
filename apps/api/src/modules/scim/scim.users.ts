import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { endUserSessions } from '../user';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { ScimError, scimNotFound } from './scim.errors';
import { etagOf, ifMatch, listResponse, parseFilter, type Filter } from './scim.filter';
import { ScimAudit, type ScimCaller } from './scim.tokens';
import { actorOf, applyRoles, type ScimMeta } from './scim.roles';
import { EMAIL_RE, parseUserBody, patchUserState, type UserState } from './scim.user-state';

export { parseUserBody, patchUserState } from './scim.user-state';

/**
 * SCIM Users (RFC 7643 §4.1, RFC 7644 §3) of one merchant group: portal users (app_user) that the
 * directory created, each with its scim_user row (id, externalId, names, version). A token sees only
 * its own group's provisioned users — an existing portal user is never taken over (a create with
 * its name answers 409), and another group's user answers 404.
 */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

interface UserDbRow {
  user_id: number;
  scim_id: string;
  username: string;
  email: string;
  status: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  groups: { value: string; display: string }[];
}

const SELECT = `SELECT s.user_id, s.scim_id::text AS scim_id, u.username, u.email, u.status, s.external_id, s.given_name, s.family_name,
    s.display_name, s.version, s.created_at, s.updated_at,
    COALESCE((SELECT json_agg(json_build_object('value', g.id::text, 'display', g.display_name) ORDER BY g.display_name)
                FROM scim_group_member gm JOIN scim_group g ON g.id = gm.group_id WHERE gm.user_id = u.id), '[]'::json) AS groups
  FROM scim_user s JOIN app_user u ON u.id = s.user_id`;
const LIVE = 's.mer_id = $1 AND u.removed_at IS NULL';

export function userResource(r: UserDbRow, base: string) {
  const name =
    r.given_name || r.family_name ? { givenName: r.given_name ?? undefined, familyName: r.family_name ?? undefined, formatted: [r.given_name, r.family_name].filter(Boolean).join(' ') } : undefined;
  return {
    schemas: [USER_SCHEMA],
    id: r.scim_id,
    ...(r.external_id !== null ? { externalId: r.external_id } : {}),
    userName: r.username,
    ...(name ? { name } : {}),
    ...(r.display_name !== null ? { displayName: r.display_name } : {}),
    active: r.status === 'ACTIVE',
    emails: [{ value: r.email, type: 'work', primary: true }],
    groups: r.groups.map((g) => ({ ...g, $ref: `${base}/scim/v2/Groups/${g.value}` })),
    meta: {
      resourceType: 'User',
      created: new Date(r.created_at).toISOString(),
      lastModified: new Date(r.updated_at).toISOString(),
      version: etagOf(r.version),
      location: `${base}/scim/v2/Users/${r.scim_id}`,
    },
  };
}
export type UserResource = ReturnType<typeof userResource>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const stateOf = (r: UserDbRow): UserState => ({
  userName: r.username,
  externalId: r.external_id,
  givenName: r.given_name,
  familyName: r.family_name,
  displayName: r.display_name,
  email: r.email,
  active: r.status === 'ACTIVE',
});

/** The e-mail a user gets: the one sent, else a userName that is an e-mail address. */
function emailOf(s: UserState): string {
  const e = s.email ?? (EMAIL_RE.test(s.userName) ? s.userName : null);
  if (!e) throw new ScimError(400, 'scimEmailRequired', 'invalidValue');
  return e;
}

const isUnique = (e: unknown) => (e as { code?: string })?.code === '23505';

async function findRow(q: Queryable, merId: string, scimId: string, lock = false): Promise<UserDbRow> {
  if (!UUID_RE.test(scimId)) throw scimNotFound();
  if (lock) await q.query('SELECT 1 FROM scim_user s JOIN app_user u ON u.id = s.user_id WHERE s.scim_id = $2::uuid AND ' + LIVE + ' FOR UPDATE OF s, u', [merId, scimId]);
  const { rows } = await q.query<UserDbRow>(`${SELECT} WHERE s.scim_id = $2::uuid AND ${LIVE}`, [merId, scimId]);
  if (!rows[0]) throw scimNotFound();
  return rows[0];
}

export async function getUser(deps: Deps, c: ScimCaller, scimId: string): Promise<UserResource> {
  return userResource(await findRow(deps.db, c.merId, scimId), deps.config.publicUrl);
}

const USER_FILTERS: Record<string, string> = {
  username: 'lower(u.username) = lower($2::text)',
  externalid: 's.external_id = $2::text',
  id: 's.scim_id::text = lower($2::text)',
  'emails.value': 'lower(u.email) = lower($2::text)',
  emails: 'lower(u.email) = lower($2::text)',
  active: "(u.status = 'ACTIVE') = ($2::text = 'true')",
};

export async function listUsers(deps: Deps, c: ScimCaller, filter: string | undefined, startIndex: number, count: number) {
  const f: Filter | null = parseFilter(filter);
  let where = LIVE;
  const params: unknown[] = [c.merId];
  if (f) {
    const cond = USER_FILTERS[f.attr];
    if (!cond || f.value === null) throw new ScimError(400, 'scimInvalidFilter', 'invalidFilter');
    where += ` AND ${cond}`;
    params.push(String(f.value));
  }
  const [rows, n] = await Promise.all([
    deps.db.query<UserDbRow>(`${SELECT} WHERE ${where} ORDER BY s.created_at, s.user_id LIMIT ${count} OFFSET ${startIndex - 1}`, params),
    deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scim_user s JOIN app_user u ON u.id = s.user_id WHERE ${where}`, params),
  ]);
  return listResponse(
    rows.rows.map((r) => userResource(r, deps.config.publicUrl)),
    n.rows[0].n,
    startIndex,
  );
}

/**
 * Creates a user in the token's merchant group: active (or disabled when `active` is false), no
 * usable password (it signs in through the identity provider, or a reset the merchant allows), no
 * role until one of its groups is mapped. Two creates of one name at once make one user: the
 * unique index decides, the other answers 409 uniqueness.
 */
export async function createUser(deps: Deps, c: ScimCaller, body: unknown, meta: ScimMeta): Promise<UserResource> {
  const s = parseUserBody(body);
  const mail = emailOf(s);
  const now = deps.clock.now();
  const scimId = randomUUID();
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, role, permissions, created_by, created_at, password_changed_at, lang)
       VALUES ($1, $2, $3, $4, 'SUB', false, $5, NULL, '{}', $6, $7, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
      [s.userName, UNUSABLE_PASSWORD, mail, c.merId, s.active ? 'ACTIVE' : 'DISABLED', c.creatorId, now, c.lang],
    );
    if (!rows[0]) throw new ScimError(409, 'scimUserNameTaken', 'uniqueness');
    const id = rows[0].id;
    const linked = await q.query(
      `INSERT INTO scim_user (user_id, scim_id, mer_id, external_id, given_name, family_name, display_name, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8) ON CONFLICT DO NOTHING RETURNING user_id`,
      [id, scimId, c.merId, s.externalId, s.givenName, s.familyName, s.displayName, now],
    );
    if (!linked.rows[0]) throw new ScimError(409, 'scimExternalIdTaken', 'uniqueness');
    await audit(q, { action: ScimAudit.userCreate, ...actorOf(c, meta), target: s.userName, detail: { userId: id, scimId, externalId: s.externalId, email: mail, active: s.active } });
  });
  return getUser(deps, c, scimId);
}

/**
 * Writes a user's new state (replace or patch) under its row lock, If-Match checked. Deactivating
 * (active → false) disables the user and ends every session in the same transaction: the
 * app_user and user_session triggers announce it at COMMIT, so every process's session cache drops
 * it at once (decisions 008, 013) and the next request with its token is refused everywhere.
 */
async function writeUser(deps: Deps, c: ScimCaller, scimId: string, ifMatchHeader: string | string[] | undefined, change: (s: UserState) => void, meta: ScimMeta): Promise<UserResource> {
  const now = deps.clock.now();
  try {
    await deps.db.tx(async (q) => {
      const r = await findRow(q, c.merId, scimId, true);
      if (!ifMatch(ifMatchHeader, r.version)) throw new ScimError(412, 'scimVersionMismatch');
      const before = stateOf(r);
      const s = { ...before };
      change(s);
      const mail = s.email ?? r.email;
      const changed = (Object.keys(s) as (keyof UserState)[]).filter((k) => (k === 'email' ? mail !== r.email : s[k] !== before[k]));
      if (!changed.length) return;
      await q.query('UPDATE app_user SET username = $2, email = $3 WHERE id = $1 AND (username IS DISTINCT FROM $2 OR email IS DISTINCT FROM $3)', [r.user_id, s.userName, mail]);
      await q.query('UPDATE scim_user SET external_id = $2, given_name = $3, family_name = $4, display_name = $5, version = version + 1, updated_at = $6 WHERE user_id = $1', [
        r.user_id,
        s.externalId,
        s.givenName,
        s.familyName,
        s.displayName,
        now,
      ]);
      if (s.active !== before.active) {
        await q.query('UPDATE app_user SET status = $2 WHERE id = $1', [r.user_id, s.active ? 'ACTIVE' : 'DISABLED']);
        const ended = s.active ? 0 : await endUserSessions(q, r.user_id, 'scim-deactivated');
        if (!s.active) await q.query('UPDATE email_code SET consumed_at = $2 WHERE user_id = $1 AND consumed_at IS NULL', [r.user_id, now]);
        await audit(q, {
          action: ScimAudit.userDeactivate,
          ...actorOf(c, meta),
          target: s.userName,
          detail: { userId: r.user_id, before: { active: before.active }, after: { active: s.active }, sessionsEnded: ended },
        });
      }
      const diff = changed.filter((k) => k !== 'active');
      if (diff.length) {
        await audit(q, {
          action: ScimAudit.userUpdate,
          ...actorOf(c, meta),
          target: s.userName,
          detail: {
            userId: r.user_id,
            before: Object.fromEntries(diff.map((k) => [k, k === 'email' ? r.email : before[k]])),
            after: Object.fromEntries(diff.map((k) => [k, k === 'email' ? mail : s[k]])),
          },
        });
      }
    });
  } catch (e) {
    if (isUnique(e)) throw new ScimError(409, 'scimUserNameTaken', 'uniqueness');
    throw e;
  }
  return getUser(deps, c, scimId);
}

export const replaceUser = (deps: Deps, c: ScimCaller, scimId: string, body: unknown, ifMatchHeader: string | string[] | undefined, meta: ScimMeta) => {
  const next = parseUserBody(body);
  return writeUser(deps, c, scimId, ifMatchHeader, (s) => Object.assign(s, next, { email: next.email ?? (EMAIL_RE.test(next.userName) ? next.userName : s.email) }), meta);
};

export const patchUser = (deps: Deps, c: ScimCaller, scimId: string, body: unknown, ifMatchHeader: string | string[] | undefined, meta: ScimMeta) => {
  // Checked before the transaction too, so a malformed body answers 400 without a lock taken.
  patchUserState({ userName: 'x', externalId: null, givenName: null, familyName: null, displayName: null, email: null, active: true }, body);
  return writeUser(deps, c, scimId, ifMatchHeader, (s) => patchUserState(s, body), meta);
};

/**
 * Deletes a user: removed as Team → Users removes one (removed_at, disabled, every session ended;
 * its name stays taken until the retention job frees it), out of its groups, its role recomputed away.
 */
export async function deleteUser(deps: Deps, c: ScimCaller, scimId: string, ifMatchHeader: string | string[] | undefined, meta: ScimMeta): Promise<void> {
  await deps.db.tx(async (q) => {
    const r = await findRow(q, c.merId, scimId, true);
    if (!ifMatch(ifMatchHeader, r.version)) throw new ScimError(412, 'scimVersionMismatch');
    const now = deps.clock.now();
    await q.query(`UPDATE app_user SET removed_at = $2, status = 'DISABLED', status_before_disable = NULL, permissions = '{}', role = NULL, team_role_id = NULL WHERE id = $1`, [r.user_id, now]);
    const ended = await endUserSessions(q, r.user_id, 'scim-deleted');
    await q.query('DELETE FROM scim_group_member WHERE user_id = $1', [r.user_id]);
    await q.query('UPDATE scim_user SET version = version + 1, updated_at = $2 WHERE user_id = $1', [r.user_id, now]);
    await audit(q, { action: ScimAudit.userDelete, ...actorOf(c, meta), target: r.username, detail: { userId: r.user_id, scimId, sessionsEnded: ended } });
  });
}

/** The app_user ids of provisioned users of the group with these SCIM ids (unknown ones: 400). */
export async function userIdsOf(q: Queryable, merId: string, scimIds: readonly string[]): Promise<number[]> {
  if (!scimIds.length) return [];
  for (const id of scimIds) if (!UUID_RE.test(id)) throw new ScimError(400, 'scimMemberUnknown', 'invalidValue', { id: id.slice(0, 64) });
  const { rows } = await q.query<{ user_id: number; scim_id: string }>(
    `SELECT s.user_id, s.scim_id::text AS scim_id FROM scim_user s JOIN app_user u ON u.id = s.user_id WHERE s.scim_id = ANY($2::uuid[]) AND ${LIVE}`,
    [merId, [...new Set(scimIds.map((x) => x.toLowerCase()))]],
  );
  const found = new Set(rows.map((r) => r.scim_id));
  const missing = scimIds.find((x) => !found.has(x.toLowerCase()));
  if (missing) throw new ScimError(400, 'scimMemberUnknown', 'invalidValue', { id: missing.slice(0, 64) });
  return rows.map((r) => r.user_id);
}

export { applyRoles };
