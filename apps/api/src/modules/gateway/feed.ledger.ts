/** A feed row against the ledger: the copy compared with a repeat, and the refund's reservation on its purchase. */
import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { isProcessing, type TxnRow } from '../payments';

/** The ledger's copy of a transaction, as compared with a repeat. */
export interface LedgerRow
  extends Pick<
    TxnRow,
    | 'gw_trans_id'
    | 'mer_id'
    | 'order_no'
    | 'origin_order_no'
    | 'tran_type'
    | 'gw_response'
    | 'amount'
    | 'amount_sign'
    | 'currency'
    | 'order_amount'
    | 'order_currency'
    | 'payment_schema'
    | 'payment_brand'
    | 'card_first6'
    | 'card_last4'
    | 'channel_order_no'
  > {
  id: number;
  /** As read (a Date); the stored row's is epoch milliseconds. */
  txn_time: Date;
}
export const LEDGER_COLS =
  't.id, t.gw_trans_id, t.mer_id, t.order_no, t.origin_order_no, t.tran_type, t.gw_response, t.amount, t.amount_sign, t.currency, t.order_amount, t.order_currency, t.payment_schema, t.payment_brand, t.txn_time, t.card_first6, t.card_last4, t.channel_order_no';

/**
 * The first field where a repeat differs from what was received (status aside), or null. A row the
 * portal wrote for an operation it asked of the gateway (a refund, a void, a charge:
 * `acquirer_operation`) is compared on what the operation fixed — merchant, order, type, money —
 * and not on the gateway's own time, card form or channel order number, which the portal's row
 * could only guess.
 */
export function differs(r: TxnRow, l: Pick<LedgerRow, Exclude<keyof LedgerRow, 'id' | 'gw_trans_id' | 'gw_response'>>, portalOperation = false): string | null {
  const pairs: [string, unknown, unknown][] = [
    ['clientid', r.mer_id, l.mer_id],
    ['orderNum', r.order_no, l.order_no],
    ['gwTranType', r.tran_type, l.tran_type],
    ['gwAmount', r.amount * r.amount_sign, Number(l.amount) * Number(l.amount_sign)],
    ['gwCurrency', r.currency, l.currency.trim()],
    ['orderAmount', r.order_amount, Number(l.order_amount)],
    ['orderCurrency', r.order_currency, l.order_currency.trim()],
    ['paymentSchema', r.payment_schema, l.payment_schema],
    ['paymentBrand', r.payment_brand, l.payment_brand],
    ['currentTime', r.txn_time, new Date(l.txn_time).getTime()],
    ['cardNumber', `${r.card_first6}|${r.card_last4}`, `${l.card_first6}|${l.card_last4}`],
    ['channelOrderNo', r.channel_order_no, l.channel_order_no],
  ];
  if (r.origin_order_no !== null) pairs.push(['originorderno', r.origin_order_no, l.origin_order_no]);
  const gatewayOwn = new Set(['currentTime', 'cardNumber', 'channelOrderNo']);
  const d = pairs.find(([f, a, b]) => a !== b && !(portalOperation && gatewayOwn.has(f)));
  return d ? d[0] : null;
}

/**
 * A refund reported by the gateway, successful or still processing, takes its amount from what is
 * left of the purchase (the guard UPDATE: never past the purchase, even in parallel); a failed one
 * takes nothing. `finishProcessing` gives it back if the refund later fails.
 */
export async function reserveRefund(q: Queryable, row: TxnRow): Promise<void> {
  if (row.tran_type !== 'REFD' || row.origin_txn_id === null) return;
  if (!(row.gw_response === '00' || isProcessing(row.gw_response))) return;
  const { rows } = await q.query(
    `UPDATE txn SET return_amount = return_amount + $2
      WHERE id = $1 AND tran_type = 'PURC' AND gw_response = '00' AND return_amount + $2 <= amount RETURNING 1`,
    [row.origin_txn_id, row.amount],
  );
  if (!rows.length) throw new AppError(Code.BAD_REQUEST, 'payRefundExceeds', {}, 400, { field: 'gwAmount' });
}
