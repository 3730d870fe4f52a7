// Calendar-date arithmetic: one copy for every module (lib/dates.ts, issue 45).
import { addDays, daysBetween } from '../../lib/dates';

export { addDays, daysBetween };
/** Calendar helpers of the payment core: dates are 'YYYY-MM-DD' strings in the platform zone. */

export const pad = (n: number) => String(n).padStart(2, '0');
// Zones: the one zone module (lib/zone.ts, issue 45).
export { isDate, platformDate, zonedInstant, zoneOffsetMs } from '../../lib/zone';

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoDow(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The next business day (Monday–Friday) after `date`. */
export function nextBusinessDay(date: string): string {
  let d = addDays(date, 1);
  while (isoDow(d) > 5) d = addDays(d, 1);
  return d;
}

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** 'YYYYMMDD' of a date string. */
export const compact = (date: string) => date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10);
