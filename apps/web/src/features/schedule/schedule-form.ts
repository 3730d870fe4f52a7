import type { Schedule, ScheduleKind } from '@portal/contract';
import { dayjs, displayZone } from '../../lib/time';
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
  frequency: 'daily', time: dayjs('2000-01-01 08:00'), weekday: 1, monthDay: 1, timeZone: displayZone(), format: 'xlsx', recipients: [email],
});

export const valuesOf = (s: Schedule): ScheduleFormValues => ({
  frequency: s.frequency, time: dayjs(`2000-01-01 ${s.time}`), weekday: s.weekday ?? 1, monthDay: s.monthDay ?? 1,
  timeZone: s.timeZone, format: s.format, recipients: s.recipients,
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

const RANGES = [['beginDate', 'endDate'], ['remitBeginDate', 'remitEndDate'], ['releaseBeginDate', 'releaseEndDate']] as const;
/** Display-only keys of the transaction list's wire query (the zone and the picker's own values). */
const HIDDEN = new Set(['beginDateOriginal', 'endDateOriginal', 'timeZone']);

/** The filters as the user reads them: each range as 'from ~ to', the other values after it. */
export function filterSummary(params: Record<string, unknown>): string[] {
  const used = new Set<string>(HIDDEN);
  const out: string[] = [];
  for (const [b, e] of RANGES) {
    if (params[b] || params[e]) out.push(`${String(params[b] ?? '')} ~ ${String(params[e] ?? '')}`);
    used.add(b).add(e);
  }
  for (const [k, v] of Object.entries(params)) if (!used.has(k) && v !== undefined && v !== null && v !== '') out.push(String(v));
  return out;
}
