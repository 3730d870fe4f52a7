import { describe, expect, it } from 'vitest';
import { defaultPeriod, platformToOffset, toWire, type TxnFilters } from './use-txn-filters';
import { formatAmount } from '../../components/money';
import { formatSize } from '../files/file-report-page';

describe('transaction filters on the wire (spec §3)', () => {
  const base: TxnFilters = { tz: 9, begin: '2026-11-01 09:00:00', end: '2026-11-02 08:59:59', paymentBrand: [] };

  it('sends times converted from the chosen zone to the platform zone, the originals beside them', () => {
    const q = toWire(base);
    expect(q).toMatchObject({
      beginDate: '2026-11-01 08:00:00',
      endDate: '2026-11-02 07:59:59',
      beginDateOriginal: '2026-11-01 09:00:00',
      endDateOriginal: '2026-11-02 08:59:59',
      timeZone: '9',
    });
    expect(toWire({ ...base, tz: -12 }).beginDate).toBe('2026-11-02 05:00:00');
    expect(toWire({ ...base, tz: 14 }).beginDate).toBe('2026-11-01 03:00:00');
  });

  it('joins the brand array with commas and leaves empty filters out', () => {
    const q = toWire({ ...base, paymentBrand: ['visa', 'alipay_cn'], orderNum: 'A-1' });
    expect(q.paymentBrand).toBe('visa,alipay_cn');
    expect(q.orderNum).toBe('A-1');
    expect(toWire(base).paymentBrand).toBeUndefined();
    expect(toWire(base).merId).toBeUndefined();
  });

  it('shows platform times in the chosen zone', () => {
    expect(platformToOffset('2026-11-01 08:00:00', 9)).toBe('2026-11-01 09:00:00');
    expect(platformToOffset('2026-11-01 08:00:00', -5)).toBe('2026-10-31 19:00:00');
  });

  it('defaults to the last 7 whole days', () => {
    const d = defaultPeriod(8);
    expect(d.begin.endsWith('00:00:00')).toBe(true);
    expect(d.end.endsWith('23:59:59')).toBe(true);
    expect((Date.parse(d.end.slice(0, 10)) - Date.parse(d.begin.slice(0, 10))) / 86_400_000).toBe(6);
  });
});

describe('money and sizes', () => {
  it("formats amounts in the currency's decimals", () => {
    expect(formatAmount('1234.5', 'USD')).toBe('1,234.50');
    expect(formatAmount('1234', 'JPY')).toBe('1,234');
    expect(formatAmount('-3.45', 'CNY')).toBe('-3.45');
    expect(formatAmount('', 'CNY')).toBe('');
  });
  it('formats file sizes', () => {
    expect(formatSize(null)).toBe('—');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(66_764)).toBe('65.2 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
