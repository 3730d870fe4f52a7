import type { Deps } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { ApprovalAudit } from './approvals.repo';

/** A refund's four-eyes request as stored, with the refunded purchase's transaction id (null when unknown). */
export interface RefundApprovalRow {
  id: number;
  mer_id: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';
  payload: { amount: string };
  summary: { currency: string; gwTransId: string };
  requested_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  result: { code?: number; refundId?: number; msg?: string } | null;
  txn_id: number | null;
}

/**
 * A refund's four-eyes request of `scope`'s merchants (undefined for another merchant's, or none).
 * One past its expiry is marked EXPIRED as it is read (audited; its webhook event goes out), as the
 * portal's list does. The merchant API's `GET /v1/refund-approvals/{id}` reads it.
 */
export async function refundApprovalOf(deps: Pick<Deps, 'db' | 'clock'>, scope: string[], id: number): Promise<RefundApprovalRow | undefined> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<RefundApprovalRow>(
      `SELECT r.id, r.mer_id, r.status, r.payload, r.summary, r.requested_at, r.expires_at, r.decided_at, r.result, k.id AS txn_id
         FROM approval_request r LEFT JOIN txn_key k ON k.gw_trans_id = r.summary->>'gwTransId' AND k.mer_id = r.mer_id
        WHERE r.id = $1 AND r.kind = 'refund' AND r.mer_id = ANY($2::text[])`,
      [id, scope],
    );
    const r = rows[0];
    if (!r) return undefined;
    if (r.status === 'PENDING' && new Date(r.expires_at) <= now) {
      const up = await q.query(`UPDATE approval_request SET status = 'EXPIRED' WHERE id = $1 AND status = 'PENDING'`, [r.id]);
      if (up.rowCount) await audit(q, { action: ApprovalAudit.expired, merId: r.mer_id, target: `approval #${r.id}`, detail: { approvalId: r.id } });
      r.status = 'EXPIRED';
    }
    return r;
  });
}
