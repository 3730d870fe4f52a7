import { Code, READ_ONLY_PERMISSIONS, Perm, VIEW_AS_MINUTES } from '@portal/contract';
import { AppError, notFound } from '../../lib/errors';
import { newToken, sha256 } from '../../lib/crypto';
import { audit } from '../../lib/audit';
import type { Deps, SessionUser } from '../../plugins/context';
import { checkSessionAlive, type SessionState } from '../../plugins/auth';
import { OPERATOR_REALM } from '../user';
import type { Operator } from './ops.auth';

/** A view-as token: found only in ops_view_as, never in access_token (decision 046). */
export const VIEW_AS_PREFIX = 'va_';
export const VIEW_AS_ROLES = ['support'] as const;

/**
 * What a view-as session may hold: the read-only permissions minus exports and downloads (files
 * leave the provider's control; a support view looks at screens) and minus everything an
 * administrator alone holds (team, audit, keys and webhooks).
 */
const VIEW_AS_PERMISSIONS: string[] = READ_ONLY_PERMISSIONS.filter((p) => !([Perm.txnExport, Perm.filesDownload, Perm.reportFile] as string[]).includes(p));

/**
 * The merchant routes a view-as session may call, deny by default (decision 046): GET only, and
 * only under these prefixes; never an export, download, attachment or statement file.
 */
const READABLE = [
  '/api/user/info',
  '/api/merchant/',
  '/api/txn/',
  '/api/dashboard/',
  '/api/notice/list',
  '/api/notice/detail/',
  '/api/payByLink/',
  '/api/payInStore/',
  '/api/gateway/differences',
  '/api/search',
  '/api/views',
  // The reports' lists (issue 53: read-only means every report reads — the dashboard's reserve
  // card, Bill, Transfer, both daily summaries, Reserve); their exports stay refused (FILE below).
  '/api/report/bill/list',
  '/api/report/transfer/list',
  '/api/report/txn/newList',
  '/api/report/txn/list',
  '/api/report/reserve/list',
  // Disputes (issue 48): the inbox, the dashboard's counts and a dispute's detail; its evidence files stay refused (FILE).
  '/api/disputes/list',
  '/api/disputes/counts',
  '/api/disputes/:id',
];
// Files (exports, downloads, attachments, statements, templates, logos) and the one GET route that
// changes something (the spec's GET /payByLink/closeOrder/:id).
const FILE = /export|download|attachment|statement|logisticsTemplate|logo|close|evidence/i;

/** Whether a view-as session may make this call (method and route pattern). */
export function viewAsMayCall(method: string, routeUrl: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (FILE.test(routeUrl)) return false;
  return READABLE.some((p) => routeUrl === p || routeUrl.startsWith(p.endsWith('/') ? p : `${p}/`) || routeUrl === p.replace(/\/$/, ''));
}

export const viewAsRefused = () => new AppError(Code.FORBIDDEN, 'viewAsReadOnly', {}, 403);

interface ViewAsRow extends SessionState {
  id: number;
  operator_id: number;
  operator: string;
  role: string;
  mer_id: string;
  mer_name: string;
  reason: string;
  va_expires_at: Date;
  ended_at: Date | null;
  scope: string[];
}

/**
 * One audit row read on both sides, as every operator action (decision 038): operator_id names the
 * operator (the back office's audit), mer_id the merchant viewed (the merchant's own audit log,
 * where the actor is the operator's name and the target the stated reason).
 */
const auditBoth = (deps: Deps, e: { action: string; operatorId: number; operator: string; merId: string; reason: string; detail: Record<string, unknown>; ip?: string | null; userAgent?: string }) =>
  audit(deps.db, {
    action: e.action,
    operatorId: e.operatorId,
    username: e.operator,
    merId: e.merId,
    target: `view-as: ${e.reason}`.slice(0, 300),
    detail: { ...e.detail, reason: e.reason },
    ip: e.ip,
    userAgent: e.userAgent,
  });

export type ViewAsEnd = 'operator' | 'expired' | 'operator-session-ended' | 'replaced';

async function endRow(deps: Deps, id: number, why: ViewAsEnd, meta: { ip?: string | null; userAgent?: string } = {}) {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<{ id: number; operator_id: number; operator: string; mer_id: string; reason: string; created_at: Date; expires_at: Date }>(
    `UPDATE ops_view_as v SET ended_at = LEAST($2::timestamptz, v.expires_at), end_reason = $3
       FROM ops_operator o WHERE v.id = $1 AND v.ended_at IS NULL AND o.id = v.operator_id
     RETURNING v.id, v.operator_id, o.username AS operator, v.mer_id, v.reason, v.created_at, v.expires_at`,
    [id, now, why],
  );
  const r = rows[0];
  if (!r) return false;
  const endedAt = now < new Date(r.expires_at) ? now : new Date(r.expires_at);
  await auditBoth(deps, {
    action: 'ops.view_as.end',
    operatorId: r.operator_id,
    operator: r.operator,
    merId: r.mer_id,
    reason: r.reason,
    detail: { viewAsId: Number(r.id), startedAt: new Date(r.created_at).toISOString(), endedAt: endedAt.toISOString(), endReason: why },
    ...meta,
  });
  return true;
}

/**
 * Ends (and audits) every open view-as past its absolute expiry, or whose operator's session has
 * ended (sign-out, revoked) or whose operator is disabled, that no call has ended yet.
 */
export async function endExpiredViewAs(deps: Deps): Promise<number> {
  const { rows } = await deps.db.query<{ id: number; expired: boolean }>(
    `SELECT v.id, v.expires_at <= $1 AS expired FROM ops_view_as v JOIN ops_session s ON s.id = v.ops_session_id JOIN ops_operator o ON o.id = v.operator_id
      WHERE v.ended_at IS NULL AND (v.expires_at <= $1 OR s.revoked_at IS NOT NULL OR o.status <> 'ACTIVE') ORDER BY v.id LIMIT 500`,
    [deps.clock.now()],
  );
  let n = 0;
  for (const r of rows) if (await endRow(deps, Number(r.id), r.expired ? 'expired' : 'operator-session-ended')) n++;
  return n;
}

/**
 * Opens a view-as of `merId` for the support operator (its session bound to the operator's): a
 * stated reason, 30 minutes absolute. An operator has at most one open view-as: opening another
 * ends the previous one ('replaced').
 */
export async function startViewAs(deps: Deps, op: Operator, merId: string, reason: string, meta: { ip?: string | null; userAgent?: string }) {
  const m = (await deps.db.query<{ mer_id: string; name: string }>(`SELECT mer_id, name FROM merchant WHERE mer_id = $1`, [merId])).rows[0];
  if (!m) throw notFound();
  await endExpiredViewAs(deps);
  const open = await deps.db.query<{ id: number }>(`SELECT id FROM ops_view_as WHERE operator_id = $1 AND ended_at IS NULL`, [op.id]);
  for (const r of open.rows) await endRow(deps, Number(r.id), 'replaced', meta);
  const token = `${VIEW_AS_PREFIX}${newToken()}`;
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + VIEW_AS_MINUTES * 60_000);
  const { rows } = await deps.db.query<{ id: string }>(
    `INSERT INTO ops_view_as (operator_id, ops_session_id, mer_id, reason, token_hash, created_at, expires_at, ip)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id`,
    [op.id, op.sessionId, m.mer_id, reason, sha256(token), now, expiresAt, meta.ip ?? null],
  );
  const id = Number(rows[0].id);
  await auditBoth(deps, {
    action: 'ops.view_as.start',
    operatorId: op.id,
    operator: op.username,
    merId: m.mer_id,
    reason,
    detail: { viewAsId: id, startedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
    ...meta,
  });
  return { id, token, merId: m.mer_id, merName: m.name, expiresAt: expiresAt.toISOString() };
}

/** Ends the operator's own view-as (another operator's is not found). */
export async function endViewAs(deps: Deps, op: Operator, id: number, meta: { ip?: string | null; userAgent?: string }) {
  const own = await deps.db.query(`SELECT 1 FROM ops_view_as WHERE id = $1 AND operator_id = $2`, [id, op.id]);
  if (!own.rows.length) throw notFound();
  await endRow(deps, id, 'operator', meta);
  return null;
}

/** The operator's own view-as sessions, newest first (the last 20). */
export async function listViewAs(deps: Deps, op: Operator) {
  await endExpiredViewAs(deps);
  const { rows } = await deps.db.query<{ id: string; mer_id: string; name: string; reason: string; created_at: Date; expires_at: Date; ended_at: Date | null; end_reason: ViewAsEnd | null }>(
    `SELECT v.id, v.mer_id, m.name, v.reason, v.created_at, v.expires_at, v.ended_at, v.end_reason
       FROM ops_view_as v JOIN merchant m ON m.mer_id = v.mer_id WHERE v.operator_id = $1 ORDER BY v.id DESC LIMIT 20`,
    [op.id],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    merId: r.mer_id,
    merName: r.name,
    reason: r.reason,
    startedAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    endReason: r.end_reason,
  }));
}

/**
 * Resolves a view-as token into a read-only merchant caller (decision 046). Refused (50014) once
 * ended, past its absolute 30 minutes, or when the operator's session has ended (sign-out, idle,
 * 12 h) or the operator is disabled, locked or no longer holds the support role; each such end is
 * recorded and audited once. Scope: the merchant, and a group's sub-merchants.
 */
export async function resolveViewAs(deps: Deps, token: string): Promise<SessionUser> {
  const { rows } = await deps.db.query<ViewAsRow>(
    `SELECT v.id, v.operator_id, o.username AS operator, o.role, v.mer_id, m.name AS mer_name, v.reason, v.expires_at AS va_expires_at, v.ended_at,
            s.id AS session_id, s.revoked_at, s.last_seen_at, s.absolute_expires_at, o.status, o.locked_until,
            'infinity'::timestamptz AS expires_at,
            ARRAY(SELECT sm.mer_id::text FROM merchant sm WHERE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) ORDER BY sm.mer_id) AS scope
       FROM ops_view_as v JOIN ops_session s ON s.id = v.ops_session_id JOIN ops_operator o ON o.id = v.operator_id
       JOIN merchant m ON m.mer_id = v.mer_id
      WHERE v.token_hash = $1`,
    [sha256(token)],
  );
  const r = rows[0];
  if (!r) throw new AppError(Code.TOKEN_INVALID, 'tokenInvalid', {}, 401);
  const ended = () => new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
  if (r.ended_at) throw ended();
  if (deps.clock.now() >= new Date(r.va_expires_at)) {
    await endRow(deps, Number(r.id), 'expired');
    throw ended();
  }
  if (!(VIEW_AS_ROLES as readonly string[]).includes(r.role) && r.role !== 'administrator') {
    await endRow(deps, Number(r.id), 'operator-session-ended');
    throw ended();
  }
  try {
    // The operator's own session rules (revoked, idle, 12 h, disabled, locked); a view-as call is
    // the operator acting, so it keeps the operator's session from idling.
    await checkSessionAlive(deps, r, OPERATOR_REALM);
  } catch (err) {
    await endRow(deps, Number(r.id), 'operator-session-ended');
    throw err instanceof AppError && err.code === Code.SESSION_ENDED ? err : ended();
  }
  return {
    id: 0,
    username: r.operator,
    email: '',
    merId: r.mer_id,
    merName: r.mer_name,
    userType: 'SUB',
    userAdmin: false,
    permissions: VIEW_AS_PERMISSIONS,
    sessionId: 0,
    scope: r.scope,
    stepUpUntil: null,
    mustEnrolTotp: false,
    timeZone: null,
    viewAs: { id: Number(r.id), operatorId: r.operator_id, operator: r.operator, expiresAt: new Date(r.va_expires_at) },
  };
}
