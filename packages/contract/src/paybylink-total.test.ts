import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkPayByLinkForm, pblPriceForTotal, pblTotalOf } from './paybylink-rules';
import { toDecimal } from './money';

/** Issue 10, finding 7: total = unit price × quantity + shipping, in minor units. */
const form = (total: string, price: string, qty: string, fee: string, cur = 'USD') => ({
  reconId: 'R',
  orderCurrency: cur,
  goodsName: 'G',
  totalAmount: total,
  goodsPrice: price,
  goodsQuantity: qty,
  logFee: fee,
});
const rules = (f: ReturnType<typeof form>) => checkPayByLinkForm(f, { mode: 'create' }).map((i) => i.rule);

describe('pay-link amounts add up', () => {
  it('refuses the reported order: total 1 with 500 × 3 and shipping 7', () => {
    const issues = checkPayByLinkForm(form('1', '500', '3', '7'), { mode: 'create' });
    expect(issues).toEqual([{ field: 'totalAmount', rule: 'totalMismatch', params: { expected: '1507.00', currency: 'USD' } }]);
    expect(rules(form('1507', '500', '3', '7'))).toEqual([]);
    expect(rules(form('1507.00', '500.00', '3', '7.00'))).toEqual([]);
    expect(rules(form('5000', '5000', '1', '0', 'JPY'))).toEqual([]);
  });

  it('property: the computed total passes; one minor unit off is refused', () => {
    const cur = fc.constantFrom('USD', 'JPY', 'CNY', 'KRW');
    fc.assert(
      fc.property(cur, fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(1, -1), (c, price, qty, fee, off) => {
        const p = toDecimal(price, c);
        const f = toDecimal(fee, c);
        const total = pblTotalOf(p, String(qty), f, c)!;
        expect(total).toBe(toDecimal(price * qty + fee, c));
        expect(rules(form(total, p, String(qty), f, c))).toEqual([]);
        const wrong = price * qty + fee + off;
        if (wrong > 0) expect(rules(form(toDecimal(wrong, c), p, String(qty), f, c))).toEqual(['totalMismatch']);
        // Quantity 1: the price that follows the total adds up again.
        expect(pblPriceForTotal(toDecimal(price + fee, c), f, c)).toBe(p);
      }),
      { numRuns: 300 },
    );
  });
});
