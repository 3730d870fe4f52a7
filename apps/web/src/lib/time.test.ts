import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  displayOffsetHours,
  browserZone,
  dayjs,
  defaultOffset,
  displayZone,
  formatInstant,
  formatPlatform,
  formatPlatformLabelled,
  formatInstantLabelled,
  offsetLabel,
  setChosenZone,
  toPlatform,
  UTC_OFFSETS,
  zoneNow,
  zoneOffsetLabel,
  zoneOffsetMinutes,
} from './time';

describe('time zones (spec §9: the wire speaks Asia/Shanghai)', () => {
  it('turns a wall-clock time picked at UTC+9 into the platform time', () => {
    expect(toPlatform('2024-05-01 09:00:00', 9)).toBe('2024-05-01 08:00:00');
    expect(toPlatform(dayjs('2024-05-01 00:30:00'), -5)).toBe('2024-05-01 13:30:00');
    expect(toPlatform('2024-05-01 23:00:00', 8)).toBe('2024-05-01 23:00:00');
  });

  it('shows a platform time in another zone', () => {
    expect(formatPlatform('2024-05-01 08:00:00', 'Asia/Tokyo')).toBe('2024-05-01 09:00:00');
    expect(formatPlatform('2024-01-15 02:00:00', 'Europe/London')).toBe('2024-01-14 18:00:00');
    expect(formatPlatform(null)).toBe('');
  });

  it('shows an instant in the browser zone', () => {
    expect(formatInstant('2024-05-01T00:00:00.000Z', 'YYYY-MM-DD')).toMatch(/^2024-0[45]-\d\d$/);
    expect(formatInstant(undefined)).toBe('');
  });

  it('labels a platform time with the zone it is shown in, DST included (issue 53)', () => {
    expect(formatPlatformLabelled('2026-11-30 07:37:00', 'UTC')).toBe('2026-11-29 23:37:00 UTC+0');
    expect(formatPlatformLabelled('2026-11-30 07:37:00', 'Asia/Kolkata')).toBe('2026-11-30 05:07:00 UTC+5:30');
    expect(formatPlatformLabelled('2026-07-01 08:00:00', 'America/New_York')).toBe('2026-06-30 20:00:00 UTC-4');
    expect(formatPlatformLabelled('2026-12-01 08:00:00', 'America/New_York')).toBe('2026-11-30 19:00:00 UTC-5');
    expect(formatPlatformLabelled(null, 'UTC')).toBe('');
    setChosenZone('UTC');
    expect(formatInstantLabelled('2026-11-29T23:37:00.000Z')).toBe('2026-11-29 23:37 UTC+0');
    setChosenZone('Asia/Tokyo');
    expect(formatInstantLabelled('2026-11-29T23:37:00.000Z')).toBe('2026-11-30 08:37 UTC+9');
    setChosenZone(null);
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
    expect(displayOffsetHours(new Date('2024-01-15T12:00:00Z'))).toBe(-new Date('2024-01-15T12:00:00Z').getTimezoneOffset() / 60 + 0);
  });

  // The list's times are formatted with one cached Intl formatter per zone instead of dayjs's
  // `.tz()` (which builds one per call); the oracle here is Intl itself, asked afresh each time.
  const ZONES = [
    'Asia/Shanghai',
    'Asia/Tokyo',
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/Sao_Paulo',
    'UTC',
  ];
  const oracle = (epochMs: number, zone: string, withSeconds = true) =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
    }).format(epochMs);
  // 1992 on: the platform zone has had no DST since 1991, so each of its wall-clock times is one instant.
  const instants = fc.integer({ min: Date.UTC(1992, 0, 1), max: Date.UTC(2099, 11, 31) });
  // Instants within two hours of a DST change (New York, London, Sydney, Lord Howe, Chatham, 2024), where
  // an offset taken at the wrong instant shows the wrong hour; and instants anywhere.
  const CHANGES = [
    '2024-03-10T07:00:00Z',
    '2024-11-03T06:00:00Z',
    '2024-03-31T01:00:00Z',
    '2024-10-27T01:00:00Z',
    '2024-04-06T16:00:00Z',
    '2024-10-05T16:00:00Z',
    '2024-04-06T15:00:00Z',
    '2024-10-05T15:30:00Z',
    '2024-04-06T14:00:00Z',
    '2024-09-28T14:00:00Z',
  ].map(Date.parse);
  const nearChange = fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -7200, max: 7200 })).map(([at, s]) => at + s * 1000);
  const wholeSeconds = fc.oneof(
    instants.map((ms) => ms - (ms % 1000)),
    nearChange,
  );

  it.each([['UTC'], ['America/New_York'], ['Australia/Sydney']])('shows every instant as the wall clock of the chosen zone (machine zone %s)', (machineZone) => {
    const before = process.env.TZ;
    process.env.TZ = machineZone;
    try {
      fc.assert(
        fc.property(wholeSeconds, fc.constantFrom(...ZONES), (ms, zone) => {
          setChosenZone(zone);
          const iso = new Date(ms).toISOString();
          expect(formatInstant(iso, 'YYYY-MM-DD HH:mm:ss')).toBe(oracle(ms, zone));
          expect(formatInstant(iso)).toBe(oracle(ms, zone, false));
          // A platform-zone wire time: Shanghai's wall clock of the same instant, shown in the zone.
          const wire = oracle(ms, 'Asia/Shanghai');
          expect(formatPlatform(wire)).toBe(oracle(ms, zone));
          expect(formatPlatform(wire, 'UTC')).toBe(oracle(ms, 'UTC'));
          // The offsets the list's zone selector and the header show, and the way back to the wire.
          setChosenZone(zone);
          expect(displayOffsetHours(new Date(ms)) * 60).toBe(zoneOffsetMinutes(zone, ms));
          const at = (z: string) => Date.parse(`${oracle(ms, z).replace(' ', 'T')}Z`);
          expect(toPlatform(oracle(ms, 'UTC'), 0)).toBe(wire);
          expect(toPlatform(oracle(ms, zone), (at(zone) - ms) / 3_600_000)).toBe(wire);
        }),
        { numRuns: 400 },
      );
    } finally {
      setChosenZone(null);
      process.env.TZ = before;
      if (before === undefined) delete process.env.TZ;
    }
  });

  it("shows the hour the machine's own zone skips at a DST change (dayjs's tz() showed the next one)", () => {
    const before = process.env.TZ;
    process.env.TZ = 'Australia/Sydney';
    try {
      // 2024-10-05 17:00 UTC: Tokyo's 02:00 on 6 October, the hour Sydney skipped that night.
      setChosenZone('Asia/Tokyo');
      expect(formatInstant('2024-10-05T17:00:00.000Z', 'YYYY-MM-DD HH:mm')).toBe('2024-10-06 02:00');
      expect(formatPlatform('2024-10-06 01:00:00')).toBe('2024-10-06 02:00:00');
      expect(displayOffsetHours(new Date('2024-10-05T17:00:00Z'))).toBe(9);
      expect(zoneOffsetLabel('Asia/Tokyo', new Date('2024-10-05T17:00:00Z'))).toBe('UTC+9');
      expect(toPlatform('2024-10-06 02:00:00', 9)).toBe('2024-10-06 01:00:00');
    } finally {
      setChosenZone(null);
      process.env.TZ = before;
      if (before === undefined) delete process.env.TZ;
    }
  });

  it('gives the offset of a zone at an instant, DST and odd offsets included', () => {
    expect(zoneOffsetMinutes('Asia/Shanghai', Date.UTC(2024, 0, 1))).toBe(480);
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 6, 1))).toBe(-240);
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 0, 1))).toBe(-300);
    // The instant of New York's spring change (2024-03-10 07:00 UTC) and a second before it.
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 2, 10, 7))).toBe(-240);
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 2, 10, 7) - 1000)).toBe(-300);
    expect(zoneOffsetMinutes('Asia/Kathmandu', Date.UTC(2024, 0, 1))).toBe(345);
    expect(zoneOffsetMinutes('America/St_Johns', Date.UTC(2024, 0, 1))).toBe(-210);
    expect(zoneOffsetMinutes('Pacific/Chatham', Date.UTC(2024, 0, 1))).toBe(825);
    // Milliseconds and instants before 1970 do not shift it.
    expect(zoneOffsetMinutes('Asia/Tokyo', Date.UTC(2024, 0, 1) + 999)).toBe(540);
    expect(zoneOffsetMinutes('Asia/Tokyo', Date.UTC(1960, 0, 1) + 1)).toBe(540);
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), (ms, zone) => zoneOffsetMinutes(zone, ms) === dayjs(ms).tz(zone).utcOffset()),
      { numRuns: 300 },
    );
  });

  it('keeps the offset token right, and anything but the wire format goes the general way', () => {
    try {
      setChosenZone('Asia/Tokyo');
      expect(formatInstant('2024-05-01T00:00:00.000Z', 'YYYY-MM-DD HH:mm Z')).toBe('2024-05-01 09:00 +09:00');
      expect(formatInstant('2024-05-01T00:00:00.000Z', 'HH:mm ZZ [Z]')).toBe('09:00 +0900 Z');
      setChosenZone('America/St_Johns');
      expect(formatInstant('2024-01-01T12:00:00.000Z', 'HH:mm Z')).toBe('08:30 -03:30');
      setChosenZone('Asia/Tokyo');
      expect(formatPlatform('2024-05-01T08:00:00')).toBe('2024-05-01 09:00:00');
      expect(formatPlatform('not a time')).toBe('Invalid Date');
      expect(formatInstant('not a time')).toBe('Invalid Date');
    } finally {
      setChosenZone(null);
    }
  });
});

describe('zoneNow: "today" of the display zone, whatever the machine\'s (issue 53: hydration after 16:00 UTC)', () => {
  it("is the zone's wall clock at the instant, in any machine zone", () => {
    // 2026-12-02 17:30 UTC: already 3 December at UTC+8, still 2 December in UTC and New York.
    const at = Date.UTC(2026, 11, 2, 17, 30, 0);
    expect(zoneNow('Asia/Shanghai', at).format('YYYY-MM-DD HH:mm')).toBe('2026-12-03 01:30');
    expect(zoneNow('UTC', at).format('YYYY-MM-DD HH:mm')).toBe('2026-12-02 17:30');
    expect(zoneNow('America/New_York', at).format('YYYY-MM-DD HH:mm')).toBe('2026-12-02 12:30');
  });
  it("follows the chosen zone, else the browser's", () => {
    const at = Date.UTC(2026, 11, 2, 23, 0, 0);
    setChosenZone('Asia/Tokyo');
    expect(zoneNow(undefined, at).format('YYYY-MM-DD')).toBe('2026-12-03');
    setChosenZone(null);
    expect(zoneNow(undefined, at).format('YYYY-MM-DD')).toBe(dayjs(zoneNow(browserZone(), at)).format('YYYY-MM-DD'));
  });
});
