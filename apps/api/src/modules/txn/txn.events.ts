import { z } from 'zod';
import { metadataSchema } from '../../lib/v1-registry';
import { webhookEvent } from '../contract';
import { v1RefundSchema, v1TransactionSchema } from './txn.public';

/**
 * The transactions' webhook events (issue 45 §3, decision 079), recorded by migration 075's
 * triggers (a purchase or refund that becomes final) and refund_approval.decided (migration 120:
 * a refund that waited for four eyes, decided). From Portal-Version 2026-12-03 a transaction.*
 * event's `data` is the Transaction GET /v1/transactions/{id} answers, a refund.* event's the
 * Refund of GET /v1/refunds/{id}, as the row was when the event happened.
 */
const iso = 'ISO-8601 UTC';
const pgTime = "PostgreSQL's JSON form (2026-11-10T04:00:00+00:00)";
const legacyTxn = z.strictObject({
  id: z.string().describe('the gateway transaction id'),
  merId: z.string(),
  orderNo: z.string(),
  type: z.string().describe('PURC purchase, REFD refund'),
  amount: z.string().describe("decimal string in the currency's exponent"),
  currency: z.string(),
  channel: z.string().nullable(),
  brand: z.string().nullable(),
  gwResponse: z.string().describe('00 succeeded, else failed'),
  respMsg: z.string().nullable(),
  time: z.string().describe(pgTime),
  originalOrderNo: z.string().nullable().describe("a refund's purchase order number"),
  storeId: z.string().nullable(),
  metadata: metadataSchema,
});

const decided = (times: string) =>
  z.strictObject({
    approvalId: z.number().int().describe("the approval request's id (GET /v1/refund-approvals/{id})"),
    status: z.enum(['approved', 'rejected', 'expired']),
    transactionId: z.number().int().nullable().describe('the purchase to refund: its /v1 id'),
    gatewayId: z.string().nullable().describe("the purchase's gateway id"),
    orderNo: z.string().nullable(),
    amount: z.string().nullable().describe('the amount asked, a decimal string'),
    currency: z.string().nullable(),
    refundId: z.number().int().nullable().describe('approved and made: the refund (GET /v1/refunds/{id})'),
    refundCode: z.number().int().nullable().describe("approved: the refund's answer code (0 made)"),
    requestedAt: z.string().describe(times),
    decidedAt: z.string().describe(times),
    expiresAt: z.string().describe(times),
  });

const txnEvent = (type: string, description: string) => webhookEvent(type, description, { '2026-12-01': legacyTxn, '2026-12-03': type.startsWith('refund.') ? v1RefundSchema : v1TransactionSchema });

export const TXN_EVENTS = [
  txnEvent('transaction.succeeded', 'a purchase succeeded (final): the Transaction'),
  txnEvent('transaction.failed', 'a purchase failed (final): the Transaction'),
  txnEvent('refund.succeeded', 'a refund succeeded (final): the Refund'),
  txnEvent('refund.failed', 'a refund failed (final): the Refund'),
  webhookEvent('refund_approval.decided', 'a refund that waited for four eyes was approved (with the refund made), rejected or expired', {
    '2026-12-01': decided(pgTime),
    '2026-12-03': decided(iso).extend({ id: z.number().int().describe('the approval request: its /v1 id (as approvalId)') }),
  }),
];
