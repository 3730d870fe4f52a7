import { describe, expect, it } from 'vitest';
import { pageTotals } from './report-money';
import { periodText, settleListLink, summaryColumns } from './report.columns';

describe('report page totals', () => {
  const cols = [{ key: 'amount', money: { value: (r: { a: string; c: string }) => r.a, currency: (r: { a: string; c: string }) => r.c } }, { key: 'name' }];
  it('sums each money column per currency, exactly, in the currency exponent', () => {
    const rows = [
      { a: '0.10', c: 'USD' },
      { a: '0.20', c: 'USD' },
      { a: '-1.05', c: 'USD' },
      { a: '1500', c: 'JPY' },
      { a: '7', c: 'JPY' },
      { a: '90071992547409.91', c: 'HKD' },
      { a: '0.01', c: 'HKD' },
    ];
    expect(pageTotals(rows, cols)).toEqual([
      { currency: 'HKD', values: { amount: '90071992547409.92' } },
      { currency: 'JPY', values: { amount: '1507' } },
      { currency: 'USD', values: { amount: '-0.75' } },
    ]);
  });
  it('is empty for no rows', () => expect(pageTotals([], cols)).toEqual([]));
  it("subtracts the daily summary's refunds and reserve held from its Amount, adds releases (issue 53)", () => {
    const row = (txnType: string, merTxnAmount: string, txnSetAmount: string) => ({
      txnSetDate: '2026-11-29',
      merId: 'm',
      merName: 'M',
      instCodeBriefName: 'A',
      paymentBrand: '',
      txnType,
      txnCount: 1,
      merTxnCur: 'USD',
      merTxnAmount,
      merMDRAmount: merTxnAmount,
      merTxnSet: 'USD',
      txnSetAmount,
      txnFee: '0.00',
    });
    const rows = [row('PURC', '100.00', '100.00'), row('REFD', '30.00', '-30.00'), row('M-DEPOSIT', '7.00', '-7.00'), row('M-DEPOSIT-RELEASE', '2.00', '2.00'), row('MANENTD', '-1.50', '-1.50')];
    const [usd] = pageTotals(rows as never[], summaryColumns(((k: string) => k) as never, false));
    expect(usd.values).toMatchObject({ merTxnAmount: '63.50', merMDRAmount: '63.50', txnSetAmount: '63.50' });
  });
});

describe('report links and labels', () => {
  it('builds the settle list link of spec §2', () => {
    expect(settleListLink({ clientid: '100000000000001', reconBusiness: 'UP', merTxnSet: 'HKD' }, '2026-11-01', '2026-11-03')).toBe(
      '/txn/settleList?beginDate=2026-11-01&endDate=2026-11-03&busLine=UP&setCur=HKD&clientid=100000000000001',
    );
  });
  it('reads transfer periods', () => {
    const t = ((k: string, o?: Record<string, unknown>) => `${k}${o ? JSON.stringify(o) : ''}`) as never;
    expect(periodText(t, 'D')).toBe('period.D');
    expect(periodText(t, 'W3')).toBe('period.W{"day":"weekday.3"}');
    expect(periodText(t, 'M15')).toBe('period.M{"n":15}');
  });
});
