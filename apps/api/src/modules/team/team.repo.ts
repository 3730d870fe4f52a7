import type { Queryable } from '../../db/db';

/** SQL of the team module: the merchant's users, their stored merchant scope, uniqueness. */

export interface TeamUserDbRow {
  id: number;
  username: string;
  user_type: 'MAIN' | 'SUB';
  user_admin: boolean;
  role: string | null;
  role_id: number | null;
  role_name: string | null;
  mer_id: string;
  mer_name: string;
  mer_ids: string[];
  permissions: string[];
  email: string;
  phone: string | null;
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  two_factor: boolean;
  last_login_at: Date | null;
  created_at: Date;
  access_ends_on: string | null;
}

/** The merchants a user may see: its stored scope, or its merchant (and a group's subs). */
const MER_IDS = `COALESCE(NULLIF(ARRAY(SELECT us.mer_id::text FROM user_merchant_scope us WHERE us.user_id = u.id ORDER BY 1), '{}'),
  ARRAY(SELECT sm.mer_id::text FROM merchant sm WHERE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) ORDER BY 1))`;

const COLUMNS = `u.id, u.username, u.user_type, u.user_admin, u.role, u.team_role_id AS role_id,
  (SELECT tr.name FROM team_role tr WHERE tr.id = u.team_role_id) AS role_name, u.mer_id, m.name AS mer_name, ${MER_IDS} AS mer_ids,
  u.permissions, u.email, u.phone, u.status, (u.totp_enabled_at IS NOT NULL) AS two_factor,
  (SELECT max(s.created_at) FROM user_session s WHERE s.user_id = u.id) AS last_login_at, u.created_at,
  u.access_ends_on::text AS access_ends_on`;

export interface TeamListFilter {
  scope: string[];
  merId?: string;
  status?: string;
  text?: string;
}

function where(f: TeamListFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.scope];
  const conds = ['u.removed_at IS NULL', 'u.mer_id = ANY($1::text[])'];
  if (f.merId) {
    params.push(f.merId);
    conds.push(`(u.mer_id = $${params.length} OR EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id = $${params.length}))`);
  }
  if (f.status) {
    params.push(f.status);
    conds.push(`u.status = $${params.length}`);
  }
  if (f.text) {
    params.push(`%${f.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conds.push(`(lower(u.username) LIKE $${params.length} OR lower(u.email) LIKE $${params.length})`);
  }
  return { sql: conds.join(' AND '), params };
}

export async function listUsers(q: Queryable, f: TeamListFilter, page: number, size: number): Promise<{ rows: TeamUserDbRow[]; total: number }> {
  const w = where(f);
  const total = (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_user u WHERE ${w.sql}`, w.params)).rows[0].n;
  const { rows } = await q.query<TeamUserDbRow>(
    `SELECT ${COLUMNS} FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id
      WHERE ${w.sql} ORDER BY u.created_at DESC, u.id DESC LIMIT ${size} OFFSET ${page * size}`,
    w.params,
  );
  return { rows, total };
}

/** One user in `scope` that is not removed; `lock` takes its row lock (status changes). */
export async function findUser(q: Queryable, id: number, scope: string[], lock = false): Promise<TeamUserDbRow | undefined> {
  if (lock) await q.query('SELECT 1 FROM app_user WHERE id = $1 FOR UPDATE', [id]);
  const { rows } = await q.query<TeamUserDbRow>(
    `SELECT ${COLUMNS} FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id
      WHERE u.id = $1 AND u.removed_at IS NULL AND u.mer_id = ANY($2::text[])`,
    [id, scope],
  );
  return rows[0];
}

/**
 * Which of user name, e-mail, phone are taken (case-insensitive; removed users' too: their names
 * stay taken until the retention job frees them).
 */
export async function taken(q: Queryable, v: { userName?: string; email?: string; phone?: string }): Promise<{ userName: boolean; email: boolean; phone: boolean }> {
  const { rows } = await q.query<{ u: boolean; e: boolean; p: boolean }>(
    // a value not asked about is NULL, and `x = NULL` is never true: its EXISTS is false
    `SELECT EXISTS (SELECT 1 FROM app_user WHERE lower(username) = lower($1::text)) AS u,
            EXISTS (SELECT 1 FROM app_user WHERE lower(email) = lower($2::text)) AS e,
            EXISTS (SELECT 1 FROM app_user WHERE phone = $3::text) AS p`,
    [v.userName ?? null, v.email ?? null, v.phone ?? null],
  );
  return { userName: rows[0].u, email: rows[0].e, phone: rows[0].p };
}

export async function insertUser(
  q: Queryable,
  v: {
    username: string;
    passwordHash: string;
    email: string;
    phone: string | null;
    merId: string;
    userType: 'MAIN' | 'SUB';
    userAdmin: boolean;
    role: string;
    roleId?: number | null;
    permissions: string[];
    createdBy: number;
    now: Date;
    lang?: string | null;
    accessEndsOn?: string | null;
  },
): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO app_user (username, password_hash, email, phone, mer_id, user_type, user_admin, status, role, permissions, created_by, created_at, password_changed_at, team_role_id, lang, access_ends_on)
     VALUES ($1,$2,$3,$4,$5,$6,$7,'INACTIVE',$8,$9,$10,$11,$11,$12,$13,$14)
     ON CONFLICT DO NOTHING RETURNING id`,
    [v.username, v.passwordHash, v.email, v.phone, v.merId, v.userType, v.userAdmin, v.role, v.permissions, v.createdBy, v.now, v.roleId ?? null, v.lang ?? null, v.accessEndsOn ?? null],
  );
  return rows[0]?.id ?? null;
}

/** Sets a user's role, permissions, type and home merchant (team edit). */
export async function updateGrants(
  q: Queryable,
  id: number,
  v: { role: string; roleId?: number | null; permissions: string[]; userType: 'MAIN' | 'SUB'; userAdmin: boolean; merId: string },
): Promise<void> {
  await q.query('UPDATE app_user SET role = $2, permissions = $3, user_type = $4, user_admin = $5, mer_id = $6, team_role_id = $7 WHERE id = $1', [
    id,
    v.role,
    v.permissions,
    v.userType,
    v.userAdmin,
    v.merId,
    v.roleId ?? null,
  ]);
}

export async function setScope(q: Queryable, userId: number, merIds: string[]): Promise<void> {
  await q.query('DELETE FROM user_merchant_scope WHERE user_id = $1', [userId]);
  await q.query('INSERT INTO user_merchant_scope (user_id, mer_id) SELECT $1, unnest($2::text[])', [userId, merIds]);
}

/**
 * The other administrators of `merId` that are neither disabled nor removed, their rows locked
 * so two requests cannot each remove "another" administrator and leave none.
 */
export async function otherAdmins(q: Queryable, merId: string, exceptId: number): Promise<number> {
  const { rows } = await q.query<{ id: number; status: string }>(`SELECT id, status FROM app_user WHERE mer_id = $1 AND user_admin AND removed_at IS NULL ORDER BY id FOR UPDATE`, [merId]);
  return rows.filter((r) => r.id !== exceptId && r.status !== 'DISABLED').length;
}
