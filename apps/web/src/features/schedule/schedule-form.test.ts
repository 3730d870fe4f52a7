import { describe, expect, it } from 'vitest';
import { dayjs } from '../../lib/time';
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
    expect(filterSummary({ beginDate: '2026-11-01 00:00:00', endDate: '2026-11-07 23:59:59', beginDateOriginal: 'x', timeZone: '8', gwResponse: '00' })).toEqual([
      '2026-11-01 00:00:00 ~ 2026-11-07 23:59:59',
      '00',
    ]);
    expect(filterSummary({})).toEqual([]);
  });
});
