import {
  ADMIN_ONLY_PERMISSIONS,
  ALL_PERMISSIONS,
  Code,
  Perm,
  READ_ONLY_PERMISSIONS,
  rolePermissions,
  type AddUserInput,
  type Language,
  type Role,
  type TeamUserRow,
  type UpdateUserInput,
} from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { formatInZone } from '../../lib/zone';
import { platformDate } from '../../lib/zone';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { checkAccessChange, endUserSessions } from '../user';
import { userLinks } from './team.links';
import { capsLoosened, lockRole } from './roles.service';
import { assertMainUser, type Meta } from './team.rules';
import { effectivePolicy, insertApproval, recordGrant } from './approvals.repo';
import { notifyApprovers } from './approvals.notify';
import { findUser, insertUser, listUsers, otherAdmins, setScope, taken, updateGrants, type TeamListFilter, type TeamUserDbRow } from './team.repo';

/**
 * The rules of user management (issue 12). What holds:
 * - only a main user (`userType` MAIN) manages users; routes also check the permission;
 * - a user outside the caller's merchant scope, or removed, answers 404 as if it did not exist;
 * - a role grants only permissions the caller holds (presets are cut down to them, a custom role
 *   asking for more is refused), and only on merchants in the caller's scope;
 * - nobody disables or removes themselves, nor the last administrator of a merchant;
 * - disabling or removing ends the user's sessions in the same transaction; the auth triggers
 *   announce it to every API process at COMMIT (decision 013);
 * - every change is audited with who, what, target, address and time.
 */

// Who asks and the main-user rule live in team.rules.ts (roles.service uses them: no circle).
export { assertMainUser, type Meta } from './team.rules';

export const TeamAudit = {
  added: 'user.add',
  updated: 'user.update',
  enabled: 'user.enable',
  disabled: 'user.disable',
  removed: 'user.remove',
  resetPassword: 'user.reset_password',
  activationResent: 'user.activation_resent',
  auditExport: 'audit.export',
} as const;

const maskPhone = (p: string | null) => (p ? `${'*'.repeat(Math.max(0, p.replace(/\D/g, '').length - 4))}${p.replace(/\D/g, '').slice(-4)}` : null);

function toTeamRow(r: TeamUserDbRow, tz: string, callerId: number): TeamUserRow {
  return {
    id: r.id,
    userID: r.id,
    userName: r.username,
    userType: r.user_type,
    role: (r.role as TeamUserRow['role']) ?? (r.user_admin ? 'ADMIN' : null),
    roleId: r.role_id,
    roleName: r.role_name,
    merId: r.mer_id,
    merName: r.mer_name,
    merIds: r.mer_ids,
    permissions: r.permissions,
    email: r.email,
    phone: maskPhone(r.phone),
    status: r.status,
    twoFactor: r.two_factor,
    lastLoginTime: r.last_login_at ? formatInZone(r.last_login_at, tz) : null,
    createTime: formatInZone(r.created_at, tz),
    self: r.id === callerId,
    accessEndsOn: r.access_ends_on,
  };
}

export async function teamList(deps: Deps, caller: SessionUser, f: Omit<TeamListFilter, 'scope'>, scope: string[], page: number, size: number) {
  assertMainUser(caller);
  const { rows, total } = await listUsers(deps.db, { ...f, scope }, page, size);
  return { content: rows.map((r) => toTeamRow(r, deps.config.platformTz, caller.id)), totalElements: total };
}

/** A free user name from `base` (letters and digits of it, else the caller's merchant's), with a number. */
export async function generateUserName(deps: Deps, caller: SessionUser, base?: string): Promise<string> {
  assertMainUser(caller);
  let stem = (base ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 20);
  if (stem.length < 3) stem = `${stem}user`;
  const candidates = [stem, ...Array.from({ length: 19 }, () => `${stem}${Math.floor(Math.random() * 9000) + 1000}`)];
  const { rows } = await deps.db.query<{ n: string }>('SELECT lower(username) AS n FROM app_user WHERE lower(username) = ANY($1::text[])', [candidates]);
  const used = new Set(rows.map((r) => r.n));
  const free = candidates.find((c) => !used.has(c));
  if (!free) throw new AppError(Code.CONFLICT, 'noFreeUserName', {}, 200);
  return free;
}

export async function checkUserExist(deps: Deps, caller: SessionUser, v: { userName?: string; email?: string; phone?: string }) {
  assertMainUser(caller);
  const t = await taken(deps.db, v);
  return { ...t, exists: t.userName || t.email || t.phone };
}

const exists = () => new AppError(Code.USER_EXISTS, 'userExists', {}, 200);

/** An access end date (the last day, platform zone) may be today or later, never past (decision 048). */
function assertAccessEnd(deps: Deps, day: string | null | undefined): void {
  if (day && day < platformDate(deps.clock.now(), deps.config.platformTz)) throw new AppError(Code.BAD_REQUEST, 'accessEndPast', {}, 400);
}

/**
 * What a role may grant, for adding and editing alike: merchants within the caller's scope; a
 * preset cut down to the caller's own permissions; a CUSTOM set only of permissions the caller
 * holds and none reserved to administrators.
 */
function grantsOf(caller: SessionUser, input: { merIds: string[]; role: Role; permissions?: string[] }): { merIds: string[]; permissions: string[]; admin: boolean } {
  // A named role (issue 28) is a CUSTOM set kept under a name: the same rules, on its permissions.
  const merIds = [...new Set(input.merIds)].sort();
  if (merIds.some((m) => !caller.scope.includes(m))) throw new AppError(Code.FORBIDDEN, 'merchantNotInScope', {}, 403);
  if (input.role === 'CUSTOM') {
    const asked = input.permissions ?? [];
    if (asked.some((p) => !(ALL_PERMISSIONS as string[]).includes(p))) {
      throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'permissions' }, 400);
    }
    if (asked.some((p) => !caller.permissions.includes(p) || (ADMIN_ONLY_PERMISSIONS as string[]).includes(p))) {
      throw new AppError(Code.GRANT_NOT_HELD, 'grantNotHeld', {}, 403);
    }
  }
  const permissions = rolePermissions(input.role, caller.permissions, input.permissions ?? []);
  if (!permissions.length) throw new AppError(Code.GRANT_NOT_HELD, 'grantNotHeld', {}, 403);
  return { merIds, permissions, admin: input.role === 'ADMIN' };
}

/** Options of a change carried out by its approval (issue 47): the request and who asked it. */
export interface ApprovedBy {
  approvalId?: number;
  requestedBy?: number;
}

/**
 * Issue 47: whether granting `permissions` (or administrator) to a new user is a permission raise —
 * anything beyond the read-only baseline, which includes every grant that could approve a request.
 */
const beyondBaseline = (permissions: readonly string[], admin: boolean) => admin || permissions.some((p) => !(READ_ONLY_PERMISSIONS as string[]).includes(p));

/**
 * Adds a user (status INACTIVE, unusable password) and mails the activation link, all in one
 * transaction: a mail that cannot go leaves no user behind. With the merchant's permission-raise
 * rule on, a user given more than the read-only baseline is a permission raise (issue 47): the add
 * waits in the approvals list and nothing is created — no user, no activation mail — until a
 * second administrator approves it; the approval then adds the user (created by the requester).
 */
export async function addUser(deps: Deps, caller: SessionUser, input: AddUserInput, lang: Language, meta: Meta, opts: ApprovedBy = {}): Promise<TeamUserRow> {
  assertMainUser(caller);
  // A named role's permissions are read (and the role held FOR SHARE) in the transaction below.
  const pre = input.roleId === undefined ? grantsOf(caller, input) : null;
  const merIds = pre?.merIds ?? [...new Set(input.merIds)].sort();
  if (merIds.some((m) => !caller.scope.includes(m))) throw new AppError(Code.FORBIDDEN, 'merchantNotInScope', {}, 403);
  let permissions = pre?.permissions ?? [];
  const admin = input.role === 'ADMIN';
  // Home merchant: the caller's when chosen, else the first chosen; the stored scope rows say the rest.
  const home = merIds.includes(caller.merId) ? caller.merId : merIds[0];
  if (!caller.scope.includes(home)) throw new AppError(Code.FORBIDDEN, 'merchantNotInScope', {}, 403);
  assertAccessEnd(deps, input.accessEndsOn);
  const t = await taken(deps.db, { userName: input.userName, email: input.email, phone: input.phone });
  if (t.userName || t.email || t.phone) throw exists();
  const now = deps.clock.now();
  let approval: number | null = null;
  const id = await deps.db.tx(async (q) => {
    let named: Awaited<ReturnType<typeof lockRole>> | null = null;
    if (input.roleId !== undefined) {
      named = await lockRole(q, caller.scope, input.roleId, 'SHARE');
      permissions = grantsOf(caller, { ...input, permissions: named.permissions }).permissions;
    }
    if (opts.approvalId === undefined && beyondBaseline(permissions, admin) && (await effectivePolicy(q, home))?.permission_raise) {
      approval = await insertApproval(q, {
        merId: home,
        kind: 'permission_raise',
        permission: Perm.merchantUserManage,
        user: caller,
        now,
        ip: meta.ip,
        userAgent: meta.userAgent,
        payload: { add: input, lang },
        summary: { newUser: input.userName, email: input.email, role: named?.name ?? input.role, added: permissions, merIds },
      });
      return null;
    }
    const newId = await insertUser(q, {
      username: input.userName,
      passwordHash: UNUSABLE_PASSWORD,
      email: input.email,
      phone: input.phone ?? null,
      merId: home,
      userType: admin ? 'MAIN' : 'SUB',
      userAdmin: admin,
      role: input.role,
      roleId: input.roleId ?? null,
      permissions,
      createdBy: opts.requestedBy ?? caller.id,
      now,
      lang,
      accessEndsOn: input.accessEndsOn ?? null,
    });
    if (newId === null) throw exists(); // taken meanwhile (a concurrent add): the unique indexes decide
    await setScope(q, newId, merIds);
    // Who created it (and who approved that): for the cool-down, it cannot approve their requests.
    await recordGrant(q, newId, opts.requestedBy ?? caller.id, 'created', now);
    if (opts.requestedBy !== undefined) await recordGrant(q, newId, caller.id, 'approved', now);
    await audit(q, {
      action: TeamAudit.added,
      userId: caller.id,
      username: caller.username,
      merId: home,
      target: input.userName,
      detail: {
        userId: newId,
        role: input.role,
        roleId: input.roleId ?? null,
        permissions,
        merIds,
        accessEndsOn: input.accessEndsOn ?? null,
        ...(opts.approvalId !== undefined ? { approvalId: opts.approvalId } : {}),
      },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await userLinks().sendActivation(deps, q, newId, lang, { ...meta, byUserId: caller.id });
    return newId;
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'addUserNeedsApproval', { id: approval }, 200);
  }
  const row = await findUser(deps.db, id!, caller.scope);
  return toTeamRow(row!, deps.config.platformTz, caller.id);
}

/** The refund caps of a named role (none: no role). */
async function capsOfRole(q: Parameters<typeof findUser>[0], roleId: number | null) {
  if (roleId === null) return {};
  const { rows } = await q.query<{ refund_caps: Parameters<typeof capsLoosened>[0] }>('SELECT refund_caps FROM team_role WHERE id = $1', [roleId]);
  return rows[0]?.refund_caps ?? {};
}

/** Loads a managed user or answers 404; refuses the caller acting on itself. */
async function target(q: Parameters<typeof findUser>[0], caller: SessionUser, userId: number, lock = false) {
  const u = await findUser(q, userId, caller.scope, lock);
  if (!u) throw notFound();
  // Only a user whose whole scope lies within the caller's (issue 28): a sub-merchant's
  // administrator may not act on a user who also reaches a sibling sub-merchant.
  if (!u.mer_ids.every((m) => caller.scope.includes(m))) throw new AppError(Code.FORBIDDEN, 'userBeyondScope', {}, 403);
  return u;
}

/**
 * Loads a managed user under its row lock, with the count of its merchant's other active
 * administrators when it is one (null otherwise). Lock order: the merchant's administrator rows
 * (in id order, `otherAdmins`) before the user's own — the order of every change that can leave a
 * merchant without an administrator, so two such changes at once queue instead of deadlocking.
 */
async function lockTarget(q: Parameters<typeof findUser>[0], caller: SessionUser, userId: number) {
  const seen = await target(q, caller, userId);
  let others = seen.user_admin ? await otherAdmins(q, seen.mer_id, seen.id) : null;
  const u = await target(q, caller, userId, true);
  if (u.user_admin && (!seen.user_admin || u.mer_id !== seen.mer_id)) others = await otherAdmins(q, u.mer_id, u.id);
  return { u, others: u.user_admin ? others : null };
}

/**
 * Edits a user's role, permissions and merchants (issue 28) under the rules of adding. The user's
 * whole current scope must lie within the editor's (one cannot take a user away from a merchant
 * one does not manage); an administrator stays while it is the last one of its merchant. The new
 * grants are read by the user's sessions on their next call: the auth trigger empties every
 * process's session cache at COMMIT (decision 013), so a permission taken away stops at once.
 * Audited with before and after.
 */
export async function updateUser(deps: Deps, caller: SessionUser, input: UpdateUserInput, meta: Meta, opts: ApprovedBy = {}): Promise<TeamUserRow> {
  assertMainUser(caller);
  if (input.roleId === undefined) grantsOf(caller, input); // bad grants refused before any lock
  let approval: number | null = null;
  await deps.db.tx(async (q) => {
    // A named role first (FOR SHARE: the lock order of a role change, role before users), its permissions as they are now.
    const named = input.roleId !== undefined ? await lockRole(q, caller.scope, input.roleId, 'SHARE') : null;
    const { merIds, permissions, admin } = grantsOf(caller, named ? { ...input, permissions: named.permissions } : input);
    const { u, others } = await lockTarget(q, caller, input.userId);
    if (u.id === caller.id) throw new AppError(Code.NOT_ON_SELF, 'notOnSelf', {}, 200);
    if (u.mer_ids.some((m) => !caller.scope.includes(m))) throw notFound();
    const home = merIds.includes(u.mer_id) ? u.mer_id : merIds.includes(caller.merId) ? caller.merId : merIds[0];
    if (u.user_admin && (!admin || home !== u.mer_id) && others === 0) {
      throw new AppError(Code.LAST_ADMIN, 'lastAdmin', {}, 200);
    }
    // Issue 51: nor the last break-glass administrator of a merchant requiring SSO.
    if (u.user_admin && (!admin || home !== u.mer_id)) await checkAccessChange(q, u, 'demote');
    const before = { role: u.role, roleId: u.role_id, permissions: [...u.permissions].sort(), merIds: [...u.mer_ids].sort(), merId: u.mer_id, accessEndsOn: u.access_ends_on };
    const after = { role: input.role, roleId: named?.id ?? null, permissions: [...permissions].sort(), merIds, merId: home, accessEndsOn: input.accessEndsOn ?? null };
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    if (after.accessEndsOn !== before.accessEndsOn) assertAccessEnd(deps, after.accessEndsOn);
    // Four eyes (issue 28): a change that raises the user's permissions (or makes it an
    // administrator) waits for a second administrator when its merchant asks for that.
    const added = permissions.filter((p) => !u.permissions.includes(p));
    // Issue 47: extending (or removing) the access end date of a user beyond the read-only
    // baseline keeps grants that would have ended: a raise like adding them.
    const accessUp = before.accessEndsOn !== null && (after.accessEndsOn === null || after.accessEndsOn > before.accessEndsOn) && beyondBaseline(permissions, admin);
    const raised = added.length > 0 || (admin && !u.user_admin) || accessUp;
    // Issue 47: moving a refunder to a role with higher or no refund caps loosens a control —
    // four eyes whatever the policy, like changing the role's caps.
    const capsUp = permissions.includes(Perm.txnRefund) && u.role_id !== (named?.id ?? null) ? capsLoosened(await capsOfRole(q, u.role_id), named?.refund_caps ?? {}) : [];
    if (opts.approvalId === undefined && ((raised && (await effectivePolicy(q, home))?.permission_raise) || capsUp.length > 0)) {
      approval = await insertApproval(q, {
        merId: home,
        kind: 'permission_raise',
        permission: Perm.merchantUserManage,
        user: caller,
        now: deps.clock.now(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        payload: { user: input },
        summary: {
          userName: u.username,
          role: named?.name ?? input.role,
          added,
          merIds,
          ...(capsUp.length ? { capsLoosened: capsUp } : {}),
          ...(accessUp ? { accessEndsOn: { before: before.accessEndsOn, after: after.accessEndsOn } } : {}),
        },
      });
      return;
    }
    if (raised) {
      await recordGrant(q, u.id, opts.requestedBy ?? caller.id, 'raised', deps.clock.now());
      if (opts.requestedBy !== undefined) await recordGrant(q, u.id, caller.id, 'approved', deps.clock.now());
    }
    await updateGrants(q, u.id, { role: input.role, roleId: named?.id ?? null, permissions, userType: admin ? 'MAIN' : 'SUB', userAdmin: admin, merId: home });
    await q.query('UPDATE app_user SET access_ends_on = $2 WHERE id = $1', [u.id, after.accessEndsOn]);
    await setScope(q, u.id, merIds);
    await audit(q, {
      action: TeamAudit.updated,
      userId: caller.id,
      username: caller.username,
      merId: home,
      target: u.username,
      detail: { userId: u.id, before, after },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'permissionRaiseNeedsApproval', { id: approval }, 200);
  }
  return toTeamRow((await findUser(deps.db, input.userId, caller.scope))!, deps.config.platformTz, caller.id);
}

/**
 * Done in the transaction of a disable or removal (the access review records its decision there,
 * decision 048), with the reason written to the audit entry.
 */
export interface ChangeOptions extends ApprovedBy {
  reason?: string;
  within?: (q: Parameters<typeof findUser>[0], user: { id: number; username: string; mer_id: string }) => Promise<void>;
}

/**
 * Enable or disable. Disabling ends every session of the user at once (every process). Enabling
 * restarts the user's inactivity count and drops an access end date already past (decision 048).
 * Issue 47: re-enabling a user beyond the read-only baseline (an administrator, any grant that
 * could approve, refund or change the bank account) gives its grants back — a permission raise:
 * recorded always, and with the permission-raise rule on it waits for a second administrator
 * (kind permission_raise), carried out by its approval.
 */
export async function updateUserStatus(deps: Deps, caller: SessionUser, userId: number, status: 'ACTIVE' | 'DISABLED', meta: Meta, opts: ChangeOptions = {}): Promise<TeamUserRow> {
  assertMainUser(caller);
  let approval: number | null = null;
  await deps.db.tx(async (q) => {
    const { u, others } = await lockTarget(q, caller, userId);
    if (u.id === caller.id) throw new AppError(Code.NOT_ON_SELF, 'notOnSelf', {}, 200);
    if (status === 'DISABLED') {
      if (u.status === 'DISABLED') return opts.within?.(q, u);
      if (others === 0) throw new AppError(Code.LAST_ADMIN, 'lastAdmin', {}, 200);
      await checkAccessChange(q, u, 'disable');
      await q.query(`UPDATE app_user SET status = 'DISABLED', status_before_disable = status WHERE id = $1`, [u.id]);
      await endUserSessions(q, u.id, 'user-disabled');
    } else {
      if (u.status !== 'DISABLED') return;
      const raise = beyondBaseline(u.permissions, u.user_admin);
      if (raise && opts.approvalId === undefined && (await effectivePolicy(q, u.mer_id))?.permission_raise) {
        approval = await insertApproval(q, {
          merId: u.mer_id,
          kind: 'permission_raise',
          permission: Perm.merchantUserManage,
          user: caller,
          now: deps.clock.now(),
          ip: meta.ip,
          userAgent: meta.userAgent,
          payload: { enable: { userId: u.id } },
          summary: { userName: u.username, enable: true, role: u.role, added: u.permissions, merIds: u.mer_ids },
        });
        return;
      }
      if (raise) {
        await recordGrant(q, u.id, opts.requestedBy ?? caller.id, 'raised', deps.clock.now());
        if (opts.requestedBy !== undefined) await recordGrant(q, u.id, caller.id, 'approved', deps.clock.now());
      }
      await q.query(
        `UPDATE app_user SET status = COALESCE(status_before_disable, 'ACTIVE'), status_before_disable = NULL, failed_logins = 0, locked_until = NULL,
                access_renewed_at = $2, access_ends_on = CASE WHEN access_ends_on < $3::date THEN NULL ELSE access_ends_on END WHERE id = $1`,
        [u.id, deps.clock.now(), platformDate(deps.clock.now(), deps.config.platformTz)],
      );
    }
    await opts.within?.(q, u);
    await audit(q, {
      action: status === 'DISABLED' ? TeamAudit.disabled : TeamAudit.enabled,
      userId: caller.id,
      username: caller.username,
      merId: u.mer_id,
      target: u.username,
      detail: { userId: u.id, ...(opts.reason ? { reason: opts.reason } : {}), ...(opts.approvalId !== undefined ? { approvalId: opts.approvalId } : {}) },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'enableUserNeedsApproval', { id: approval }, 200);
  }
  return toTeamRow((await findUser(deps.db, userId, caller.scope))!, deps.config.platformTz, caller.id);
}

/** Soft delete: the row and its audit trail stay, the name stays taken for 12 months, sessions end. */
export async function removeUser(deps: Deps, caller: SessionUser, userId: number, meta: Meta, opts: ChangeOptions = {}): Promise<void> {
  assertMainUser(caller);
  await deps.db.tx(async (q) => {
    const { u, others } = await lockTarget(q, caller, userId);
    if (u.id === caller.id) throw new AppError(Code.NOT_ON_SELF, 'notOnSelf', {}, 200);
    if (others === 0) throw new AppError(Code.LAST_ADMIN, 'lastAdmin', {}, 200);
    await checkAccessChange(q, u, 'remove');
    await opts.within?.(q, u);
    await q.query(`UPDATE app_user SET removed_at = $2, status = 'DISABLED', status_before_disable = NULL WHERE id = $1`, [u.id, deps.clock.now()]);
    await endUserSessions(q, u.id, 'user-removed');
    await audit(q, {
      action: TeamAudit.removed,
      userId: caller.id,
      username: caller.username,
      merId: u.mer_id,
      target: u.username,
      detail: { userId: u.id, ...(opts.reason ? { reason: opts.reason } : {}) },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
}

/**
 * Mails the user a password-reset link (30 min); a user that never activated gets a new
 * activation link instead. The main user never sees a password.
 */
export async function resetPassword(deps: Deps, caller: SessionUser, userId: number, lang: Language, meta: Meta): Promise<{ sent: 'reset' | 'activation' }> {
  assertMainUser(caller);
  return deps.db.tx(async (q) => {
    const u = await target(q, caller, userId);
    if (u.status === 'DISABLED') throw new AppError(Code.BAD_REQUEST, 'userDisabledNoReset', {}, 200);
    const activation = u.status === 'INACTIVE';
    await audit(q, {
      action: activation ? TeamAudit.activationResent : TeamAudit.resetPassword,
      userId: caller.id,
      username: caller.username,
      merId: u.mer_id,
      target: u.username,
      detail: { userId: u.id },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    if (activation) await userLinks().sendActivation(deps, q, u.id, lang, { ...meta, byUserId: caller.id });
    else await userLinks().sendPasswordReset(deps, q, u.id, lang, { ...meta, byUserId: caller.id });
    return { sent: activation ? ('activation' as const) : ('reset' as const) };
  });
}
