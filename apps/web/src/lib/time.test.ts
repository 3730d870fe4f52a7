import { describe, expect, it } from 'vitest';
import { displayOffsetHours, browserZone, dayjs, defaultOffset, displayZone, formatInstant, formatPlatform, fromPlatform, offsetLabel, setChosenZone, toPlatform, UTC_OFFSETS } from './time';

describe('time zones (spec §9: the wire speaks Asia/Shanghai)', () => {
  it('turns a wall-clock time picked at UTC+9 into the platform time', () => {
    expect(toPlatform('2024-05-01 09:00:00', 9)).toBe('2024-05-01 08:00:00');
    expect(toPlatform(dayjs('2024-05-01 00:30:00'), -5)).toBe('2024-05-01 13:30:00');
    expect(toPlatform('2024-05-01 23:00:00', 8)).toBe('2024-05-01 23:00:00');
  });

  it('shows a platform time in another zone', () => {
    expect(fromPlatform('2024-05-01 08:00:00', 'Asia/Tokyo').format('YYYY-MM-DD HH:mm:ss')).toBe('2024-05-01 09:00:00');
    expect(formatPlatform('2024-01-15 02:00:00', 'Europe/London')).toBe('2024-01-14 18:00:00');
    expect(formatPlatform(null)).toBe('');
  });

  it('shows an instant in the browser zone', () => {
    expect(formatInstant('2024-05-01T00:00:00.000Z', 'YYYY-MM-DD')).toMatch(/^2024-0[45]-\d\d$/);
    expect(formatInstant(undefined)).toBe('');
  });

  it('offers UTC-12 to UTC+14', () => {
    expect(UTC_OFFSETS[0]).toBe(-12);
    expect(UTC_OFFSETS.at(-1)).toBe(14);
    expect(UTC_OFFSETS).toHaveLength(27);
    expect(offsetLabel(8)).toBe('UTC+8');
    expect(offsetLabel(-3.5)).toBe('UTC-3:30');
    expect(offsetLabel(0)).toBe('UTC+0');
  });

  it("shows every time in the zone the user chose, and the browser's again when cleared", () => {
    try {
      setChosenZone('Asia/Tokyo');
      expect(displayZone()).toBe('Asia/Tokyo');
      expect(formatPlatform('2024-05-01 08:00:00')).toBe('2024-05-01 09:00:00');
      expect(formatInstant('2024-05-01T23:30:00.000Z')).toBe('2024-05-02 08:30');
      expect(displayOffsetHours(new Date('2024-05-01T00:00:00Z'))).toBe(9);
      expect(defaultOffset()).toBe(9);
      setChosenZone('America/New_York');
      // Summer and winter offsets of the chosen zone, whatever the machine's zone is.
      expect(displayOffsetHours(new Date('2024-07-01T12:00:00Z'))).toBe(-4);
      expect(displayOffsetHours(new Date('2024-01-15T12:00:00Z'))).toBe(-5);
      expect(formatInstant('2024-01-15T12:00:00.000Z')).toBe('2024-01-15 07:00');
      setChosenZone('Asia/Kolkata');
      expect(displayOffsetHours(new Date('2024-01-15T12:00:00Z'))).toBe(5.5);
      expect(defaultOffset()).toBe(8); // not a whole hour: the platform's
      setChosenZone('Not/AZone');
      expect(displayZone()).toBe(browserZone());
    } finally {
      setChosenZone(null);
    }
    expect(displayZone()).toBe(browserZone());
    expect(displayOffsetHours(new Date('2024-01-15T12:00:00Z'))).toBe(-new Date('2024-01-15T12:00:00Z').getTimezoneOffset() / 60);
  });
});
