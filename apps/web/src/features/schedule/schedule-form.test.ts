import { describe, expect, it } from 'vitest';
import { dayjs, setChosenZone } from '../../lib/time';
import { filterSummary, toScheduleForm } from './schedule-form';

describe('schedule form', () => {
  it('posts the filters as JSON without empty values, and only the day the frequency uses', () => {
    const v = { frequency: 'weekly' as const, time: dayjs('2000-01-01 07:05'), weekday: 5, monthDay: 31, timeZone: 'Asia/Tokyo', format: 'csv' as const, recipients: ['a@x.example', 'b@x.example'] };
    expect(toScheduleForm('report.bill', { beginDate: '2026-11-01', endDate: '2026-11-07', merId: undefined, gwTranType: '' }, v)).toEqual({
      kind: 'report.bill',
      params: '{"beginDate":"2026-11-01","endDate":"2026-11-07"}',
      format: 'csv',
      frequency: 'weekly',
      time: '07:05',
      weekday: 5,
      monthDay: undefined,
      timeZone: 'Asia/Tokyo',
      recipients: 'a@x.example,b@x.example',
    });
    expect(toScheduleForm('txn', {}, { ...v, frequency: 'monthly' }, 7)).toMatchObject({ id: 7, weekday: undefined, monthDay: 31 });
  });

  it('shows ranges as from ~ to and hides the display-only keys', () => {
    expect(filterSummary({ beginDate: '2026-11-01', endDate: '2026-11-07', gwResponse: '00' })).toEqual(['2026-11-01 ~ 2026-11-07', '00']);
    expect(filterSummary({})).toEqual([]);
  });

  it('shows a picked time range as picked, in the zone it was picked in — never the platform wire time (issue 29 §2)', () => {
    // 00:00–23:59:59 picked at UTC+0 goes on the wire as 08:00 → 07:59:59 next day (Asia/Shanghai)
    const wire = {
      beginDate: '2026-11-20 08:00:00',
      endDate: '2026-11-27 07:59:59',
      beginDateOriginal: '2026-11-20 00:00:00',
      endDateOriginal: '2026-11-26 23:59:59',
      timeZone: '0',
      gwResponse: '00',
    };
    expect(filterSummary(wire)).toEqual(['2026-11-20 00:00:00 ~ 2026-11-26 23:59:59 (UTC+0)', '00']);
    expect(filterSummary({ ...wire, timeZone: '9', beginDateOriginal: '2026-11-20 09:00:00', endDateOriginal: '2026-11-27 08:59:59' })[0]).toBe('2026-11-20 09:00:00 ~ 2026-11-27 08:59:59 (UTC+9)');
  });

  it("shows a platform-zone time range without the picked values in the user's zone, labelled", () => {
    setChosenZone('UTC');
    try {
      expect(filterSummary({ beginDate: '2026-11-20 08:00:00', endDate: '2026-11-27 07:59:59' })).toEqual(['2026-11-20 00:00:00 ~ 2026-11-26 23:59:59 (UTC+0)']);
    } finally {
      setChosenZone(null);
    }
  });
});
