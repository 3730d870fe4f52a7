import { z } from 'zod';
import { settleStateOf } from '@portal/contract';
import { money, type TxnDbRow } from '../txn/txn.row';

/** The error body as JSON schema, for the document's error responses (v1.errors.ts has the zod one). */
export const v1ErrorJsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message', 'param', 'request_id'],
      properties: {
        type: {
          type: 'string',
          enum: ['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'idempotency_error', 'refund_error', 'rate_limit_error', 'api_error'],
        },
        code: { type: 'string', description: 'the precise reason, e.g. api_key_revoked, parameter_invalid, amount_too_large' },
        message: { type: 'string', description: "in the key's language" },
        param: { type: 'string', nullable: true, description: 'the parameter at fault' },
        request_id: { type: 'string' },
      },
    },
  },
} as const;

const STATUS = ['succeeded', 'failed', 'processing'] as const;
export const statusOf = (gwResponse: string | null): (typeof STATUS)[number] => (gwResponse === '00' ? 'succeeded' : !gwResponse || gwResponse === '04' ? 'processing' : 'failed');

export const v1TransactionSchema = z.object({
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
});
export type V1Transaction = z.infer<typeof v1TransactionSchema>;

export function toV1Transaction(r: TxnDbRow & { gw_trans_id: string }): V1Transaction {
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
  };
}

export const listOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
  });

/** A refund above the merchant's four-eyes limit, waiting for (or decided by) a second user (issue 47). */
export const v1RefundApprovalSchema = z.object({
  id: z.number().int().describe("the approval request's id (the portal's Team → Approvals; GET /v1/refund-approvals/{id})"),
  status: z.enum(['pending', 'approved', 'rejected', 'expired']).describe('pending until a second user of the merchant decides it, or it expires'),
  transaction_id: z.number().int().nullable().describe('the purchase to refund'),
  amount: z.string().describe("decimal string in the purchase's currency"),
  currency: z.string(),
  created_at: z.string().describe('ISO-8601, UTC'),
  expires_at: z.string().describe('ISO-8601, UTC: not decided by then, it expires'),
  decided_at: z.string().nullable(),
  refund_id: z.number().int().nullable().describe('approved: the refund made (GET /v1/refunds/{id}); else null'),
  failure_message: z.string().nullable().describe('approved but the refund was refused (e.g. no longer refundable): why, in the language of the approver'),
});
export type V1RefundApproval = z.infer<typeof v1RefundApprovalSchema>;
