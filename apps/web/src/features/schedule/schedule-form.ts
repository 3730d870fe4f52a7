import type { Schedule, ScheduleKind } from '@portal/contract';
import { dayjs, displayZone, formatPlatform, offsetLabel, zoneOffsetLabel } from '../../lib/time';
import type { ScheduleForm } from './api/schedules';

/** The dialog's fields (the time as a dayjs for the picker, recipients as a list). */
export interface ScheduleFormValues {
  frequency: Schedule['frequency'];
  time: dayjs.Dayjs;
  weekday?: number;
  monthDay?: number;
  timeZone: string;
  format: Schedule['format'];
  recipients: string[];
}

/** What a new schedule starts as: daily at 08:00 in the user's display zone, XLSX, to the user. */
export const newScheduleValues = (email: string): ScheduleFormValues => ({
  frequency: 'daily',
  time: dayjs('2000-01-01 08:00'),
  weekday: 1,
  monthDay: 1,
  timeZone: displayZone(),
  format: 'xlsx',
  recipients: [email],
});

export const valuesOf = (s: Schedule): ScheduleFormValues => ({
  frequency: s.frequency,
  time: dayjs(`2000-01-01 ${s.time}`),
  weekday: s.weekday ?? 1,
  monthDay: s.monthDay ?? 1,
  timeZone: s.timeZone,
  format: s.format,
  recipients: s.recipients,
});

/** The form post of create / update. Empty filter values are left out of the stored filters. */
export function toScheduleForm(kind: ScheduleKind, params: Record<string, unknown>, v: ScheduleFormValues, id?: number): ScheduleForm {
  const kept = Object.fromEntries(Object.entries(params).filter(([, x]) => x !== undefined && x !== null && x !== ''));
  return {
    ...(id ? { id } : {}),
    kind,
    params: JSON.stringify(kept),
    format: v.format,
    frequency: v.frequency,
    time: v.time.format('HH:mm'),
    weekday: v.frequency === 'weekly' ? v.weekday : undefined,
    monthDay: v.frequency === 'monthly' ? v.monthDay : undefined,
    timeZone: v.timeZone,
    recipients: v.recipients.join(','),
  };
}

/** The i18n key of a kind's name (schedule namespace). */
export const kindKey = (kind: ScheduleKind) => `kind.${kind}`;

const RANGES = [
  ['beginDate', 'endDate'],
  ['remitBeginDate', 'remitEndDate'],
  ['releaseBeginDate', 'releaseEndDate'],
] as const;
/** Display-only keys of the transaction list's wire query (the zone and the picker's own values). */
const HIDDEN = new Set(['beginDateOriginal', 'endDateOriginal', 'timeZone']);

const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/**
 * The filters as the user reads them: each range as 'from ~ to', the other values after it. Times
 * are never shown in the platform zone the wire speaks (issue 29 §2): a range picked with the
 * transaction list's zone selector shows as picked, with that zone ('… (UTC+0)'); another
 * date-time range shows in the user's zone, labelled. Date-only ranges (reports) show as they are.
 */
export function filterSummary(params: Record<string, unknown>): string[] {
  const used = new Set<string>(HIDDEN);
  const out: string[] = [];
  const picked = params.beginDateOriginal || params.endDateOriginal;
  const tz = params.timeZone === undefined || params.timeZone === '' ? NaN : Number(params.timeZone);
  for (const [b, e] of RANGES) {
    used.add(b).add(e);
    if (!params[b] && !params[e]) continue;
    if (b === 'beginDate' && picked && Number.isFinite(tz)) {
      out.push(`${String(params.beginDateOriginal ?? '')} ~ ${String(params.endDateOriginal ?? '')} (${offsetLabel(tz)})`);
    } else if ([params[b], params[e]].some((v) => typeof v === 'string' && DATE_TIME.test(v))) {
      const show = (v: unknown) => (typeof v === 'string' && DATE_TIME.test(v) ? formatPlatform(v) : String(v ?? ''));
      out.push(`${show(params[b])} ~ ${show(params[e])} (${zoneOffsetLabel(displayZone())})`);
    } else out.push(`${String(params[b] ?? '')} ~ ${String(params[e] ?? '')}`);
  }
  for (const [k, v] of Object.entries(params)) if (!used.has(k) && v !== undefined && v !== null && v !== '') out.push(String(v));
  return out;
}
