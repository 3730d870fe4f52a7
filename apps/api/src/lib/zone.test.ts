import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatInZone, offsetLabel, platformDate, zoneOffsetMinutes, zonedInstant, zonedToUtc } from './zone';

describe('lib/zone: the one zone module', () => {
  it('Lord Howe moves by 30 minutes on a half hour: the offset is right on both sides of it', () => {
    // 2026-10-04 02:00 local (+10:30) becomes 02:30 (+11:00): the instant is 2026-10-03 15:30 UTC.
    const at = Date.UTC(2026, 9, 3, 15, 30);
    expect(zoneOffsetMinutes('Australia/Lord_Howe', at - 60_000)).toBe(630);
    expect(zoneOffsetMinutes('Australia/Lord_Howe', at)).toBe(660);
    expect(formatInZone(at - 1000, 'Australia/Lord_Howe')).toBe('2026-10-04 01:59:59');
    expect(formatInZone(at, 'Australia/Lord_Howe')).toBe('2026-10-04 02:30:00');
    expect(offsetLabel('Australia/Lord_Howe', at)).toBe('UTC+11:00');
  });

  it("the calendar date of an instant is the date part of its wall time, and a day's start reads back as midnight", () => {
    const zones = ['Asia/Shanghai', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC', 'Pacific/Kiritimati'];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }), fc.constantFrom(...zones), (ms, tz) => {
        const day = platformDate(ms, tz);
        expect(formatInZone(ms, tz).slice(0, 10)).toBe(day);
        const start = zonedInstant(day, tz);
        expect(start.getTime()).toBe(zonedToUtc(day, tz).getTime());
        expect(start.getTime()).toBeLessThanOrEqual(ms);
      }),
      { numRuns: 1500 },
    );
  });
});
