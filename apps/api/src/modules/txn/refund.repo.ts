import type { RefundResult } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { TxnRow as StoredTxnRow } from '../payments';

/** The purchase a refund is taken from: the stored row's columns (ingest.types) plus its id and what was returned. */
export interface PurchaseRow
  extends Pick<
    StoredTxnRow,
    | 'gw_trans_id'
    | 'mer_id'
    | 'order_no'
    | 'tran_type'
    | 'gw_response'
    | 'amount'
    | 'currency'
    | 'payment_schema'
    | 'payment_brand'
    | 'sub_brand_code'
    | 'mer_reserve'
    | 'store_name'
    | 'store_id'
    | 'card_first6'
    | 'card_last4'
    | 'channel_order_no'
  > {
  id: number;
  return_amount: number;
  /** Issue 48: the open or lost chargeback debits of the purchase (not refundable). */
  disputed_amount: number;
}

/**
 * The purchase, row-locked for the rest of the transaction: refunds of one purchase queue here
 * before anything else (taking the lock later, after the request-key insert has taken its foreign
 * key's share lock, would let two refunds deadlock).
 */
export async function lockPurchase(q: Queryable, gwTransId: string, scope: string[]): Promise<PurchaseRow | undefined> {
  const { rows } = await q.query<PurchaseRow>(
    `SELECT id, gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, return_amount, disputed_amount, currency, payment_schema,
            payment_brand, sub_brand_code, mer_reserve, store_name, store_id, card_first6, card_last4, channel_order_no
       FROM txn WHERE gw_trans_id = $1 AND mer_id = ANY($2::text[]) FOR UPDATE`,
    [gwTransId, scope],
  );
  return rows[0];
}

/**
 * Claims a client request key for this purchase. Returns null when it is new (the caller goes on),
 * or the stored request when the key was already used. A concurrent twin blocks on the primary key
 * until the first commits, then sees its row.
 */
export async function claimRequestKey(q: Queryable, purchaseId: number, key: string, amount: number, userId: number): Promise<{ amount: number; result: RefundResult } | null> {
  const ins = await q.query(
    `INSERT INTO refund_request (purchase_id, request_key, amount, user_id) VALUES ($1,$2,$3,$4)
     ON CONFLICT (purchase_id, request_key) DO NOTHING RETURNING purchase_id`,
    [purchaseId, key, amount, userId],
  );
  if (ins.rowCount) return null;
  const { rows } = await q.query<{ amount: number; result: RefundResult }>('SELECT amount, result FROM refund_request WHERE purchase_id = $1 AND request_key = $2', [purchaseId, key]);
  return rows[0];
}

export async function storeRequestResult(q: Queryable, purchaseId: number, key: string, result: RefundResult): Promise<void> {
  await q.query('UPDATE refund_request SET result = $3, refund_txn_id = $4 WHERE purchase_id = $1 AND request_key = $2', [purchaseId, key, JSON.stringify(result), result.refundId ?? null]);
}

/**
 * The over-refund guard: one UPDATE that adds `amount` only while the total stays within the
 * purchase, evaluated on the row's latest committed value (never a stale read), so concurrent
 * refunds can never add up past the purchase; read-check-insert could. Null = refused.
 */
export async function reserveReturn(q: Queryable, purchaseId: number, amount: number): Promise<number | null> {
  const { rows } = await q.query<{ return_amount: number }>(
    `UPDATE txn SET return_amount = return_amount + $2
      WHERE id = $1 AND tran_type = 'PURC' AND gw_response = '00' AND return_amount + disputed_amount + $2 <= amount
      RETURNING return_amount`,
    [purchaseId, amount],
  );
  return rows[0]?.return_amount ?? null;
}

export async function releaseReturn(q: Queryable, purchaseId: number, amount: number): Promise<number> {
  const { rows } = await q.query<{ return_amount: number }>('UPDATE txn SET return_amount = return_amount - $2 WHERE id = $1 RETURNING return_amount', [purchaseId, amount]);
  return rows[0].return_amount;
}

export async function countChildren(q: Queryable, purchaseId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM txn WHERE origin_txn_id = $1', [purchaseId]);
  return rows[0].n;
}

/** A refund's /v1 metadata (issue 50), beside the ledger row. */
export async function storeRefundMetadata(q: Queryable, txnId: number, merId: string, metadata: Record<string, string>): Promise<void> {
  await q.query('INSERT INTO txn_metadata (txn_id, mer_id, metadata) VALUES ($1, $2, $3) ON CONFLICT (txn_id) DO UPDATE SET metadata = EXCLUDED.metadata', [txnId, merId, JSON.stringify(metadata)]);
}

/** The /v1 metadata of some transactions of the scope (those that have any), by id. */
export async function metadataOf(q: Queryable, ids: number[], scope: string[]): Promise<Map<number, Record<string, string>>> {
  if (!ids.length) return new Map();
  const { rows } = await q.query<{ txn_id: string | number; metadata: Record<string, string> }>(
    'SELECT txn_id, metadata FROM txn_metadata WHERE txn_id = ANY($1::bigint[]) AND mer_id = ANY($2::text[])',
    [ids, scope],
  );
  return new Map(rows.map((r) => [Number(r.txn_id), r.metadata]));
}
