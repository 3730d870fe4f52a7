import {
  Code,
  parseCurrencyLimit,
  toDecimal,
  toMinor,
  type ApprovalRow,
  type FourEyesPolicy,
  type FourEyesPolicyInput,
  type Language,
  type RoleSaveInput,
  type UpdateUserInput,
} from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { formatInZone } from '../txn/time';
import { hasStepUp } from '../user/login.service';
import { refund } from '../txn/refund.service';
import { ApprovalAudit, effectivePolicy } from './approvals.repo';
import { closeHeldBankRequest } from '../merchant/bank-request.service';
import { notifyRequesterOfRejection } from './approvals.notify';
import { assertMainUser, updateUser, type Meta } from './team.service';
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

function policyOut(merId: string, p: Awaited<ReturnType<typeof effectivePolicy>>): FourEyesPolicy {
  const limits: Record<string, string> = {};
  for (const [c, v] of Object.entries(p?.refund_limits ?? {})) limits[c] = toDecimal(v, c);
  return { merId, refundLimits: limits, permissionRaise: p?.permission_raise ?? false, bankChange: p?.bank_change ?? false, expiryHours: p?.expiry_hours ?? 48 };
}

export async function getPolicy(deps: Deps, caller: SessionUser, merId = caller.merId): Promise<FourEyesPolicy> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  return policyOut(merId, await effectivePolicy(deps.db, merId));
}

export async function savePolicy(deps: Deps, caller: SessionUser, input: FourEyesPolicyInput, meta: Meta): Promise<FourEyesPolicy> {
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
  await deps.db.tx(async (q) => {
    const before = policyOut(input.merId, await effectivePolicy(q, input.merId));
    await q.query(
      `INSERT INTO four_eyes_policy (mer_id, refund_limits, permission_raise, bank_change, expiry_hours, updated_by, updated_at) VALUES ($1, $2, $3, $7, $4, $5, $6)
       ON CONFLICT (mer_id) DO UPDATE SET refund_limits = EXCLUDED.refund_limits, permission_raise = EXCLUDED.permission_raise, bank_change = EXCLUDED.bank_change,
         expiry_hours = EXCLUDED.expiry_hours, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [input.merId, JSON.stringify(limits), input.permissionRaise, input.expiryHours, caller.id, deps.clock.now(), input.bankChange],
    );
    const after = policyOut(input.merId, await effectivePolicy(q, input.merId));
    await audit(q, { action: ApprovalAudit.policy, userId: caller.id, username: caller.username, merId: input.merId, target: input.merId, detail: { before, after }, ip: meta.ip, userAgent: meta.userAgent });
  });
  return getPolicy(deps, caller, input.merId);
}

interface ApprovalDbRow {
  id: number;
  mer_id: string;
  kind: 'refund' | 'permission_raise' | 'bank_change';
  permission: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';
  payload: Record<string, unknown>;
  summary: Record<string, unknown>;
  requested_by: number;
  requester: string;
  requested_at: Date;
  expires_at: Date;
  decider: string | null;
  decided_at: Date | null;
  result: Record<string, unknown> | null;
}

const SELECT = `SELECT r.id, r.mer_id, r.kind, r.permission, r.status, r.payload, r.summary, r.requested_by, ru.username AS requester,
  r.requested_at, r.expires_at, du.username AS decider, r.decided_at, r.result
  FROM approval_request r JOIN app_user ru ON ru.id = r.requested_by LEFT JOIN app_user du ON du.id = r.decided_by`;

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
  return {
    totalElements: total,
    content: rows.map((r) => ({
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
      canDecide: r.status === 'PENDING' && r.expires_at > now && r.requested_by !== caller.id && caller.permissions.includes(r.permission) && (r.kind !== 'bank_change' || caller.userType === 'MAIN'),
    })),
  };
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
      await closeHeldBankRequest(q, r.id, 'EXPIRED', deps.clock.now());
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
      await closeHeldBankRequest(q, r.id, 'EXPIRED', now);
      return { expired: true as const };
    }
    if (r.status !== 'PENDING') throw new AppError(Code.APPROVAL_DECIDED, 'approvalDecided', {}, 200);
    if (r.requested_by === caller.id) throw new AppError(Code.APPROVAL_OWN, 'approvalOwn', {}, 200);
    // An approved refund runs with the approver's step-up: asked before the decision is taken.
    if (approve && r.kind === 'refund' && !hasStepUp(caller.stepUpUntil, now)) throw new AppError(Code.FORBIDDEN, 'stepUpRequired', {}, 403);
    // A bank change is asked by main users only (spec: merchant bank section); so is its approval.
    if (r.kind === 'bank_change' && caller.userType !== 'MAIN') throw new AppError(Code.FORBIDDEN, 'approvalNoPermission', {}, 403);
    await q.query('UPDATE approval_request SET status = $2, decided_by = $3, decided_at = $4, note = $5 WHERE id = $1', [r.id, approve ? 'APPROVED' : 'REJECTED', caller.id, now, note || null]);
    await audit(q, {
      action: approve ? ApprovalAudit.approved : ApprovalAudit.rejected, userId: caller.id, username: caller.username, merId: r.mer_id, target: `approval #${r.id}`,
      detail: { approvalId: r.id, kind: r.kind, requestedBy: r.requester, summary: r.summary, note: note || null }, ip: meta.ip, userAgent: meta.userAgent,
    });
    // A bank change moves on in this same transaction (no network call): approved, it is handed to
    // the provider (PENDING, now seen by the back office); rejected, it is closed. One decision, one move.
    if (r.kind === 'bank_change') {
      const bankId = await closeHeldBankRequest(q, r.id, approve ? 'PENDING' : 'MERCHANT_REJECTED', now, { user: caller, note, meta });
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
    id: r.id, merId: r.mer_id, kind: r.kind, status: r.status, summary: r.summary, requestedBy: r.requester, requestTime: formatInZone(r.requested_at, tz),
    expireTime: formatInZone(r.expires_at, tz), decidedBy: r.decider, decideTime: r.decided_at ? formatInZone(r.decided_at, tz) : null, result: r.result, canDecide: false,
  };
}

async function execute(deps: Deps, approver: SessionUser, r: ApprovalDbRow, lang: Language, meta: Meta): Promise<Record<string, unknown>> {
  if (r.kind === 'refund') {
    const p = r.payload as { id: string; amount: string; txnschema: string | null };
    return { ...(await refund(deps, approver, lang, { id: p.id, amount: p.amount, txnschema: p.txnschema ?? undefined, requestKey: `approval-${r.id}` }, meta, { approvalId: r.id })) };
  }
  const p = r.payload as { user?: UpdateUserInput; role?: RoleSaveInput };
  if (p.user) {
    const u = await updateUser(deps, approver, p.user, meta, { approvalId: r.id });
    return { code: 0, userId: u.id, userName: u.userName, permissions: u.permissions };
  }
  const role = await saveRole(deps, approver, p.role!, meta, { approvalId: r.id });
  return { code: 0, roleId: role.id, name: role.name, permissions: role.permissions };
}
