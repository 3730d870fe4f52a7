import { dayjs, displayZone, toPlatform, zoneOffsetMinutes } from '../../lib/time';

/** The calendar day ('YYYY-MM-DD') of the instant `now` in `zone` (the user's chosen zone by default). */
export function dayInZone(now: number = Date.now(), zone: string = displayZone()): string {
  return dayjs.utc(now + zoneOffsetMinutes(zone, now) * 60_000).format('YYYY-MM-DD');
}

export function addDays(day: string, n: number): string {
  return dayjs.utc(day).add(n, 'day').format('YYYY-MM-DD');
}

/**
 * The whole of `day` in `zone`, as the API's range (platform-zone wire times, both ends included):
 * 2026-11-10 in Tokyo → '2026-11-09 23:00:00' … '2026-11-10 22:59:59' (platform UTC+8). The offset
 * is the zone's at each end, so a day with a DST change is 23 or 25 hours long.
 */
export function dayRange(day: string, zone: string = displayZone()): { beginDate: string; endDate: string } {
  const at = (wall: string) => {
    const guess = Date.parse(`${wall.replace(' ', 'T')}Z`);
    return zoneOffsetMinutes(zone, guess - zoneOffsetMinutes(zone, guess) * 60_000) / 60;
  };
  const begin = `${day} 00:00:00`;
  const end = `${day} 23:59:59`;
  return { beginDate: toPlatform(begin, at(begin)), endDate: toPlatform(end, at(end)) };
}

/** 'Wednesday, 25 November' for a 'YYYY-MM-DD' in `lang` (the day as named, whatever the machine's zone). */
export function dayLabel(day: string, lang: string, opts: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric' }): string {
  return new Intl.DateTimeFormat(lang, { ...opts, timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));
}
