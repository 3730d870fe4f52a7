import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_RANGE_DAYS } from '@portal/contract';
import { dayjs } from '../../lib/time';
import { exportPeriodAllowed } from './use-export-flow';

/** Issue 13 fix 8: the export rule and the pickers' "last three months" preset agree, at the edges too. */
describe('export period rule', () => {
  const preset = (today: string) => ({ begin: `${dayjs(today).subtract(3, 'month').format('YYYY-MM-DD')} 00:00:00`, end: `${today} 23:59:59` });

  it('accepts the preset on every day of a year (month ends included), refuses one day more', () => {
    for (let d = dayjs('2026-01-01'); d.isBefore('2027-01-01'); d = d.add(1, 'day')) {
      const today = d.format('YYYY-MM-DD');
      const p = preset(today);
      expect(exportPeriodAllowed(p.begin, p.end), `preset ending ${today}`).toBe(true);
      const longer = `${dayjs(p.begin.slice(0, 10)).subtract(1, 'day').format('YYYY-MM-DD')} 00:00:00`;
      expect(exportPeriodAllowed(longer, p.end), `one day before the preset ending ${today}`).toBe(false);
    }
  });

  it('refuses an inverted period; every accepted period fits the server rule (at most MAX_RANGE_DAYS days, ±1 day for the zone)', () => {
    expect(exportPeriodAllowed('2026-05-02 00:00:00', '2026-05-01 23:59:59')).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 120 }), (start, span) => {
        const end = dayjs('2024-01-01').add(start, 'day');
        const begin = end.subtract(span, 'day');
        if (exportPeriodAllowed(`${begin.format('YYYY-MM-DD')} 00:00:00`, `${end.format('YYYY-MM-DD')} 23:59:59`)) {
          expect(span + 1).toBeLessThanOrEqual(MAX_RANGE_DAYS);
        }
      }),
    );
  });
});
