import { Code, VIEW_SCREENS, VIEWS_PER_SCREEN, viewQueryProblem, type SavedView, type ViewBody, type ViewScreenKey, type ViewUpdate } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, forbidden, notFound } from '../../lib/errors';
import type { Queryable } from '../../db/db';
import * as repo from './views.repo';

/**
 * Saved views (issue 13, decision 022). What holds:
 * - a view is read only by its owner, or — when shared — by users of the owner's team (same root
 *   merchant: the group or the independent merchant), and only by users holding its screen's
 *   permission; anything else answers 404 as if absent (403 for a missing permission);
 * - only the owner changes, shares, unshares or deletes it;
 * - its query string is a plain query string of the screen's own keys (viewQueryProblem).
 */
const screenOf = (key: string) => VIEW_SCREENS[key as ViewScreenKey];

function assertScreen(user: SessionUser, screen: string) {
  const s = screenOf(screen);
  if (!s) throw notFound();
  if (!user.permissions.includes(s.permission)) throw forbidden();
}

function assertQuery(screen: ViewScreenKey, query: string) {
  const problem = viewQueryProblem(screen, query);
  if (problem) throw new AppError(Code.BAD_REQUEST, 'viewQueryInvalid', { detail: problem }, 400);
}

const toView = (r: repo.ViewRow, userId: number): SavedView => ({
  id: Number(r.id),
  screen: r.screen,
  name: r.name,
  query: r.query,
  shared: r.shared,
  mine: r.user_id === userId,
  ownerName: r.owner_name,
  isDefault: r.is_default,
  updatedAt: new Date(r.updated_at).toISOString(),
});

export async function listViews(deps: Deps, user: SessionUser, screen: ViewScreenKey) {
  assertScreen(user, screen);
  const rows = await repo.listViews(deps.db, user.id, await repo.teamOf(deps.db, user.merId), screen);
  return { content: rows.map((r) => toView(r, user.id)), totalElements: rows.length };
}

async function visible(q: Queryable, user: SessionUser, id: number): Promise<repo.ViewRow> {
  const row = await repo.visibleView(q, user.id, await repo.teamOf(q, user.merId), id);
  if (!row) throw notFound();
  assertScreen(user, row.screen);
  return row;
}

async function owned(q: Queryable, user: SessionUser, id: number): Promise<repo.ViewRow> {
  const row = await visible(q, user, id);
  if (row.user_id !== user.id) throw new AppError(Code.FORBIDDEN, 'viewNotOwner', {}, 403);
  return row;
}

export async function getView(deps: Deps, user: SessionUser, id: number): Promise<SavedView> {
  return toView(await visible(deps.db, user, id), user.id);
}

async function assertName(q: Queryable, user: SessionUser, screen: string, name: string, exceptId = 0) {
  if (await repo.nameTaken(q, user.id, screen, name, exceptId)) throw new AppError(Code.CONFLICT, 'viewNameTaken');
}

export async function createView(deps: Deps, user: SessionUser, body: ViewBody): Promise<SavedView> {
  assertScreen(user, body.screen);
  assertQuery(body.screen, body.query);
  return deps.db.tx(async (q) => {
    // One user's saves one at a time: the count and name checks below hold until commit.
    if (deps.db.kind === 'postgres') await q.query('SELECT pg_advisory_xact_lock(7272015, $1)', [user.id]);
    if ((await repo.countViews(q, user.id, body.screen)) >= VIEWS_PER_SCREEN) throw new AppError(Code.CONFLICT, 'viewLimit', { max: VIEWS_PER_SCREEN });
    await assertName(q, user, body.screen, body.name);
    const id = await repo.insertView(q, { userId: user.id, merId: user.merId, team: await repo.teamOf(q, user.merId), screen: body.screen, name: body.name, query: body.query, shared: body.shared });
    return toView((await repo.visibleView(q, user.id, '', id))!, user.id);
  });
}

export async function updateView(deps: Deps, user: SessionUser, id: number, body: ViewUpdate): Promise<SavedView> {
  return deps.db.tx(async (q) => {
    const row = await owned(q, user, id);
    const next = { name: body.name ?? row.name, query: body.query ?? row.query, shared: body.shared ?? row.shared };
    assertQuery(row.screen as ViewScreenKey, next.query);
    if (body.name !== undefined) await assertName(q, user, row.screen, next.name, id);
    await repo.updateView(q, id, next);
    return toView((await repo.visibleView(q, user.id, '', id))!, user.id);
  });
}

export async function removeView(deps: Deps, user: SessionUser, id: number): Promise<void> {
  await deps.db.tx(async (q) => {
    await owned(q, user, id);
    await repo.deleteView(q, id);
  });
}

/** Sets (a view visible to the caller, of that screen) or clears the caller's default of a screen. */
export async function setDefaultView(deps: Deps, user: SessionUser, screen: ViewScreenKey, viewId?: number): Promise<void> {
  assertScreen(user, screen);
  if (viewId !== undefined) {
    const row = await visible(deps.db, user, viewId);
    if (row.screen !== screen) throw notFound();
  }
  await repo.setDefault(deps.db, user.id, screen, viewId);
}
