import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { isTimeZone } from '@portal/contract';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The zone the wire speaks (spec §9): queries are sent in it, displayed times are converted from it. */
export const PLATFORM_TZ = 'Asia/Shanghai';
export const WIRE_DATETIME = 'YYYY-MM-DD HH:mm:ss';
export const WIRE_DATE = 'YYYY-MM-DD';

let browserZoneName: string | undefined;

/** On the server, the zone of the browser a page is rendered for (its `mp_tz` cookie, decision 050); undefined after. */
export function setBrowserZone(zone: string | undefined): void {
  browserZoneName = zone;
}

/** The browser's IANA zone, else the platform zone (read once per page load: a list formats hundreds of times). */
export function browserZone(): string {
  if (browserZoneName === undefined) {
    try {
      browserZoneName = Intl.DateTimeFormat().resolvedOptions().timeZone || PLATFORM_TZ;
    } catch {
      browserZoneName = PLATFORM_TZ;
    }
  }
  return browserZoneName;
}

/** One formatter per zone: building an Intl formatter is what makes dayjs's `.tz()` slow (~0.2 ms a call). */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const WALL_CLOCK: Intl.DateTimeFormatOptions = { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };

/**
 * Minutes east of UTC of `zone` at the instant `epochMs` (DST included), from the zone's wall clock
 * at that instant as Intl reads it — what dayjs's timezone plugin computes, with the formatter kept.
 */
export function zoneOffsetMinutes(zone: string, epochMs: number): number {
  let f = zoneFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: zone });
    zoneFormats.set(zone, f);
  }
  const wall: Record<string, number> = {};
  for (const part of f.formatToParts(epochMs)) if (part.type !== 'literal') wall[part.type] = Number(part.value);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour % 24, wall.minute, wall.second);
  return Math.round((asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000))) / 60_000);
}

/**
 * The wall clock of `zone` at the instant `epochMs`, as a dayjs in UTC mode: its fields — and so
 * `format` with any token but the offset's (Z) — are that wall clock, whatever the machine's own
 * zone and its DST changes. Only for showing a time. (dayjs's `.tz()` reads the zone's wall clock
 * back as a local time: in the hour the machine's own zone skips at a DST change it shows the
 * next hour — a New York or Sydney machine showed Tokyo's 02:00 as 03:00 on such a night.)
 */
function wallClockAt(epochMs: number, zone: string): Dayjs {
  return dayjs.utc(epochMs + zoneOffsetMinutes(zone, epochMs) * 60_000);
}

/** What dayjs shows for a time it cannot read. */
const INVALID = 'Invalid Date';
const WIRE_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The instant of a wall-clock time in `zone`, by the steps of dayjs's `tz()` parse (its fixOffset):
 * the wall clock read as UTC less the zone's offset, corrected once when the offset at the instant
 * found differs (a DST change between them); a time in a DST gap keeps its wall clock.
 */
function wallClockInstant(value: string, zone: string): number | null {
  const m = WIRE_PATTERN.exec(value);
  // The wire's format by hand (the common case, and the fast one); anything else as dayjs reads it.
  const wall = m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : dayjs.utc(value).valueOf();
  if (Number.isNaN(wall)) return null;
  const o0 = zoneOffsetMinutes(zone, wall);
  let guess = wall - o0 * 60_000;
  const o2 = zoneOffsetMinutes(zone, guess);
  if (o2 === o0) return guess;
  guess -= (o2 - o0) * 60_000;
  const o3 = zoneOffsetMinutes(zone, guess);
  return o3 === o2 ? guess : wall - Math.min(o2, o3) * 60_000;
}

/** The zone the signed-in user chose (user info page; null: the browser's). Set from /user/info. */
let chosenZone: string | null = null;

/** Sets the user's chosen zone (null or an unknown name: the browser's again). */
export function setChosenZone(zone: string | null | undefined): void {
  chosenZone = zone && isTimeZone(zone) ? zone : null;
}

/** The zone every shown time is in: the user's choice, else the browser's. */
export function displayZone(): string {
  return chosenZone ?? browserZone();
}

/**
 * Hours east of UTC of the display zone at `at` (X-Timezone-Offset, the list's default zone); may
 * be fractional (India +5.5). The browser's own offset when the user chose no zone.
 */
export function displayOffsetHours(at: Date = new Date()): number {
  // On the server (decision 050) the machine's zone is not the browser's: its zone is read by name.
  if (!chosenZone && typeof document === 'undefined') return zoneOffsetMinutes(browserZone(), at.getTime()) / 60;
  if (!chosenZone) return -at.getTimezoneOffset() / 60 + 0; // + 0: UTC is 0, never -0
  return zoneOffsetMinutes(chosenZone, at.getTime()) / 60;
}

/** Every IANA zone the browser knows (Intl), with `current` first when it is not among them. */
export function allTimeZones(current?: string): string[] {
  let all: string[] = [];
  try {
    all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    all = [];
  }
  if (!all.includes('UTC')) all = [...all, 'UTC'];
  return !current || all.includes(current) ? all : [current, ...all];
}

/** 'UTC+9', 'UTC-3:30': the offset of `zone` now. */
export function zoneOffsetLabel(zone: string, at: Date = new Date()): string {
  return offsetLabel(zoneOffsetMinutes(zone, at.getTime()) / 60);
}

/** UTC-12 … UTC+14, the time-zone selector's choices (spec §9). */
export const UTC_OFFSETS: number[] = Array.from({ length: 27 }, (_, i) => i - 12);

export function offsetLabel(hours: number): string {
  const sign = hours < 0 ? '-' : '+';
  const abs = Math.abs(hours);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** The selector's default: the display zone's whole-hour offset when it is one of the choices, else the platform's (+8). */
export function defaultOffset(): number {
  const h = displayOffsetHours();
  return Number.isInteger(h) && UTC_OFFSETS.includes(h) ? h : 8;
}

/**
 * A wall-clock time picked in a zone `hours` east of UTC, as the platform-zone wire string.
 * e.g. 2024-05-01 09:00 picked at UTC+9 → '2024-05-01 08:00:00'.
 */
export function toPlatform(wallClock: Dayjs | string, hours: number): string {
  const local = typeof wallClock === 'string' ? wallClock : wallClock.format(WIRE_DATETIME);
  const instant = dayjs.utc(local).subtract(hours * 60, 'minute');
  return wallClockAt(instant.valueOf(), PLATFORM_TZ).format(WIRE_DATETIME);
}

/** The instant of a platform-zone wire time (null when unreadable), whatever the machine's own zone. */
export function platformInstant(value: string): number | null {
  return wallClockInstant(value, PLATFORM_TZ);
}

/** Shows a platform-zone wire time in the display zone (the user's choice, else the browser's). */
export function formatPlatform(value: string | null | undefined, zone?: string): string {
  if (!value) return '';
  const instant = wallClockInstant(value, PLATFORM_TZ);
  return instant === null ? INVALID : wallClockAt(instant, zone ?? displayZone()).format(WIRE_DATETIME);
}

/** Shows an ISO instant (e.g. `2024-05-01T02:00:00.000Z`) in the display zone. */
export function formatInstant(iso: string | null | undefined, format = 'YYYY-MM-DD HH:mm'): string {
  if (!iso) return '';
  const instant = dayjs(iso);
  if (!instant.isValid()) return INVALID;
  const zone = displayZone();
  const ms = instant.valueOf();
  // The wall clock's own offset is UTC's: an offset token (Z, ZZ) is written in as the zone's.
  const offset = zoneOffsetMinutes(zone, ms);
  const hhmm = (sep: string) => `${offset < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}${sep}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  const withOffset = format.replace(/\[[^\]]*\]|ZZ|Z/g, (t) => (t === 'ZZ' ? `[${hhmm('')}]` : t === 'Z' ? `[${hhmm(':')}]` : t));
  return dayjs.utc(ms + offset * 60_000).format(withOffset);
}

export { dayjs };

/**
 * Now on the display zone's wall clock, as a local dayjs whose fields (date, hour) are that zone's:
 * "today" of every date filter and preset. The same on the server (decision 050: the zone the page
 * is rendered for) and in the browser taking the page over — `dayjs()` is the machine's own zone, so
 * after 16:00 UTC a server in UTC and a browser at UTC+8 rendered two different days (issue 53).
 */
export function zoneNow(zone: string = displayZone(), now: number = Date.now()): Dayjs {
  const w = wallClockAt(now, zone);
  return dayjs(new Date(w.year(), w.month(), w.date(), w.hour(), w.minute(), w.second(), w.millisecond()));
}

/**
 * A platform-zone wire time shown in the display zone with the zone's offset at that instant
 * ('2026-11-29 23:37:00 UTC+0'; issue 53: a time never stands without its zone).
 */
export function formatPlatformLabelled(value: string | null | undefined, zone: string = displayZone()): string {
  if (!value) return '';
  const instant = wallClockInstant(value, PLATFORM_TZ);
  if (instant === null) return INVALID;
  return `${wallClockAt(instant, zone).format(WIRE_DATETIME)} ${offsetLabel(zoneOffsetMinutes(zone, instant) / 60)}`;
}

/** An ISO instant shown in the display zone with the zone's offset at that instant ('2026-11-29 23:37 UTC+0'). */
export function formatInstantLabelled(iso: string | null | undefined, format = 'YYYY-MM-DD HH:mm'): string {
  if (!iso) return '';
  const ms = dayjs(iso).valueOf();
  if (Number.isNaN(ms)) return INVALID;
  return `${formatInstant(iso, format)} ${offsetLabel(zoneOffsetMinutes(displayZone(), ms) / 60)}`;
}
