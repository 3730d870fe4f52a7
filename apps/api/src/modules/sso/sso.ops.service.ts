import { Code, type OpsRole } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { SsoAudit } from './sso.service';

/**
 * The back office's view of enterprise sign-in (issue 51): which merchant groups use SSO, and
 * lifting "SSO required" for one locked out of its identity provider — four eyes: one operator
 * asks (with a reason), another approves; the one who asked may not. Audited both times. The
 * merchant's break-glass administrators and provider stay as they were.
 */

export const SSO_OPS_READ_ROLES: readonly OpsRole[] = ['onboarding', 'risk', 'support', 'read-only'];
export const SSO_OPS_WRITE_ROLES: readonly OpsRole[] = ['risk', 'support'];

export interface Operator {
  id: number;
  username: string;
}
export type Meta = { ip?: string; userAgent?: string };

export async function listSsoMerchants(deps: Deps) {
  const { rows } = await deps.db.query<{
    mer_id: string;
    name: string;
    kind: string;
    provider_name: string;
    enabled: boolean;
    sso_required: boolean | null;
    domains: number;
    users: number;
    request_id: number | null;
    requested_by: string | null;
  }>(
    `SELECT p.mer_id, m.name, p.kind, p.name AS provider_name, p.enabled, pol.sso_required,
            (SELECT count(*)::int FROM sso_domain d WHERE d.mer_id = p.mer_id AND d.verified_at IS NOT NULL) AS domains,
            (SELECT count(*)::int FROM sso_identity i WHERE i.provider_id = p.id) AS users,
            r.id AS request_id, o.username AS requested_by
       FROM sso_provider p JOIN merchant m ON m.mer_id = p.mer_id
       LEFT JOIN sso_policy pol ON pol.mer_id = p.mer_id
       LEFT JOIN sso_ops_request r ON r.mer_id = p.mer_id AND r.status = 'PENDING'
       LEFT JOIN ops_operator o ON o.id = r.requested_by
      ORDER BY m.name LIMIT 500`,
  );
  return rows.map((r) => ({
    merId: r.mer_id,
    merName: r.name,
    kind: r.kind as 'oidc' | 'saml',
    providerName: r.provider_name,
    enabled: r.enabled,
    ssoRequired: !!r.sso_required,
    verifiedDomains: r.domains,
    ssoUsers: r.users,
    pendingRequest: r.request_id === null ? null : { id: r.request_id, requestedBy: r.requested_by! },
  }));
}

/** An operator asks to turn "SSO required" off for a merchant group (waits for a second operator). */
export async function requestRequireOff(deps: Deps, merId: string, reason: string, by: Operator, meta: Meta): Promise<{ id: number }> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<{ sso_required: boolean }>('SELECT sso_required FROM sso_policy WHERE mer_id = $1 FOR UPDATE', [merId]);
    if (!rows[0]) {
      const m = await q.query('SELECT 1 FROM merchant WHERE mer_id = $1', [merId]);
      if (!m.rows[0]) throw notFound();
    }
    if (!rows[0]?.sso_required) throw new AppError(Code.CONFLICT, 'ssoOpsNotRequired', {}, 409);
    const ins = await q.query<{ id: number }>(
      `INSERT INTO sso_ops_request (mer_id, reason, requested_by, requested_at) VALUES ($1,$2,$3,$4) ON CONFLICT (mer_id) WHERE status = 'PENDING' DO NOTHING RETURNING id`,
      [merId, reason, by.id, now],
    );
    if (!ins.rows[0]) throw new AppError(Code.CONFLICT, 'ssoOpsPending', {}, 409);
    await audit(q, { action: SsoAudit.opsRequested, operatorId: by.id, username: by.username, merId, target: `sso-request:${ins.rows[0].id}`, detail: { reason }, ...meta });
    return { id: ins.rows[0].id };
  });
}

/** A second operator approves (SSO no longer required) or rejects the request. */
export async function decideRequireOff(deps: Deps, id: number, decision: 'APPROVED' | 'REJECTED', by: Operator, meta: Meta) {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number; mer_id: string; status: string; requested_by: number; reason: string }>('SELECT * FROM sso_ops_request WHERE id = $1 FOR UPDATE', [id]);
    const r = rows[0];
    if (!r) throw notFound();
    if (r.status !== 'PENDING') throw new AppError(Code.CONFLICT, 'ssoOpsDecided', {}, 409);
    if (r.requested_by === by.id) throw new AppError(Code.FORBIDDEN, 'ssoOpsFourEyes', {}, 403);
    await q.query('UPDATE sso_ops_request SET status = $2, decided_by = $3, decided_at = $4 WHERE id = $1', [id, decision, by.id, now]);
    if (decision === 'APPROVED') {
      await q.query(`UPDATE sso_policy SET sso_required = false, updated_at = $2, updated_by = $3 WHERE mer_id = $1`, [r.mer_id, now, `back-office:${by.username}`]);
    }
    await audit(q, {
      action: SsoAudit.opsDecided,
      operatorId: by.id,
      username: by.username,
      merId: r.mer_id,
      target: `sso-request:${id}`,
      detail: { decision, reason: r.reason, requestedBy: r.requested_by },
      ...meta,
    });
    return { id, status: decision };
  });
}
