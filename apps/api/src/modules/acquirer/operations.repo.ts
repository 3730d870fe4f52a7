import type { Queryable } from '../../db/db';
import type { OperationKind, OperationRequest } from './acquirer.types';

/** A row of acquirer_operation (035-acquirer-operations.sql). */
export interface OperationRow {
  id: number;
  op_key: string;
  kind: OperationKind;
  acquirer: string;
  txn_id: number;
  purchase_id: number | null;
  order_id: number | null;
  mer_id: string;
  amount: number;
  currency: string;
  request: OperationRequest;
  context: OperationContext;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  gw_response: string | null;
  resp_msg: string | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

/** Ours, never sent: what the answer's bookkeeping needs (the asker's language, request key …). */
export interface OperationContext {
  lang?: string;
  requestKey?: string | null;
  username?: string | null;
  purchaseGwTransId?: string;
}

export interface NewOperation {
  kind: OperationKind;
  acquirer: string;
  txnId: number;
  purchaseId?: number | null;
  orderId?: number | null;
  merId: string;
  amount: number;
  currency: string;
  request: OperationRequest;
  context: OperationContext;
  createdBy?: number | null;
  now: Date;
  /** The first send is the asker's: the job leaves the operation alone until then. */
  nextAttemptAt: Date;
}

export async function insertOperation(q: Queryable, o: NewOperation): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO acquirer_operation (op_key, kind, acquirer, txn_id, purchase_id, order_id, mer_id, amount, currency, request, context,
                                     next_attempt_at, created_by, created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$14) RETURNING id`,
    [
      o.request.idempotencyKey,
      o.kind,
      o.acquirer,
      o.txnId,
      o.purchaseId ?? null,
      o.orderId ?? null,
      o.merId,
      o.amount,
      o.currency,
      JSON.stringify(o.request),
      JSON.stringify(o.context),
      o.nextAttemptAt,
      o.createdBy ?? null,
      o.now,
    ],
  );
  return rows[0].id;
}

export async function getOperation(q: Queryable, id: number, lock = false): Promise<OperationRow | undefined> {
  const { rows } = await q.query<OperationRow>(`SELECT * FROM acquirer_operation WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] && { ...rows[0], currency: rows[0].currency.trim() };
}

export async function operationOfTxn(q: Queryable, txnId: number): Promise<OperationRow | undefined> {
  const { rows } = await q.query<OperationRow>('SELECT * FROM acquirer_operation WHERE txn_id = $1', [txnId]);
  return rows[0] && { ...rows[0], currency: rows[0].currency.trim() };
}

/** Still pending: one more exchange without a decision. */
export async function notePending(q: Queryable, id: number, p: { now: Date; next: Date; error: string | null; respMsg: string | null }): Promise<void> {
  await q.query(
    `UPDATE acquirer_operation SET attempts = attempts + 1, next_attempt_at = $3, last_error = $4, resp_msg = coalesce($5, resp_msg), updated_at = $2
      WHERE id = $1 AND state = 'pending'`,
    [id, p.now, p.next, p.error, p.respMsg],
  );
}

export async function markSettled(q: Queryable, id: number, p: { now: Date; state: 'succeeded' | 'failed'; gwResponse: string; respMsg: string | null; counted: boolean }): Promise<void> {
  await q.query(
    `UPDATE acquirer_operation SET state = $3, gw_response = $4, resp_msg = $5, settled_at = $2, updated_at = $2,
            attempts = attempts + $6::int, last_error = NULL
      WHERE id = $1 AND state = 'pending'`,
    [id, p.now, p.state, p.gwResponse, p.respMsg, p.counted ? 1 : 0],
  );
}

/**
 * Claims up to `limit` due pending operations for this caller: their next attempt moves `leaseMs`
 * ahead in the same statement (FOR UPDATE SKIP LOCKED), so two job runners never ask about the
 * same operation at once, and one that dies mid-call leaves it to be asked again after the lease.
 */
export async function claimDue(q: Queryable, now: Date, leaseMs: number, limit: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `UPDATE acquirer_operation SET next_attempt_at = $2
      WHERE id IN (SELECT id FROM acquirer_operation WHERE state = 'pending' AND next_attempt_at <= $1
                    ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
  // RETURNING keeps no order: the oldest operations (lowest ids) are asked first.
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
