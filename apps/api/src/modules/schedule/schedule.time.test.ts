import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextRun, rollParams, wallInstant, type Recurrence } from './schedule.time';

const at = (s: string) => new Date(s);
const iso = (d: Date) => d.toISOString();

describe('next run of a schedule', () => {
  it('daily at a time in the zone, strictly after the given instant', () => {
    const r: Recurrence = { frequency: 'daily', time: '08:00', timeZone: 'Asia/Shanghai' };
    expect(iso(nextRun(r, at('2026-11-24T00:00:00Z')))).toBe('2026-11-25T00:00:00.000Z');
    expect(iso(nextRun(r, at('2026-11-23T23:59:59Z')))).toBe('2026-11-24T00:00:00.000Z');
  });

  it('keeps the wall-clock time across DST changes (New York, London)', () => {
    const ny: Recurrence = { frequency: 'daily', time: '09:00', timeZone: 'America/New_York' };
    // Before the spring change: 09:00 EST = 14:00Z; after: 09:00 EDT = 13:00Z.
    expect(iso(nextRun(ny, at('2026-03-07T15:00:00Z')))).toBe('2026-03-08T13:00:00.000Z');
    expect(iso(nextRun(ny, at('2026-03-06T15:00:00Z')))).toBe('2026-03-07T14:00:00.000Z');
    // Autumn: back to 14:00Z.
    expect(iso(nextRun(ny, at('2026-10-31T14:00:00Z')))).toBe('2026-11-01T14:00:00.000Z');
    const lon: Recurrence = { frequency: 'weekly', weekday: 7, time: '07:30', timeZone: 'Europe/London' };
    expect(iso(nextRun(lon, at('2026-03-28T00:00:00Z')))).toBe('2026-03-29T06:30:00.000Z');
  });

  it('a time that does not exist (spring forward) runs when the clock would have shown it; a repeated one runs once', () => {
    // 02:30 on 2026-03-08 does not exist in New York: 03:30 EDT (07:30Z).
    expect(wallInstant('2026-03-08', 150, 'America/New_York')).toBe(Date.parse('2026-03-08T07:30:00Z'));
    const gap: Recurrence = { frequency: 'daily', time: '02:30', timeZone: 'America/New_York' };
    expect(iso(nextRun(gap, at('2026-03-08T00:00:00Z')))).toBe('2026-03-08T07:30:00.000Z');
    // 01:30 on 2026-11-01 happens twice: the first (EDT, 05:30Z), then the next day.
    const twice: Recurrence = { frequency: 'daily', time: '01:30', timeZone: 'America/New_York' };
    const first = nextRun(twice, at('2026-11-01T00:00:00Z'));
    expect(iso(first)).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(nextRun(twice, first))).toBe('2026-11-02T06:30:00.000Z');
  });

  it('monthly on a date a month lacks runs on its last day', () => {
    const r: Recurrence = { frequency: 'monthly', monthDay: 31, time: '06:00', timeZone: 'UTC' };
    const runs: string[] = [];
    let t = at('2026-01-01T00:00:00Z');
    for (let i = 0; i < 6; i++) runs.push(iso((t = nextRun(r, t))).slice(0, 10));
    expect(runs).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    const feb29: Recurrence = { frequency: 'monthly', monthDay: 30, time: '00:00', timeZone: 'Asia/Tokyo' };
    expect(iso(nextRun(feb29, at('2028-02-01T00:00:00Z')))).toBe('2028-02-28T15:00:00.000Z');
  });

  it('weekly on a weekday', () => {
    const r: Recurrence = { frequency: 'weekly', weekday: 1, time: '10:15', timeZone: 'Asia/Seoul' };
    // 2026-11-24 is a Tuesday: next Monday 2026-11-30 10:15 KST = 01:15Z.
    expect(iso(nextRun(r, at('2026-11-24T03:00:00Z')))).toBe('2026-11-30T01:15:00.000Z');
  });

  const zones = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Santiago', 'UTC', 'Asia/Shanghai'];
  const recurrence = fc.record({
    frequency: fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
    time: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    weekday: fc.integer({ min: 1, max: 7 }),
    monthDay: fc.integer({ min: 1, max: 31 }),
    timeZone: fc.constantFrom(...zones),
  });
  const instant = fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z') });

  it('property: the next run is later, monotonic in the instant, and no run is skipped', () => {
    fc.assert(
      fc.property(recurrence, instant, fc.integer({ min: 0, max: 40 * 86_400_000 }), (r, t, d) => {
        const a = nextRun(r, new Date(t));
        const b = nextRun(r, new Date(t + d));
        expect(a.getTime()).toBeGreaterThan(t);
        expect(b.getTime()).toBeGreaterThanOrEqual(a.getTime());
        // Just before a run, that run is next: nothing between t and a is skipped over.
        expect(nextRun(r, new Date(a.getTime() - 1)).getTime()).toBe(a.getTime());
        // Runs are at least a day apart (23 h across a DST change) and at most a month and a bit.
        const gap = nextRun(r, a).getTime() - a.getTime();
        expect(gap).toBeGreaterThanOrEqual(22 * 3_600_000);
        expect(gap).toBeLessThanOrEqual(32 * 86_400_000);
      }),
      { numRuns: 400 },
    );
  });
});

describe('rolling filters', () => {
  it('moves every date so that the latest end is the day before the run', () => {
    expect(rollParams({ beginDate: '2026-11-01', endDate: '2026-11-07', merId: 'x' }, '2026-12-01')).toEqual({
      beginDate: '2026-11-24',
      endDate: '2026-11-30',
      merId: 'x',
    });
    expect(rollParams({ beginDate: '2026-11-01 00:00:00', endDate: '2026-11-01 23:59:59' }, '2026-11-03')).toEqual({
      beginDate: '2026-11-02 00:00:00',
      endDate: '2026-11-02 23:59:59',
    });
    expect(rollParams({ releaseBeginDate: '2026-10-01', releaseEndDate: '2026-10-10', beginDate: '2026-09-01', endDate: '2026-09-30' }, '2026-10-21')).toEqual({
      releaseBeginDate: '2026-10-11',
      releaseEndDate: '2026-10-20',
      beginDate: '2026-09-11',
      endDate: '2026-10-10',
    });
    expect(rollParams({ merId: 'x' }, '2026-10-21')).toEqual({ merId: 'x' });
  });
});
