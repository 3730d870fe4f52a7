import {
  APPROVER_COOLDOWN_DAYS_DEFAULT,
  Code,
  Perm,
  parseCurrencyLimit,
  toDecimal,
  toMinor,
  type ApprovalRow,
  type FourEyesPolicy,
  type FourEyesPolicyInput,
  type AccessPolicyInput,
  type AddUserInput,
  type ApprovalGrant,
  type Language,
  type RoleSaveInput,
  type UpdateUserInput,
} from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { formatInZone } from '../../lib/zone';
import { hasStepUp } from '../user';
import type { Queryable } from '../../db/db';
import { ApprovalAudit, effectivePolicy, grantsOf, insertApproval, loosenedRules, policyRows, stricter, type PolicyRow } from './approvals.repo';
import { approvalChangeOf, approvalKind, closers } from './approvals.kinds';
import { notifyApprovers, notifyRequesterOfRejection } from './approvals.notify';
import { addUser, assertMainUser, updateUser, updateUserStatus, type Meta } from './team.service';
import { saveAccessPolicy } from './access.service';
import { saveRole } from './roles.service';

/**
 * Four eyes (issue 28, decision 041). What holds:
 * - a merchant's administrators set its policy (refund limits per currency, permission raises,
 *   expiry); a sub-merchant without its own follows its group's;
 * - a request is decided by a user who reaches its merchant, holds its permission and is not its
 *   requester; deciding takes the request's row lock and moves it from PENDING once — a second
 *   decision at once waits, then finds it decided (exactly one execution);
 * - a request past its expiry is marked EXPIRED when touched and cannot be approved;
 * - the approved action runs through its own service as the approver (a refund: the refund service,
 *   with the approver's step-up and scope, request key `approval-<id>` so it never runs twice);
 * - every request, decision and policy change is audited.
 */

type PolicyCore = Omit<FourEyesPolicy, 'groupFloor' | 'merId'>;

function coreOut(p: PolicyRow | null): PolicyCore {
  const limits: Record<string, string> = {};
  for (const [c, v] of Object.entries(p?.refund_limits ?? {})) limits[c] = toDecimal(v, c);
  return {
    refundLimits: limits,
    permissionRaise: p?.permission_raise ?? false,
    bankChange: p?.bank_change ?? false,
    expiryHours: p?.expiry_hours ?? 48,
    approverCooldownDays: p?.approver_cooldown_days ?? APPROVER_COOLDOWN_DAYS_DEFAULT,
  };
}

function policyOut(merId: string, p: PolicyRow | null, group: PolicyRow | null = null): FourEyesPolicy {
  return { merId, ...coreOut(p), groupFloor: group ? coreOut(group) : null };
}

async function readPolicy(q: Queryable, merId: string): Promise<FourEyesPolicy> {
  const { own, group } = await policyRows(q, merId);
  return policyOut(merId, stricter(group, own, merId), group);
}

export async function getPolicy(deps: Deps, caller: SessionUser, merId = caller.merId): Promise<FourEyesPolicy> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  return readPolicy(deps.db, merId);
}

/**
 * Sets a merchant's policy. Issue 47: a sub-merchant's row only tightens its group's (asking for
 * less than the group's floor is refused), and a change that loosens any rule of the merchant's
 * effective policy waits for a second administrator (kind policy_change), carried out by its
 * approval; tightening applies at once.
 */
export async function savePolicy(deps: Deps, caller: SessionUser, input: FourEyesPolicyInput, meta: Meta, opts: { approvalId?: number } = {}): Promise<FourEyesPolicy> {
  assertMainUser(caller);
  if (!caller.scope.includes(input.merId)) throw notFound();
  const limits: Record<string, number> = {};
  for (const s of input.refundLimits) {
    const { currency, amount } = parseCurrencyLimit(s);
    let minor: number;
    try {
      minor = toMinor(amount, currency);
    } catch {
      throw new AppError(Code.BAD_REQUEST, 'approvalBadLimit', {}, 400);
    }
    if (currency in limits) throw new AppError(Code.BAD_REQUEST, 'approvalBadLimit', {}, 400);
    limits[currency] = minor;
  }
  let approval: number | null = null;
  await deps.db.tx(async (q) => {
    // One policy change of a merchant at a time: the merchant row's lock orders them.
    await q.query('SELECT 1 FROM merchant WHERE mer_id = $1 FOR UPDATE', [input.merId]);
    const { own, group } = await policyRows(q, input.merId);
    const current = stricter(group, own, input.merId);
    const asked: PolicyRow = {
      mer_id: input.merId,
      refund_limits: limits,
      permission_raise: input.permissionRaise,
      bank_change: input.bankChange,
      expiry_hours: input.expiryHours,
      approver_cooldown_days: input.approverCooldownDays ?? current?.approver_cooldown_days ?? APPROVER_COOLDOWN_DAYS_DEFAULT,
    };
    // The group's policy is a floor: a sub-merchant asking for less than it is told so.
    const below = group ? loosenedRules(group, asked) : [];
    if (below.length) throw new AppError(Code.BAD_REQUEST, 'policyBelowGroup', { rules: below.join(', ') }, 400);
    if (own && JSON.stringify(coreOut(own)) === JSON.stringify(coreOut(asked))) return;
    const before = policyOut(input.merId, current);
    const after = policyOut(input.merId, stricter(group, asked, input.merId));
    const loosened = loosenedRules(current, stricter(group, asked, input.merId));
    if (opts.approvalId === undefined && loosened.length > 0) {
      approval = await insertApproval(q, {
        merId: input.merId,
        kind: 'policy_change',
        permission: Perm.merchantUserManage,
        user: caller,
        now: deps.clock.now(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        payload: { policy: { ...input, approverCooldownDays: asked.approver_cooldown_days } },
        summary: { policy: 'fourEyes', merId: input.merId, loosened, before: describePolicy(before), after: describePolicy(after) },
      });
      return;
    }
    await q.query(
      `INSERT INTO four_eyes_policy (mer_id, refund_limits, permission_raise, bank_change, expiry_hours, updated_by, updated_at, approver_cooldown_days) VALUES ($1, $2, $3, $7, $4, $5, $6, $8)
       ON CONFLICT (mer_id) DO UPDATE SET refund_limits = EXCLUDED.refund_limits, permission_raise = EXCLUDED.permission_raise, bank_change = EXCLUDED.bank_change,
         expiry_hours = EXCLUDED.expiry_hours, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at, approver_cooldown_days = EXCLUDED.approver_cooldown_days`,
      [input.merId, JSON.stringify(limits), input.permissionRaise, input.expiryHours, caller.id, deps.clock.now(), input.bankChange, asked.approver_cooldown_days],
    );
    await audit(q, {
      action: ApprovalAudit.policy,
      userId: caller.id,
      username: caller.username,
      merId: input.merId,
      target: input.merId,
      detail: { before, after, ...(opts.approvalId !== undefined ? { approvalId: opts.approvalId } : {}) },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'policyLoosenNeedsApproval', { id: approval }, 200);
  }
  return getPolicy(deps, caller, input.merId);
}

/** A policy as one line per rule, for the approvals list and the approvers' e-mail. */
function describePolicy(p: FourEyesPolicy): string {
  const limits =
    Object.entries(p.refundLimits)
      .map(([c, v]) => `${c} ${v}`)
      .join(' / ') || '-';
  return `refundLimits ${limits}; permissionRaise ${p.permissionRaise}; bankChange ${p.bankChange}; expiryHours ${p.expiryHours}; approverCooldownDays ${p.approverCooldownDays}`;
}

interface ApprovalDbRow {
  id: number;
  mer_id: string;
  kind: 'refund' | 'permission_raise' | 'bank_change' | 'policy_change';
  permission: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';
  payload: Record<string, unknown>;
  summary: Record<string, unknown>;
  requested_by: number;
  requester: string;
  requested_at: Date;
  decided_by: number | null;
  expires_at: Date;
  decider: string | null;
  decided_at: Date | null;
  result: Record<string, unknown> | null;
}

const SELECT = `SELECT r.id, r.mer_id, r.kind, r.permission, r.status, r.payload, r.summary, r.requested_by, ru.username AS requester,
  r.requested_at, r.expires_at, r.decided_by, du.username AS decider, r.decided_at, r.result
  FROM approval_request r JOIN app_user ru ON ru.id = r.requested_by LEFT JOIN app_user du ON du.id = r.decided_by`;

const DAY_MS = 86_400_000;

/**
 * Issue 47: why `approverId` may not approve a request of `requesterId` — the approver's own
 * creation or raise (within the cool-down of the request's merchant) through which the requester
 * created, raised or approved it, directly or along a chain of such grants (A adds C, C adds D: D
 * cannot approve A's requests either); null when there is none and it may approve.
 */
async function blockingGrant(q: Queryable, approverId: number, requesterId: number, merId: string, now: Date) {
  const days = (await effectivePolicy(q, merId))?.approver_cooldown_days ?? APPROVER_COOLDOWN_DAYS_DEFAULT;
  if (days <= 0) return null;
  const since = new Date(now.getTime() - days * DAY_MS);
  const { rows } = await q.query<{ first_id: number }>(
    `WITH RECURSIVE chain (user_id, first_id) AS (
       SELECT g.granted_by, g.id FROM user_grant_origin g WHERE g.user_id = $1 AND g.granted_at > $3
       UNION
       SELECT g.granted_by, c.first_id FROM chain c JOIN user_grant_origin g ON g.user_id = c.user_id WHERE g.granted_at > $3
     )
     SELECT first_id FROM chain WHERE user_id = $2 ORDER BY first_id DESC LIMIT 1`,
    [approverId, requesterId, since],
  );
  if (!rows[0]) return null;
  return (await grantsOf(q, approverId, since)).find((g) => g.id === rows[0].first_id) ?? null;
}

const grantOut = (g: { by: string; how: ApprovalGrant['how']; granted_at: Date }, tz: string): ApprovalGrant => ({ by: g.by, how: g.how, time: formatInZone(g.granted_at, tz) });

/** Who created or raised the user that decided a request (its latest five). */
async function deciderGrants(q: Queryable, deciderId: number | null, tz: string): Promise<ApprovalGrant[]> {
  if (deciderId === null) return [];
  return (await grantsOf(q, deciderId)).slice(0, 5).map((g) => grantOut(g, tz));
}

/** The caller's view: requests of its scope it could decide (holds the permission) or asked itself. */
export async function listApprovals(deps: Deps, caller: SessionUser, f: { status?: string }, page: number, size: number): Promise<{ content: ApprovalRow[]; totalElements: number }> {
  const now = deps.clock.now();
  // Requests past their time are marked as what they are before anyone reads them.
  await expireDue(deps, caller.scope);
  const params: unknown[] = [caller.scope, caller.permissions, caller.id];
  let where = `r.mer_id = ANY($1::text[]) AND (r.permission = ANY($2::text[]) OR r.requested_by = $3)`;
  if (f.status) {
    params.push(f.status);
    where += ` AND r.status = $${params.length}`;
  }
  const total = (await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM approval_request r WHERE ${where}`, params)).rows[0].n;
  const { rows } = await deps.db.query<ApprovalDbRow>(`${SELECT} WHERE ${where} ORDER BY r.requested_at DESC, r.id DESC LIMIT ${size} OFFSET ${page * size}`, params);
  const tz = deps.config.platformTz;
  const content: ApprovalRow[] = [];
  for (const r of rows) {
    const open = r.status === 'PENDING' && r.expires_at > now;
    const yours = open && r.requested_by !== caller.id ? await blockingGrant(deps.db, caller.id, r.requested_by, r.mer_id, now) : null;
    content.push({
      id: r.id,
      merId: r.mer_id,
      kind: r.kind,
      status: r.status,
      summary: r.summary,
      requestedBy: r.requester,
      requestTime: formatInZone(r.requested_at, tz),
      expireTime: formatInZone(r.expires_at, tz),
      decidedBy: r.decider,
      decideTime: r.decided_at ? formatInZone(r.decided_at, tz) : null,
      result: r.result,
      canDecide: open && !yours && r.requested_by !== caller.id && caller.permissions.includes(r.permission) && (r.kind !== 'bank_change' || caller.userType === 'MAIN'),
      deciderGrants: await deciderGrants(deps.db, r.decided_by, tz),
      yourGrant: yours ? grantOut(yours, tz) : null,
    });
  }
  return { totalElements: total, content };
}

/** Marks pending requests of `scope` past their expiry as EXPIRED (audited, one entry each). */
async function expireDue(deps: Deps, scope: string[]): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number; mer_id: string }>(
      `UPDATE approval_request SET status = 'EXPIRED' WHERE status = 'PENDING' AND expires_at <= $2 AND mer_id = ANY($1::text[]) RETURNING id, mer_id`,
      [scope, deps.clock.now()],
    );
    for (const r of rows) {
      await audit(q, { action: ApprovalAudit.expired, merId: r.mer_id, target: `approval #${r.id}`, detail: { approvalId: r.id } });
      for (const close of closers()) await close(q, r.id, 'EXPIRED', deps.clock.now());
    }
  });
}

/**
 * Approves or rejects a request. The decision is claimed under the request's row lock (one
 * decision ever); an approval then runs the action as the approver, outside that transaction (a
 * refund calls the acquirer), and its answer is stored on the request.
 */
export async function decide(deps: Deps, caller: SessionUser, id: number, approve: boolean, note: string, lang: Language, meta: Meta): Promise<ApprovalRow> {
  const now = deps.clock.now();
  const claimed = await deps.db.tx(async (q) => {
    const { rows } = await q.query<ApprovalDbRow>(`${SELECT} WHERE r.id = $1 AND r.mer_id = ANY($2::text[]) FOR UPDATE OF r`, [id, caller.scope]);
    const r = rows[0];
    if (!r) throw notFound();
    if (!caller.permissions.includes(r.permission)) throw new AppError(Code.FORBIDDEN, 'approvalNoPermission', {}, 403);
    if (r.status === 'PENDING' && r.expires_at <= now) {
      await q.query(`UPDATE approval_request SET status = 'EXPIRED' WHERE id = $1`, [r.id]);
      await audit(q, { action: ApprovalAudit.expired, merId: r.mer_id, target: `approval #${r.id}`, detail: { approvalId: r.id } });
      for (const close of closers()) await close(q, r.id, 'EXPIRED', now);
      return { expired: true as const };
    }
    if (r.status !== 'PENDING') throw new AppError(Code.APPROVAL_DECIDED, 'approvalDecided', {}, 200);
    if (r.requested_by === caller.id) throw new AppError(Code.APPROVAL_OWN, 'approvalOwn', {}, 200);
    // Issue 47: nor by a user its requester created or raised (or whose creation it approved) within the cool-down.
    if (approve) {
      const g = await blockingGrant(q, caller.id, r.requested_by, r.mer_id, now);
      if (g) throw new AppError(Code.APPROVAL_OWN, 'approvalGrantedByRequester', { user: g.by }, 200);
    }
    // An approved refund runs with the approver's step-up: asked before the decision is taken.
    if (approve && r.kind === 'refund' && !hasStepUp(caller.stepUpUntil, now)) throw new AppError(Code.FORBIDDEN, 'stepUpRequired', {}, 403);
    // A bank change is asked by main users only (spec: merchant bank section); so is its approval.
    if (r.kind === 'bank_change' && caller.userType !== 'MAIN') throw new AppError(Code.FORBIDDEN, 'approvalNoPermission', {}, 403);
    await q.query('UPDATE approval_request SET status = $2, decided_by = $3, decided_at = $4, note = $5 WHERE id = $1', [r.id, approve ? 'APPROVED' : 'REJECTED', caller.id, now, note || null]);
    await audit(q, {
      action: approve ? ApprovalAudit.approved : ApprovalAudit.rejected,
      userId: caller.id,
      username: caller.username,
      merId: r.mer_id,
      target: `approval #${r.id}`,
      detail: { approvalId: r.id, kind: r.kind, requestedBy: r.requester, summary: r.summary, note: note || null },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    // A bank change moves on in this same transaction (no network call): approved, it is handed to
    // the provider (PENDING, now seen by the back office); rejected, it is closed. One decision, one move.
    if (r.kind === 'bank_change') {
      const bankId = await approvalKind('bank_change').close!(q, r.id, approve ? 'PENDING' : 'MERCHANT_REJECTED', now, { user: caller, note, meta });
      const result = bankId ? { code: 0, bankRequestId: bankId } : { code: Code.SERVER_ERROR, msg: t(lang, 'approvalActionFailed') };
      await q.query('UPDATE approval_request SET result = $2 WHERE id = $1', [r.id, JSON.stringify(result)]);
    }
    return { row: r };
  });
  if ('expired' in claimed) throw new AppError(Code.APPROVAL_EXPIRED, 'approvalExpired', {}, 200);
  if (!approve && claimed.row.kind === 'bank_change') await notifyRequesterOfRejection(deps, claimed.row.id);
  if (approve && claimed.row.kind !== 'bank_change') {
    const r = claimed.row;
    let result: Record<string, unknown>;
    try {
      result = await execute(deps, caller, r, lang, meta);
    } catch (e) {
      // The action refused (e.g. a grant the approver does not hold): its message is the request's result.
      result = e instanceof AppError ? { code: e.code, msg: t(lang, e.key, e.params) } : { code: Code.SERVER_ERROR, msg: t(lang, 'approvalActionFailed') };
    }
    await deps.db.query('UPDATE approval_request SET result = $2 WHERE id = $1', [r.id, JSON.stringify(result)]);
  }
  const { rows } = await deps.db.query<ApprovalDbRow>(`${SELECT} WHERE r.id = $1`, [id]);
  const r = rows[0];
  const tz = deps.config.platformTz;
  return {
    id: r.id,
    merId: r.mer_id,
    kind: r.kind,
    status: r.status,
    summary: r.summary,
    requestedBy: r.requester,
    requestTime: formatInZone(r.requested_at, tz),
    expireTime: formatInZone(r.expires_at, tz),
    decidedBy: r.decider,
    decideTime: r.decided_at ? formatInZone(r.decided_at, tz) : null,
    result: r.result,
    canDecide: false,
    deciderGrants: await deciderGrants(deps.db, r.decided_by, tz),
    yourGrant: null,
  };
}

async function execute(deps: Deps, approver: SessionUser, r: ApprovalDbRow, lang: Language, meta: Meta): Promise<Record<string, unknown>> {
  // A kind another module owns (the refund: the transactions module) runs through its handler.
  if (r.kind === 'refund') return approvalKind('refund').execute!(deps, approver, { id: r.id, payload: r.payload, requestedBy: r.requested_by }, lang, meta);
  // A change another module owns on a team kind (the account's `requireTotp` policy change): its registered handler.
  const change = approvalChangeOf(r.payload);
  if (change) return change(deps, approver, { id: r.id, payload: r.payload, requestedBy: r.requested_by }, lang, meta);
  const p = r.payload as {
    user?: UpdateUserInput;
    role?: RoleSaveInput;
    add?: AddUserInput;
    lang?: Language;
    policy?: FourEyesPolicyInput;
    access?: AccessPolicyInput;
    enable?: { userId: number };
  };
  const opts = { approvalId: r.id, requestedBy: r.requested_by };
  if (p.user) {
    const u = await updateUser(deps, approver, p.user, meta, opts);
    return { code: 0, userId: u.id, userName: u.userName, permissions: u.permissions };
  }
  if (p.add) {
    // The activation mail goes now, in the language the requester added the user in.
    const u = await addUser(deps, approver, p.add, p.lang ?? lang, meta, opts);
    return { code: 0, userId: u.id, userName: u.userName, permissions: u.permissions };
  }
  if (p.policy) {
    const pol = await savePolicy(deps, approver, p.policy, meta, opts);
    return { code: 0, merId: pol.merId };
  }
  if (p.access) {
    const pol = await saveAccessPolicy(deps, approver, p.access, meta, opts);
    return { code: 0, merId: pol.merId, inactiveDays: pol.inactiveDays };
  }
  if (p.enable) {
    const u = await updateUserStatus(deps, approver, p.enable.userId, 'ACTIVE', meta, opts);
    return { code: 0, userId: u.id, userName: u.userName, status: u.status };
  }
  const role = await saveRole(deps, approver, p.role!, meta, opts);
  return { code: 0, roleId: role.id, name: role.name, permissions: role.permissions };
}
