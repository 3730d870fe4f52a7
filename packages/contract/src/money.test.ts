import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { divRoundHalfEven, toDecimal, toMinor, formatMoney } from './money';

describe('money helpers', () => {
  it('converts between minor units and decimal strings per exponent', () => {
    expect(toDecimal(123450, 'USD')).toBe('1234.50');
    expect(toDecimal(-5, 'USD')).toBe('-0.05');
    expect(toDecimal(1200, 'JPY')).toBe('1200');
    expect(toMinor('1234.5', 'USD')).toBe(123450);
    expect(toMinor('1200', 'KRW')).toBe(1200);
    expect(() => toMinor('1.005', 'USD')).toThrow();
    expect(() => toMinor('1.5', 'JPY')).toThrow();
    expect(() => toMinor('abc', 'USD')).toThrow();
    expect(() => toMinor('1', 'XXX')).toThrow();
  });
  it('round-trips any integer amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom('USD', 'JPY', 'KRW', 'EUR'), (n, c) => {
        expect(toMinor(toDecimal(n, c), c)).toBe(n);
      }),
    );
  });
  it('rounds half to even', () => {
    expect(divRoundHalfEven(5n, 2n)).toBe(2n);
    expect(divRoundHalfEven(7n, 2n)).toBe(4n);
    expect(divRoundHalfEven(-5n, 2n)).toBe(-2n);
    expect(divRoundHalfEven(10n, 3n)).toBe(3n);
    expect(divRoundHalfEven(11n, 3n)).toBe(4n);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (a, d) => {
        const q = divRoundHalfEven(a, d);
        const diff = a - q * d; // remainder relative to the rounded quotient
        expect(2n * (diff < 0n ? -diff : diff) <= d).toBe(true);
      }),
    );
  });
  it('formats per locale', () => {
    expect(formatMoney(123456789, 'USD', 'en')).toBe('1,234,567.89');
    expect(formatMoney(1234567, 'JPY', 'ja')).toBe('1,234,567');
    expect(formatMoney(-50, 'EUR', 'en')).toBe('-0.50');
  });
});
