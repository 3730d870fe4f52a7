/**
 * Time zones, one copy for every module (issue 45 §1: the transactions and payments modules each
 * had their own offset arithmetic, cached differently, and bankrec a third formatter). A zone is
 * an IANA name (the platform zone, a user's chosen region) or a fixed offset in hours (the portal's
 * zone selector, UTC−12…UTC+14). Calendar-date arithmetic without zones is `lib/dates.ts`.
 */
import { isIsoDate } from '@portal/contract';

/** A zone: IANA name or fixed hours east of UTC. */
export type Zone = string | number;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const fmt = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();
/** Offsets are read per quarter hour: every zone's changes fall on such marks (Lord Howe's on :30). */
const BUCKET_MS = 900_000;

let lastZone = '';
let lastBucket = NaN;
let lastOffset = 0;

/** Milliseconds `tz` is ahead of UTC at instant `ms`. */
export function zoneOffsetMs(tz: string, ms: number): number {
  const bucket = Math.floor(ms / BUCKET_MS);
  // The rows of a page mostly share their quarter hour: the last answer first, without building a key.
  if (bucket === lastBucket && tz === lastZone) return lastOffset;
  const off = offsetAtBucket(tz, bucket);
  lastZone = tz;
  lastBucket = bucket;
  lastOffset = off;
  return off;
}

function offsetAtBucket(tz: string, bucket: number): number {
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
  const at = bucket * BUCKET_MS;
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const off = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - at;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, off);
  return off;
}

/** Minutes east of UTC that `tz` is at instant `ms`. */
export function zoneOffsetMinutes(tz: string, ms: number): number {
  return Math.round(zoneOffsetMs(tz, ms) / 60_000);
}

function offsetOf(zone: Zone, ms: number): number {
  return typeof zone === 'number' ? Math.round(zone * 60) : zoneOffsetMinutes(zone, ms);
}

/** '00'…'59': two digits without padStart (formatInZone writes every row of every list). */
const TWO = Array.from({ length: 60 }, (_, i) => pad(i));

/** 'YYYY-MM-DD HH:mm:ss' of instant `d` in `zone`. */
export function formatInZone(d: Date | string | number, zone: Zone): string {
  // Whole milliseconds first: Date truncates toward zero, so a fraction on a wall time before 1970
  // would round up to the next second (999.000…002 ms in New York wrote 19:00:01, not 19:00:00).
  const ms = Math.floor(typeof d === 'number' ? d : new Date(d).getTime());
  const x = new Date(ms + offsetOf(zone, ms) * 60_000);
  return `${x.getUTCFullYear()}-${TWO[x.getUTCMonth() + 1]}-${TWO[x.getUTCDate()]} ${TWO[x.getUTCHours()]}:${TWO[x.getUTCMinutes()]}:${TWO[x.getUTCSeconds()]}`;
}

/** The instant of wall time 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD') in `zone`. */
export function zonedToUtc(s: string, zone: Zone): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(s.trim());
  if (!m) throw new RangeError(`not a date-time: ${s}`);
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  let t = wall - offsetOf(zone, wall) * 60_000;
  t = wall - offsetOf(zone, t) * 60_000;
  return new Date(t);
}

/** 'UTC+08:00' for a zone at an instant. */
export function offsetLabel(zone: Zone, ms = Date.now()): string {
  const off = offsetOf(zone, ms);
  const sign = off < 0 ? '−' : '+';
  const a = Math.abs(off);
  return `UTC${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/**
 * Reads the list's time-zone selector: hours ('8', '-5', 'UTC+8', 'UTC−12') or an IANA name.
 * Falls back to `fallback` for anything else.
 */
export function parseZone(s: string | undefined | null, fallback: Zone): Zone {
  if (!s) return fallback;
  const m = /^(?:UTC|GMT)?\s*([+\-−]?\d{1,2}(?:\.\d+)?)(?::(\d{2}))?$/i.exec(s.trim());
  if (m) {
    const h = Number(m[1].replace('−', '-'));
    const v = h + (m[2] ? (Math.sign(h || 1) * Number(m[2])) / 60 : 0);
    return v >= -12 && v <= 14 ? v : fallback;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s });
    return s;
  } catch {
    return fallback;
  }
}

/** The calendar date of instant `d` in zone `tz`. */
export function platformDate(d: Date | number, tz: string): string {
  const ms = typeof d === 'number' ? d : d.getTime();
  return new Date(ms + zoneOffsetMs(tz, ms)).toISOString().slice(0, 10);
}

/** The instant wall time `date` + `minutesAfterMidnight` happens in `tz`. */
export function zonedInstant(date: string, tz: string, minutesAfterMidnight = 0): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutesAfterMidnight * 60_000;
  let t = wall - zoneOffsetMs(tz, wall);
  t = wall - zoneOffsetMs(tz, t);
  return new Date(t);
}

/** A real calendar date 'YYYY-MM-DD' (the contract's one date parser). */
export const isDate = (s: string): boolean => isIsoDate(s);
