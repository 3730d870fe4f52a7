import { z } from 'zod';
import { named } from './v1.registry';
import { v1ErrorSchema } from './v1.errors';
export { toV1Transaction, v1RefundSchema, v1TransactionSchema, type V1Transaction } from '../txn';

named(v1ErrorSchema, 'Error', "Every refusal: type (what a client branches on), code (the precise reason), message in the key's language, param at fault, request_id");

/** A cursor-paged list (named `id` in the document: e.g. TransactionList). */
export const listOf = <T extends z.ZodTypeAny>(item: T, id: string) =>
  named(
    z.object({
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
    }),
    id,
  );

/** A refund above the merchant's four-eyes limit, waiting for (or decided by) a second user (issue 47). */
export const v1RefundApprovalSchema = named(
  z.object({
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
  }),
  'RefundApproval',
);
export type V1RefundApproval = z.infer<typeof v1RefundApprovalSchema>;
