import { z } from 'zod';
import { isoDate } from './input';
import type { OpsRole } from './ops';

/**
 * The back office's exchange-rates screen (issue 46, docs/backoffice.md "Exchange rates"): every
 * role reads rates and their history; risk (and the administrator) propose and decide a rate under
 * four eyes — the operator who proposed one may not approve it.
 */
export const OPS_RATES_READ_ROLES: readonly OpsRole[] = ['onboarding', 'risk', 'support', 'read-only'];
export const OPS_RATES_WRITE_ROLES: readonly OpsRole[] = ['risk'];

const currency = z.string().regex(/^[A-Z]{3}$/, 'a currency code such as USD');
/** A rate as typed: a decimal string above 0, ≤ 12 digits before and after the point (the server checks it as the provider API does). */
export const fxRateString = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,12})?$/, 'a decimal such as 7.8125')
  .refine((v) => /[1-9]/.test(v), 'above 0');

export const opsRatesQuerySchema = z
  .object({
    from: isoDate,
    to: isoDate,
    pair: z
      .string()
      .regex(/^[A-Z]{3}>[A-Z]{3}$/)
      .optional(),
  })
  .refine((v) => v.from <= v.to && Date.parse(v.to) - Date.parse(v.from) <= 92 * 86400000, { path: ['to'], message: 'from ≤ to, at most 92 days' });

export const opsRateHistoryQuerySchema = z.object({ date: isoDate, from: currency, to: currency });

export const opsRateProposeSchema = z.object({
  date: isoDate,
  from: currency,
  to: currency,
  rate: fxRateString,
  correction: z.boolean().default(false),
  note: z.string().trim().max(500).optional(),
});
export type OpsRatePropose = z.infer<typeof opsRateProposeSchema>;
