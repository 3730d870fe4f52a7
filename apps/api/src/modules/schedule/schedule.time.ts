import { daysInMonth } from '@portal/contract';
import type { ScheduleFrequency } from '@portal/contract';
import { isoDow } from '../payments';
import { platformDate, zoneOffsetMs } from '../../lib/zone';
import { addDays, daysBetween } from '../../lib/dates';

/** When a schedule runs: a wall-clock time on matching days, in an IANA zone. */
export interface Recurrence {
  frequency: ScheduleFrequency;
  /** 'HH:mm'. */
  time: string;
  /** 1 = Monday … 7 = Sunday (weekly). */
  weekday?: number | null;
  /** 1 … 31 (monthly); a month without that day runs on its last day. */
  monthDay?: number | null;
  timeZone: string;
}

const DAY = 86_400_000;

/**
 * The instant wall-clock `date` + `minutes` happens in `tz`. Twice (the clock goes back): the first.
 * Never (the clock jumps forward over it): the moment the clock would have shown it without the
 * jump — 02:30 on a spring-forward night in New York is 03:30 EDT.
 */
export function wallInstant(date: string, minutes: number, tz: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const before = zoneOffsetMs(tz, wall - DAY);
  const after = zoneOffsetMs(tz, wall + DAY);
  const fits = [...new Set([before, after])].map((o) => wall - o).filter((t) => t + zoneOffsetMs(tz, t) === wall);
  return fits.length ? Math.min(...fits) : wall - before;
}

/** True when the schedule runs on calendar date `date`. */
function runsOn(r: Recurrence, date: string): boolean {
  if (r.frequency === 'daily') return true;
  if (r.frequency === 'weekly') return isoDow(date) === r.weekday;
  const [y, m, d] = date.split('-').map(Number);
  return d === Math.min(r.monthDay ?? 1, daysInMonth(y, m));
}

/** The first run strictly after `after`. */
export function nextRun(r: Recurrence, after: Date): Date {
  const [h, mi] = r.time.split(':').map(Number);
  const minutes = h * 60 + mi;
  const t0 = after.getTime();
  let date = addDays(platformDate(t0, r.timeZone), -1);
  for (let i = 0; i < 400; i++, date = addDays(date, 1)) {
    if (!runsOn(r, date)) continue;
    const t = wallInstant(date, minutes, r.timeZone);
    if (t > t0) return new Date(t);
  }
  throw new Error('no next run within 400 days');
}

/** Hours `tz` is east of UTC at `at` (the export's time columns). */
export const offsetHours = (tz: string, at: Date) => zoneOffsetMs(tz, at.getTime()) / 3_600_000;

const DATE_KEYS = ['beginDate', 'endDate', 'remitBeginDate', 'remitEndDate', 'releaseBeginDate', 'releaseEndDate'];
const END_KEYS = ['endDate', 'remitEndDate', 'releaseEndDate'];

/**
 * The filters of a run: every date of the saved filters moves by the same number of days, so the
 * ranges keep their length and the latest end date is the day before the run (`runDate`, in the
 * schedule's zone). A 'YYYY-MM-DD HH:mm:ss' value keeps its time of day.
 */
export function rollParams(params: Record<string, unknown>, runDate: string): Record<string, unknown> {
  const ends = END_KEYS.map((k) => params[k])
    .filter((v): v is string => typeof v === 'string' && v.length >= 10)
    .map((v) => v.slice(0, 10));
  if (!ends.length) return params;
  const latest = ends.sort().at(-1)!;
  const shift = daysBetween(latest, addDays(runDate, -1));
  const out: Record<string, unknown> = { ...params };
  for (const k of DATE_KEYS) {
    const v = params[k];
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) out[k] = addDays(v.slice(0, 10), shift) + v.slice(10);
  }
  return out;
}

/** The calendar date of `at` in `tz`. */
export const dateIn = (at: Date, tz: string) => platformDate(at, tz);
