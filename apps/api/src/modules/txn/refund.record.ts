/** What a refund writes beside the money: its input, the REFD and its gateway operation, its audit entry, the approval a waiting refund joins. */
import { RefundCode, toDecimal, type Language, type RefundResult } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { audit, AuditAction } from '../../lib/audit';
import { firstSendLeaseMs } from '../acquirer';
import type { OperationRequest } from '../acquirer';
import { insertOperation } from '../acquirer';
import { OperationAudit } from '../acquirer';
import { ingestTransaction } from '../payments';
import { ApprovalAudit } from '../team';
import type { PurchaseRow } from './refund.repo';

export interface RefundInput {
  id: string;
  amount: string;
  txnschema?: string;
  requestKey?: string;
  /** /v1 metadata (issue 50): kept beside the refund (its webhook events and /v1 objects carry it). */
  metadata?: Record<string, string>;
}
export interface Meta {
  ip?: string;
  userAgent?: string;
}

/** Step 1's record: the REFD in processing and its gateway operation, in the caller's transaction. */
export async function recordRefundOperation(
  q: Queryable,
  deps: Deps,
  r: { p: PurchaseRow; amount: number; orderNo: string; user: SessionUser; lang: Language; requestKey: string | null; now: Date; acquirer: 'sandbox' | 'http' },
): Promise<{ id: number; txnId: number }> {
  const { p, amount, orderNo, now } = r;
  const card = p.card_first6 && p.card_last4 ? `${p.card_first6}******${p.card_last4}` : null;
  const row = await ingestTransaction(
    q,
    {
      merId: p.mer_id,
      orderNo,
      tranType: 'REFD',
      amount,
      currency: p.currency,
      paymentSchema: p.payment_schema,
      paymentBrand: p.payment_brand,
      subBrandCode: p.sub_brand_code,
      gwResponse: '04',
      respMsg: 'Processing',
      txnTime: now,
      originTxnId: p.id,
      merReserve: p.mer_reserve,
      storeName: p.store_name,
      storeId: p.store_id,
      cardNumber: card,
      source: r.acquirer === 'sandbox' ? 'sandbox' : 'gateway',
    },
    { platformTz: deps.config.platformTz, now },
  );
  const request: OperationRequest = {
    kind: 'refund',
    idempotencyKey: row.gwTransId,
    merchantId: p.mer_id,
    orderNo,
    amount: toDecimal(amount, p.currency),
    currency: p.currency,
    channel: p.payment_schema,
    brand: p.payment_brand,
    original: { gwTransId: p.gw_trans_id, orderNo: p.order_no, channelOrderNo: p.channel_order_no },
  };
  const id = await insertOperation(q, {
    kind: 'refund',
    acquirer: r.acquirer,
    txnId: row.id,
    purchaseId: p.id,
    merId: p.mer_id,
    amount,
    currency: p.currency,
    request,
    context: { lang: r.lang, requestKey: r.requestKey, username: r.user.username, purchaseGwTransId: p.gw_trans_id },
    createdBy: r.user.id,
    now,
    nextAttemptAt: new Date(now.getTime() + firstSendLeaseMs(deps)),
  });
  await audit(q, {
    action: OperationAudit.refundReserve,
    userId: r.user.id,
    username: r.user.username,
    merId: p.mer_id,
    target: p.gw_trans_id,
    detail: { purchaseId: p.id, refundId: row.id, operation: row.gwTransId, acquirer: r.acquirer, amount: toDecimal(amount, p.currency), currency: p.currency, refundOrderNo: orderNo },
  });
  return { id, txnId: row.id };
}

export async function writeAudit(q: Parameters<typeof audit>[0], user: SessionUser, p: PurchaseRow, amount: number, input: RefundInput, result: RefundResult, meta: Meta) {
  await audit(q, {
    action: AuditAction.refund,
    outcome: result.code === RefundCode.OK ? 'success' : 'failure',
    userId: user.id,
    username: user.username,
    merId: p.mer_id,
    target: p.gw_trans_id,
    detail: {
      purchaseId: p.id,
      amount: toDecimal(amount, p.currency),
      currency: p.currency,
      code: result.code,
      refundId: result.refundId ?? null,
      refundOrderNo: result.refundOrderNo ?? null,
      requestKey: input.requestKey ?? null,
    },
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
}

export const RefundApprovalAudit = { joined: 'approval.join' } as const;

/**
 * The open four-eyes request for the same refund — this purchase, this amount — or null. One past
 * its expiry that no one has touched yet is marked EXPIRED here (audited, as the approvals list
 * does), so a new request can be made. Called with the purchase row locked.
 */
export async function openRefundApproval(q: Queryable, p: PurchaseRow, amount: string, now: Date): Promise<number | null> {
  const { rows } = await q.query<{ id: number; expires_at: Date }>(
    `SELECT id, expires_at FROM approval_request
      WHERE kind = 'refund' AND status = 'PENDING' AND mer_id = $1 AND summary->>'gwTransId' = $2 AND payload->>'amount' = $3
      ORDER BY id FOR UPDATE`,
    [p.mer_id, p.gw_trans_id, amount],
  );
  for (const r of rows) {
    if (new Date(r.expires_at) > now) return Number(r.id);
    await q.query(`UPDATE approval_request SET status = 'EXPIRED' WHERE id = $1 AND status = 'PENDING'`, [r.id]);
    await audit(q, { action: ApprovalAudit.expired, merId: p.mer_id, target: `approval #${r.id}`, detail: { approvalId: Number(r.id) } });
  }
  return null;
}
