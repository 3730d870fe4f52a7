import { z } from 'zod';
import { metadataSchema } from '../../lib/v1-registry';
import { webhookEvent, type WebhookEventDef } from '../contract';

/**
 * The orders' webhook events (migrations 075, 193, 230: the order's trigger; issue 45 §3, decision
 * 079): paylink.paid / closed / expired, and instore.paid — an in-store order is an order of this
 * table (prod_category payinstore) and its one trigger writes all four, so this module declares it.
 */
const legacy = z.strictObject({
  orderNo: z.string(),
  merId: z.string(),
  invoiceId: z.string().nullable(),
  storeId: z.string().nullable(),
  amount: z.string().describe("decimal string in the currency's exponent"),
  currency: z.string(),
  goodsName: z.string().nullable(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  transactionId: z.string().nullable().describe("the payment's gateway transaction id"),
  metadata: metadataSchema.nullable(),
});
const current = legacy.extend({
  id: z.number().int().nullable().describe('the order: its /v1 id'),
  transactionId: z.number().int().nullable().describe('the payment: its /v1 transaction id'),
  gatewayId: z.string().nullable().describe("the payment's gateway transaction id"),
  paidAt: z.string().nullable().describe('ISO-8601 UTC'),
  closedAt: z.string().nullable().describe('ISO-8601 UTC'),
  expiresAt: z.string().nullable().describe('ISO-8601 UTC'),
});

/** An order event: its payload in both forms. */
const orderEvent = (type: string, description: string): WebhookEventDef => webhookEvent(type, description, { '2026-12-01': legacy, '2026-12-03': current });

export const PAYLINK_EVENTS = [
  orderEvent('paylink.paid', 'a pay-by-link order was paid'),
  orderEvent('paylink.closed', 'a pay-by-link order was closed by the merchant'),
  orderEvent('paylink.expired', 'a pay-by-link order expired unpaid'),
  orderEvent('instore.paid', 'an in-store order was paid (its dynamic QR)'),
];
