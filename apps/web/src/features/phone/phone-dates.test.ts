import { describe, expect, it } from 'vitest';
import { addDays, dayInZone, dayLabel, dayRange } from './phone-dates';

describe('phone home screen days', () => {
  it("names the day of an instant in the user's zone", () => {
    const t = Date.parse('2026-11-10T20:30:00Z');
    expect(dayInZone(t, 'UTC')).toBe('2026-11-10');
    expect(dayInZone(t, 'Asia/Tokyo')).toBe('2026-11-11');
    expect(dayInZone(t, 'America/Los_Angeles')).toBe('2026-11-10');
  });

  it("gives the whole day in the user's zone as platform-zone (UTC+8) wire times", () => {
    expect(dayRange('2026-11-10', 'Asia/Shanghai')).toEqual({ beginDate: '2026-11-10 00:00:00', endDate: '2026-11-10 23:59:59' });
    expect(dayRange('2026-11-10', 'Asia/Tokyo')).toEqual({ beginDate: '2026-11-09 23:00:00', endDate: '2026-11-10 22:59:59' });
    expect(dayRange('2026-11-10', 'UTC')).toEqual({ beginDate: '2026-11-10 08:00:00', endDate: '2026-11-11 07:59:59' });
    // A DST change inside the day: New York's 2026-11-01 is 25 hours (EDT −4 at its start, EST −5 at its end).
    expect(dayRange('2026-11-01', 'America/New_York')).toEqual({ beginDate: '2026-11-01 12:00:00', endDate: '2026-11-02 12:59:59' });
  });

  it("counts days and names them in the user's language", () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-11-10', -8)).toBe('2026-11-02');
    expect(dayLabel('2026-11-10', 'en', { weekday: 'long' })).toBe('Tuesday');
    expect(dayLabel('2026-11-10', 'ja', { weekday: 'long' })).toBe('火曜日');
  });
});
