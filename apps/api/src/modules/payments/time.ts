import { isIsoDate } from '@portal/contract';
/** Calendar helpers of the payment core: dates are 'YYYY-MM-DD' strings in the platform zone. */

const fmt = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
const pad = (n: number) => String(n).padStart(2, '0');

/** Milliseconds `tz` is ahead of UTC at instant `ms` (cached per 15 minutes: zones move on such marks). */
export function zoneOffsetMs(tz: string, ms: number): number {
  const bucket = Math.floor(ms / 900_000);
  const key = `${tz}|${bucket}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  let f = fmt.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    fmt.set(tz, f);
  }
  const at = bucket * 900_000;
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const off = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - at;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, off);
  return off;
}

/** The calendar date of instant `d` in zone `tz`. */
export function platformDate(d: Date | number, tz: string): string {
  const ms = typeof d === 'number' ? d : d.getTime();
  return new Date(ms + zoneOffsetMs(tz, ms)).toISOString().slice(0, 10);
}

/** The instant wall time `date` + `hhmm` minutes-after-midnight happens in `tz`. */
export function zonedInstant(date: string, tz: string, minutesAfterMidnight = 0): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutesAfterMidnight * 60_000;
  let t = wall - zoneOffsetMs(tz, wall);
  t = wall - zoneOffsetMs(tz, t);
  return new Date(t);
}

/** A real calendar date 'YYYY-MM-DD' (the contract's one date parser). */
export const isDate = (s: string): boolean => isIsoDate(s);

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

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
export { pad };
