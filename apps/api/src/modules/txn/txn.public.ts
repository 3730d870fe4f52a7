import { z } from 'zod';
import { settleStateOf } from '@portal/contract';
import { metadataSchema, named } from '../../lib/v1-registry';
import { money, type TxnDbRow } from './txn.row';

/**
 * The one public transaction shape (decision 079): the object GET /v1/transactions/{id} answers and
 * the `data` of a transaction.* / refund.* event from Portal-Version 2026-12-03, both made by
 * `toV1Transaction` from a ledger row. It lives with the transactions (their owner); the /v1 face
 * and the webhook renderer use it through this module's door.
 */
const STATUS = ['succeeded', 'failed', 'processing'] as const;
export const statusOf = (gwResponse: string | null): (typeof STATUS)[number] => (gwResponse === '00' ? 'succeeded' : !gwResponse || gwResponse === '04' ? 'processing' : 'failed');

export const v1TransactionSchema = named(
  z.object({
    id: z.number().int().describe('the transaction id (use it in /v1/transactions/{id} and refunds)'),
    gateway_id: z.string().describe('the gateway transaction id'),
    merchant_id: z.string(),
    order_no: z.string(),
    origin_order_no: z.string().nullable().describe("a refund's purchase order number"),
    origin_transaction_id: z.number().int().nullable().describe("a refund's purchase"),
    type: z.string().describe('PURC purchase, REFD refund, …'),
    status: z.enum(STATUS),
    response_code: z.string().nullable(),
    response_message: z.string().nullable(),
    amount: z.string().describe("decimal string in the currency's exponent"),
    currency: z.string(),
    refunded_amount: z.string(),
    payment_schema: z.string().nullable(),
    payment_brand: z.string().nullable(),
    merchant_reference: z.string().nullable(),
    created_at: z.string().describe('ISO-8601, UTC'),
    settlement: z.object({
      state: z.enum(['N', 'W', 'T', '']).describe('N not settled, W awaiting transfer, T transferred'),
      date: z.string().nullable(),
      currency: z.string().nullable(),
      amount: z.string().nullable(),
      fee: z.string().nullable(),
    }),
    metadata: metadataSchema,
  }),
  'Transaction',
  'A transaction of the ledger: a purchase, a refund or another kind',
);
/** A refund: a transaction of type REFD (its own name in the document). */
export const v1RefundSchema = named(
  v1TransactionSchema.extend({
    purchase: z.union([z.number().int().nullable(), v1TransactionSchema]).describe('the purchase refunded: its id (as origin_transaction_id), or with expand[]=purchase the Transaction itself'),
  }),
  'Refund',
  'A refund: a transaction of type REFD; purchase (origin_transaction_id) is its purchase; expandable',
);
export type V1Transaction = z.infer<typeof v1TransactionSchema>;

export function toV1Transaction(r: TxnDbRow & { gw_trans_id: string }, metadata: Record<string, string> = {}): V1Transaction {
  return {
    id: Number(r.id),
    gateway_id: r.gw_trans_id,
    merchant_id: r.mer_id,
    order_no: r.order_no,
    origin_order_no: r.origin_order_no,
    origin_transaction_id: r.origin_txn_id === null || r.origin_txn_id === undefined ? null : Number(r.origin_txn_id),
    type: r.tran_type,
    status: statusOf(r.gw_response),
    response_code: r.gw_response,
    response_message: r.resp_msg,
    amount: money(r.amount * (r.tran_type === 'MANENTD' ? r.amount_sign : 1), r.currency),
    currency: r.currency,
    refunded_amount: money(r.return_amount, r.currency),
    payment_schema: r.payment_schema,
    payment_brand: r.payment_brand,
    merchant_reference: r.mer_reserve,
    created_at: new Date(r.txn_time).toISOString(),
    settlement: {
      state: settleStateOf(r.settle_flag, r.gw_response),
      date: r.settle_date,
      currency: r.settle_currency,
      amount: r.settle_amount === null ? null : money(r.settle_amount, r.settle_currency),
      fee: r.settle_fee === null ? null : money(r.settle_fee, r.settle_currency),
    },
    metadata,
  };
}
