import { z } from 'zod';
import { Perm, type Permission } from './permissions';
import { textInput, timeZoneInput } from './input';

/**
 * Scheduled reports (issue 13): a report screen or the transaction list, with its filters, e-mailed
 * as CSV or XLSX daily, weekly or monthly at a wall-clock time in an IANA zone.
 */
export const SCHEDULE_KINDS = ['txn', 'report.bill', 'report.transfer', 'report.summary', 'report.summaryOld', 'report.reserve'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** The export permission each kind needs, at creation and at every run. */
export const SCHEDULE_PERMISSION: Record<ScheduleKind, Permission> = {
  txn: Perm.txnExport,
  'report.bill': Perm.reportBill,
  'report.transfer': Perm.reportTransfer,
  'report.summary': Perm.reportTxn,
  'report.summaryOld': Perm.reportTxn,
  'report.reserve': Perm.reportReserve,
};
/** The screen each kind was scheduled from (the list's link back). */
export const SCHEDULE_SCREEN: Record<ScheduleKind, string> = {
  txn: '/txn/list',
  'report.bill': '/report/bill',
  'report.transfer': '/report/transfer',
  'report.summary': '/report/txn',
  'report.summaryOld': '/report/txn',
  'report.reserve': '/report/reserve',
};

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
/** At most this many recipients per schedule, and schedules per user. */
export const SCHEDULE_MAX_RECIPIENTS = 20;
export const SCHEDULE_MAX_PER_USER = 50;

/** 'HH:mm', 00:00 … 23:59. */
export const TIME_OF_DAY_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

const emailRe = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/**
 * Create / update form (application/x-www-form-urlencoded). `params` is the screen's wire query as
 * JSON (the filters in its URL); `recipients` comma-joined e-mail addresses of the merchant's users;
 * `weekday` 1 (Monday) … 7 for weekly; `monthDay` 1 … 31 for monthly (a shorter month: its last day).
 */
export const scheduleInputSchema = z
  .object({
    kind: z.enum(SCHEDULE_KINDS),
    params: textInput(4000).transform((s, ctx) => {
      try {
        const v: unknown = JSON.parse(s);
        if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch {
        /* below */
      }
      ctx.addIssue({ code: 'custom', message: 'params: a JSON object' });
      return z.NEVER;
    }),
    format: z.enum(['xlsx', 'csv']).default('xlsx'),
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    time: z.string().regex(TIME_OF_DAY_RE, 'time HH:mm'),
    weekday: z.coerce.number().int().min(1).max(7).optional(),
    monthDay: z.coerce.number().int().min(1).max(31).optional(),
    timeZone: timeZoneInput(),
    recipients: textInput(2000).transform((s, ctx) => {
      const list = [
        ...new Set(
          s
            .split(',')
            .map((x) => x.trim().toLowerCase())
            .filter(Boolean),
        ),
      ];
      if (!list.length || list.length > SCHEDULE_MAX_RECIPIENTS || !list.every((e) => emailRe.test(e))) {
        ctx.addIssue({ code: 'custom', message: `recipients: 1–${SCHEDULE_MAX_RECIPIENTS} e-mail addresses` });
        return z.NEVER;
      }
      return list;
    }),
  })
  .superRefine((v, ctx) => {
    if (v.frequency === 'weekly' && !v.weekday) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'weekday required' });
    if (v.frequency === 'monthly' && !v.monthDay) ctx.addIssue({ code: 'custom', path: ['monthDay'], message: 'monthDay required' });
  });
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

export const scheduleIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const scheduleUpdateSchema = z.intersection(scheduleIdSchema, scheduleInputSchema);

/** A run skipped for a lost permission or an inactive owner is 'failed', with the reason. */
export const SCHEDULE_RESULTS = ['sent', 'failed'] as const;

export const scheduleSchema = z.object({
  id: z.number(),
  kind: z.enum(SCHEDULE_KINDS),
  params: z.record(z.string(), z.unknown()),
  format: z.enum(['xlsx', 'csv']),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  time: z.string(),
  weekday: z.number().nullable(),
  monthDay: z.number().nullable(),
  timeZone: z.string(),
  recipients: z.array(z.string()),
  paused: z.boolean(),
  /** ISO instant of the next run (null while paused). */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastResult: z.enum(SCHEDULE_RESULTS).nullable(),
  lastError: z.string().nullable(),
  /** The file of the last run in the file report. */
  lastFileId: z.number().nullable(),
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** A user a schedule may be sent to (an active user of the caller's merchants). */
export const scheduleRecipientSchema = z.object({ username: z.string(), email: z.string() });
export type ScheduleRecipient = z.infer<typeof scheduleRecipientSchema>;
