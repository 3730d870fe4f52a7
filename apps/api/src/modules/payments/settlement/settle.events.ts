import { z } from 'zod';
import { webhookEvent } from '../../contract';

/**
 * The settlement run's webhook events (migration 075's triggers; issue 45 §3, decision 079):
 * settlement.transferred (a transfer of a merchant's business line and currency) and
 * reserve.released. Their amounts are decimal strings of `currency`; their dates are dates.
 */
const transferred = z.strictObject({
  merId: z.string(),
  settlementDate: z.string().describe('YYYY-MM-DD'),
  businessLine: z.string(),
  currency: z.string(),
  amount: z.string().describe('before the fee'),
  fee: z.string(),
  netAmount: z.string().describe('transferred'),
  remitDate: z.string().nullable().describe('YYYY-MM-DD'),
});
const released = z.strictObject({
  merId: z.string(),
  businessLine: z.string(),
  currency: z.string(),
  amount: z.string(),
  heldOn: z.string().describe('the settlement date it was held on, YYYY-MM-DD'),
  releaseDate: z.string().nullable().describe('YYYY-MM-DD'),
  transferDate: z.string().nullable().describe('YYYY-MM-DD'),
});

export const SETTLEMENT_EVENTS = [
  webhookEvent('settlement.transferred', 'a settlement was transferred', {
    '2026-12-01': transferred,
    '2026-12-03': transferred.extend({ id: z.string().describe('the settlement: its /v1 id, date.merchant.businessLine.currency (GET /v1/settlements/{id})') }),
  }),
  webhookEvent('reserve.released', 'a rolling reserve was released', { '2026-12-01': released, '2026-12-03': released }),
];
