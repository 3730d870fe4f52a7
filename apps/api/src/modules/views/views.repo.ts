import type { Queryable } from '../../db/db';

export interface ViewRow {
  id: string;
  user_id: number;
  mer_id: string;
  team_id: string;
  screen: string;
  name: string;
  query: string;
  shared: boolean;
  owner_name: string;
  is_default: boolean;
  updated_at: Date;
}

/** The team a user's shared views reach: the root of its merchant (the group, or itself). */
export async function teamOf(q: Queryable, merId: string): Promise<string> {
  const { rows } = await q.query<{ team: string }>('SELECT COALESCE(parent_id, mer_id) AS team FROM merchant WHERE mer_id = $1', [merId]);
  return rows[0]?.team ?? merId;
}

const SELECT = `SELECT v.id::text AS id, v.user_id, v.mer_id, v.team_id, v.screen, v.name, v.query, v.shared, v.updated_at,
       u.username AS owner_name, (d.view_id IS NOT NULL) AS is_default
  FROM saved_view v JOIN app_user u ON u.id = v.user_id
  LEFT JOIN saved_view_default d ON d.user_id = $1 AND d.screen = v.screen AND d.view_id = v.id`;
/** Visible to user $1 of team $2: its own, or shared within its team. */
const VISIBLE = `(v.user_id = $1 OR (v.shared AND v.team_id = $2))`;

export async function listViews(q: Queryable, userId: number, team: string, screen: string): Promise<ViewRow[]> {
  const { rows } = await q.query<ViewRow>(`${SELECT} WHERE v.screen = $3 AND ${VISIBLE} ORDER BY (v.user_id = $1) DESC, lower(v.name), v.id`, [userId, team, screen]);
  return rows;
}

export async function visibleView(q: Queryable, userId: number, team: string, id: number): Promise<ViewRow | undefined> {
  const { rows } = await q.query<ViewRow>(`${SELECT} WHERE v.id = $3 AND ${VISIBLE}`, [userId, team, id]);
  return rows[0];
}

export async function countViews(q: Queryable, userId: number, screen: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM saved_view WHERE user_id = $1 AND screen = $2', [userId, screen]);
  return rows[0].n;
}

export async function nameTaken(q: Queryable, userId: number, screen: string, name: string, exceptId = 0): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM saved_view WHERE user_id = $1 AND screen = $2 AND lower(name) = lower($3) AND id <> $4', [userId, screen, name, exceptId]);
  return rows.length > 0;
}

export async function insertView(q: Queryable, v: { userId: number; merId: string; team: string; screen: string; name: string; query: string; shared: boolean }): Promise<number> {
  const { rows } = await q.query<{ id: string }>(`INSERT INTO saved_view (user_id, mer_id, team_id, screen, name, query, shared) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id`, [
    v.userId,
    v.merId,
    v.team,
    v.screen,
    v.name,
    v.query,
    v.shared,
  ]);
  return Number(rows[0].id);
}

export async function updateView(q: Queryable, id: number, v: { name: string; query: string; shared: boolean }): Promise<void> {
  await q.query('UPDATE saved_view SET name = $2, query = $3, shared = $4, updated_at = now() WHERE id = $1', [id, v.name, v.query, v.shared]);
  // A view no longer shared stops being the default of the teammates who had picked it.
  if (!v.shared) await q.query('DELETE FROM saved_view_default d USING saved_view v WHERE d.view_id = v.id AND v.id = $1 AND d.user_id <> v.user_id', [id]);
}

export async function deleteView(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM saved_view WHERE id = $1', [id]);
}

export async function setDefault(q: Queryable, userId: number, screen: string, viewId: number | undefined): Promise<void> {
  if (viewId === undefined) {
    await q.query('DELETE FROM saved_view_default WHERE user_id = $1 AND screen = $2', [userId, screen]);
    return;
  }
  await q.query(
    `INSERT INTO saved_view_default (user_id, screen, view_id) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, screen) DO UPDATE SET view_id = EXCLUDED.view_id`,
    [userId, screen, viewId],
  );
}
