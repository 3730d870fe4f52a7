import { z } from 'zod';
import { webhookEvent } from '../contract';

/** The disputes' webhook events (migration 160's trigger; issue 45 §3, decision 079). */
const legacy = z.strictObject({
  id: z.string().describe("the network's dispute id"),
  disputeId: z.number().int().describe('the dispute: its /v1 id'),
  merId: z.string(),
  kind: z.string(),
  state: z.string(),
  brand: z.string().nullable(),
  reasonCode: z.string().nullable(),
  amount: z.string().describe("decimal string in the currency's exponent"),
  currency: z.string(),
  deadline: z.string().nullable(),
  transactionId: z.number().int().nullable().describe('the purchase disputed: its /v1 id'),
  gatewayId: z.string().nullable().describe("the purchase's gateway id"),
  outcome: z.string().nullable().describe('closed: won, lost, accepted or expired'),
});
const current = legacy.extend({
  id: z.number().int().describe('the dispute: its /v1 id (GET /v1/disputes/{id})'),
  gatewayDisputeId: z.string().describe("the network's dispute id"),
  deadline: z.string().nullable().describe('ISO-8601 UTC'),
});
const data = { '2026-12-01': legacy, '2026-12-03': current };

export const DISPUTE_EVENTS = [
  webhookEvent('dispute.created', 'a dispute arrived', data),
  webhookEvent('dispute.updated', 'a dispute changed state (the answer submitted: under review)', data),
  webhookEvent('dispute.closed', 'a dispute closed with its outcome', data),
];
