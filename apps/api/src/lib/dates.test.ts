import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from './dates';

// The two copies this replaced (issue 45 §1), as they were: the transactions module's read the date
// part without rounding, the payments module's rounded whole dates.
const txnDaysBetween = (a: string, b: string) => (Date.parse(b.slice(0, 10)) - Date.parse(a.slice(0, 10))) / 86_400_000;
const paymentsDaysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

const date = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('lib/dates: one daysBetween', () => {
  it('agrees with both old copies on every pair of dates (the rounding never changed a count)', () => {
    fc.assert(
      fc.property(date, date, (a, b) => {
        expect(daysBetween(a, b)).toBe(txnDaysBetween(a, b));
        expect(daysBetween(a, b)).toBe(paymentsDaysBetween(a, b));
        expect(addDays(a, daysBetween(a, b))).toBe(b);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the date part of a date-time, as the transactions copy did (the payments copy gave NaN)', () => {
    expect(daysBetween('2026-03-01 23:59:59', '2026-03-31 00:00:00')).toBe(30);
    expect(txnDaysBetween('2026-03-01 23:59:59', '2026-03-31 00:00:00')).toBe(30);
    expect(paymentsDaysBetween('2026-03-01 23:59:59', '2026-03-31 00:00:00')).toBeNaN();
    // Across the March change of clocks (no zone enters), and backwards.
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-03-30', '2026-03-28')).toBe(-2);
  });
});
