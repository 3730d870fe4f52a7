import { z } from 'zod';
import { isoDate } from './input';
import type { OpsRole } from './ops';

/**
 * The back office's runs screen (issue 26, decision 045): who may read it and who may act.
 * Reading: the administrator, risk and support (they answer "was my money settled?", "where is my
 * export?"); acting (re-run a settlement date, retry a failed job): the administrator only — both
 * start money-moving or mail-sending work on the provider's side.
 */
export const OPS_RUNS_READ_ROLES: readonly OpsRole[] = ['risk', 'support'];
export const OPS_RUNS_WRITE_ROLES: readonly OpsRole[] = [];

/** A range of settlement dates (at most 92 days). */
export const opsSettlementRunsQuerySchema = z
  .object({ from: isoDate, to: isoDate })
  .refine((v) => v.from <= v.to && Date.parse(v.to) - Date.parse(v.from) <= 92 * 86400000, { path: ['to'], message: 'from ≤ to, at most 92 days' });

export const opsRunDateParam = z.object({ date: isoDate });

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
