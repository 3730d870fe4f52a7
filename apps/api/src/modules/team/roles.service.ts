import { ADMIN_ONLY_PERMISSIONS, ALL_PERMISSIONS, Code, Perm, REFUND_CAP_RE, toDecimal, toMinor, type RoleSaveInput, type TeamRoleRow } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { formatInZone } from '../../lib/zone';
import { assertMainUser, type Meta } from './team.rules';
import { effectivePolicy, insertApproval, recordGrant } from './approvals.repo';
import { notifyApprovers } from './approvals.notify';

/**
 * Named custom roles (issue 28, decision 041). What holds:
 * - a role belongs to a merchant (its creator's home merchant) and is seen, assigned and changed by
 *   main users whose scope holds that merchant; others' roles answer 404;
 * - its permissions follow the grant rules of adding a user: known codes, none reserved to
 *   administrators, each held by the one saving it;
 * - changing a role rewrites the permissions of every user holding it in the same transaction
 *   (the app_user trigger announces it to every process at COMMIT, decision 013), and is refused
 *   when one of them reaches a merchant outside the editor's scope;
 * - lock order: the role row, then users' rows (assigning a role takes the role row FOR SHARE
 *   before the user's), so a role change and an assignment at once queue;
 * - a role held by users cannot be removed; every change is audited with before and after.
 */

const RoleAudit = { added: 'role.add', updated: 'role.update', removed: 'role.remove' } as const;

export type Caps = Record<string, { perRefund: number | null; perDay: number | null }>;

/**
 * The currencies whose refund cap `after` raises or removes against `before` (issue 47): a cap
 * gone, or a per-refund / per-day amount higher or no longer set. A new cap is a tightening.
 */
export function capsLoosened(before: Caps | null | undefined, after: Caps | null | undefined): string[] {
  const a = after ?? {};
  return Object.entries(before ?? {})
    .filter(([cur, b]) => {
      const n = a[cur];
      if (!n) return true;
      const looser = (was: number | null, now: number | null) => was !== null && (now === null || now > was);
      return looser(b.perRefund, n.perRefund) || looser(b.perDay, n.perDay);
    })
    .map(([cur]) => cur);
}

interface RoleDbRow {
  id: number;
  mer_id: string;
  name: string;
  description: string;
  permissions: string[];
  refund_caps: Caps;
  users: number;
  updated_at: Date;
}

const USERS = `(SELECT count(*)::int FROM app_user u WHERE u.team_role_id = r.id AND u.removed_at IS NULL)`;

const toRow = (r: RoleDbRow, tz: string): TeamRoleRow => ({
  id: r.id,
  merId: r.mer_id,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  refundCaps: capsOut(r.refund_caps),
  users: r.users,
  updateTime: formatInZone(r.updated_at, tz),
});

const capsOut = (c: Caps) =>
  Object.fromEntries(
    Object.entries(c ?? {}).map(([cur, v]) => [cur, { perRefund: v.perRefund === null ? null : toDecimal(v.perRefund, cur), perDay: v.perDay === null ? null : toDecimal(v.perDay, cur) }]),
  );

/** "CUR:perRefund:perDay" entries → minor units by currency; a currency's decimals enforced, each currency once. */
function parseRefundCaps(list: readonly string[]): Caps {
  const out: Caps = {};
  const minor = (v: string | undefined, cur: string) => {
    if (!v) return null;
    try {
      return toMinor(v, cur);
    } catch {
      throw new AppError(Code.BAD_REQUEST, 'roleBadCap', {}, 400);
    }
  };
  for (const s of list) {
    const m = REFUND_CAP_RE.exec(s)!;
    if (m[1] in out) throw new AppError(Code.BAD_REQUEST, 'roleBadCap', {}, 400);
    out[m[1]] = { perRefund: minor(m[2], m[1]), perDay: minor(m[3], m[1]) };
  }
  return out;
}

/** The permission codes a role may hold when saved by `caller`, in the contract's order; else refused. */
function rolePermissionsOf(caller: SessionUser, asked: readonly string[]): string[] {
  if (asked.some((p) => !(ALL_PERMISSIONS as string[]).includes(p))) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'permissions' }, 400);
  if (asked.some((p) => !caller.permissions.includes(p) || (ADMIN_ONLY_PERMISSIONS as string[]).includes(p))) {
    throw new AppError(Code.GRANT_NOT_HELD, 'grantNotHeld', {}, 403);
  }
  const perms = (ALL_PERMISSIONS as string[]).filter((p) => asked.includes(p));
  if (!perms.length) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'permissions' }, 400);
  return perms;
}

/** A live role in `scope`, locked FOR SHARE (assigning it) or FOR UPDATE (changing it); else 404. */
export async function lockRole(
  q: Queryable,
  scope: string[],
  roleId: number,
  mode: 'SHARE' | 'UPDATE',
): Promise<{ id: number; mer_id: string; name: string; description: string; permissions: string[]; refund_caps: Caps }> {
  const { rows } = await q.query<{ id: number; mer_id: string; name: string; description: string; permissions: string[]; refund_caps: Caps }>(
    `SELECT id, mer_id, name, description, permissions, refund_caps FROM team_role
      WHERE id = $1 AND mer_id = ANY($2::text[]) AND removed_at IS NULL FOR ${mode === 'SHARE' ? 'SHARE' : 'UPDATE'}`,
    [roleId, scope],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

export async function listRoles(deps: Deps, caller: SessionUser): Promise<TeamRoleRow[]> {
  assertMainUser(caller);
  const { rows } = await deps.db.query<RoleDbRow>(
    `SELECT r.id, r.mer_id, r.name, r.description, r.permissions, r.refund_caps, ${USERS} AS users, r.updated_at
       FROM team_role r WHERE r.mer_id = ANY($1::text[]) AND r.removed_at IS NULL ORDER BY lower(r.name), r.id`,
    [caller.scope],
  );
  return rows.map((r) => toRow(r, deps.config.platformTz));
}

const nameTaken = () => new AppError(Code.ROLE_NAME_TAKEN, 'roleNameTaken', {}, 200);
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

async function findRole(deps: Deps, id: number): Promise<TeamRoleRow> {
  const { rows } = await deps.db.query<RoleDbRow>(`SELECT r.id, r.mer_id, r.name, r.description, r.permissions, r.refund_caps, ${USERS} AS users, r.updated_at FROM team_role r WHERE r.id = $1`, [id]);
  return toRow(rows[0], deps.config.platformTz);
}

/**
 * Adds a role (no roleId) or changes one. A change rewrites the permissions of all its users at
 * once; refused when one of them reaches a merchant outside the editor's scope.
 */
export async function saveRole(deps: Deps, caller: SessionUser, input: RoleSaveInput, meta: Meta, opts: { approvalId?: number; requestedBy?: number } = {}): Promise<TeamRoleRow> {
  assertMainUser(caller);
  const permissions = rolePermissionsOf(caller, input.permissions);
  const caps = parseRefundCaps(input.refundCaps);
  const now = deps.clock.now();
  let id: number;
  let approval: number | null = null;
  try {
    id = await deps.db.tx(async (q) => {
      if (input.roleId === undefined) {
        const { rows } = await q.query<{ id: number }>(
          `INSERT INTO team_role (mer_id, name, description, permissions, created_by, created_at, updated_at, refund_caps)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
          [caller.merId, input.name, input.description, permissions, caller.id, now, JSON.stringify(caps)],
        );
        if (!rows[0]) throw nameTaken();
        await audit(q, {
          action: RoleAudit.added,
          userId: caller.id,
          username: caller.username,
          merId: caller.merId,
          target: input.name,
          detail: { roleId: rows[0].id, name: input.name, description: input.description, permissions, refundCaps: capsOut(caps) },
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        return rows[0].id;
      }
      const role = await lockRole(q, caller.scope, input.roleId, 'UPDATE');
      const holders = await q.query<{ id: number; username: string; outside: boolean }>(
        `SELECT u.id, u.username,
                (u.mer_id <> ALL($2::text[]) OR EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id <> ALL($2::text[]))) AS outside
           FROM app_user u WHERE u.team_role_id = $1 AND u.removed_at IS NULL ORDER BY u.id FOR UPDATE`,
        [role.id, caller.scope],
      );
      if (holders.rows.some((h) => h.outside)) throw new AppError(Code.FORBIDDEN, 'roleBeyondScope', {}, 403);
      const clash = await q.query('SELECT 1 FROM team_role WHERE mer_id = $1 AND lower(name) = lower($2) AND id <> $3 AND removed_at IS NULL', [role.mer_id, input.name, role.id]);
      if (clash.rows.length) throw nameTaken();
      const before = { name: role.name, description: role.description, permissions: role.permissions, refundCaps: capsOut(role.refund_caps) };
      const after = { name: input.name, description: input.description, permissions, refundCaps: capsOut(caps) };
      if (JSON.stringify(before) === JSON.stringify(after)) return role.id;
      // Four eyes (issue 28): a change giving its holders more waits for a second administrator;
      // so does one raising or removing their refund caps, whatever the policy (issue 47: a
      // control is only loosened under four eyes).
      const added = permissions.filter((p) => !role.permissions.includes(p));
      const capsUp = permissions.includes(Perm.txnRefund) ? capsLoosened(role.refund_caps, caps) : [];
      const raise = added.length > 0 && (await effectivePolicy(q, role.mer_id))?.permission_raise;
      if (opts.approvalId === undefined && holders.rows.length > 0 && (raise || capsUp.length > 0)) {
        approval = await insertApproval(q, {
          merId: role.mer_id,
          kind: 'permission_raise',
          permission: Perm.merchantUserManage,
          user: caller,
          now,
          ip: meta.ip,
          userAgent: meta.userAgent,
          payload: { role: { ...input, roleId: role.id } },
          summary: { role: role.name, added, ...(capsUp.length ? { capsLoosened: capsUp } : {}), users: holders.rows.map((h) => h.username) },
        });
        return role.id;
      }
      if (added.length > 0) {
        for (const h of holders.rows) {
          await recordGrant(q, h.id, opts.requestedBy ?? caller.id, 'raised', now);
          if (opts.requestedBy !== undefined) await recordGrant(q, h.id, caller.id, 'approved', now);
        }
      }
      await q.query('UPDATE team_role SET name = $2, description = $3, permissions = $4, updated_at = $5, refund_caps = $6 WHERE id = $1', [
        role.id,
        input.name,
        input.description,
        permissions,
        now,
        JSON.stringify(caps),
      ]);
      await q.query('UPDATE app_user SET permissions = $2 WHERE team_role_id = $1 AND removed_at IS NULL', [role.id, permissions]);
      await audit(q, {
        action: RoleAudit.updated,
        userId: caller.id,
        username: caller.username,
        merId: role.mer_id,
        target: input.name,
        detail: { roleId: role.id, before, after, users: holders.rows.map((h) => h.username) },
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      return role.id;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(); // two saves of one name at once: the unique index decides
    throw e;
  }
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'permissionRaiseNeedsApproval', { id: approval }, 200);
  }
  return findRole(deps, id);
}

/** Removes a role no user holds (kept for the audit trail, its name freed). */
export async function removeRole(deps: Deps, caller: SessionUser, roleId: number, meta: Meta): Promise<void> {
  assertMainUser(caller);
  await deps.db.tx(async (q) => {
    const role = await lockRole(q, caller.scope, roleId, 'UPDATE');
    const n = (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user WHERE team_role_id = $1 AND removed_at IS NULL', [role.id])).rows[0].n;
    if (n > 0) throw new AppError(Code.ROLE_IN_USE, 'roleInUse', { count: n }, 200);
    await q.query('UPDATE team_role SET removed_at = $2 WHERE id = $1', [role.id, deps.clock.now()]);
    await audit(q, {
      action: RoleAudit.removed,
      userId: caller.id,
      username: caller.username,
      merId: role.mer_id,
      target: role.name,
      detail: { roleId: role.id, name: role.name, permissions: role.permissions },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
}
