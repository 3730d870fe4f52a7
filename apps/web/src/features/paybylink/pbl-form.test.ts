import { describe, expect, it } from 'vitest';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { followingAmounts, formFieldOf, pblRule, toWireForm, type OrderFormValues } from './pbl-form';

const t = ((k: string, o?: Record<string, unknown>) => (o && Object.keys(o).length ? `${k}:${JSON.stringify(o)}` : k)) as unknown as TFunction;
const formOf = (v: OrderFormValues) => ({ getFieldsValue: () => v }) as unknown as FormInstance<OrderFormValues>;
const check = async (v: OrderFormValues, field: Parameters<typeof pblRule>[1], mode: 'create' | 'update' = 'create') => {
  const rule = pblRule(formOf(v), field, mode, t) as { validator: () => Promise<void> };
  try {
    await rule.validator();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};
const ok: OrderFormValues = { reconId: 'INV-1', orderCurrency: 'USD', totalAmount: '12.50', goodsName: 'Tea', goodsPrice: '12.50', goodsQuantity: '1', logFee: '0' };

describe('pay-by-link form rules (the contract checks, as antd rules)', () => {
  it('passes a valid order', async () => {
    for (const f of ['reconId', 'orderCurrency', 'totalAmount', 'goodsName', 'goodsPrice', 'goodsQuantity', 'logFee', 'buyerEmail', 'attachment'] as const) {
      expect(await check(ok, f)).toBeNull();
    }
  });
  it('gives the spec §5 rule of each field', async () => {
    expect(await check({ ...ok, reconId: ' ' }, 'reconId')).toBe('rule.required');
    expect(await check({ ...ok, goodsName: '' }, 'goodsName')).toBe('rule.goodsNameTips');
    expect(await check({ ...ok, totalAmount: '0' }, 'totalAmount')).toBe('rule.greaterThanZero');
    expect(await check({ ...ok, totalAmount: '1.234' }, 'totalAmount')).toBe('rule.decimals:{"n":2,"currency":"USD","count":2}');
    expect(await check({ ...ok, orderCurrency: 'JPY', totalAmount: '10.5' }, 'totalAmount')).toBe('rule.decimals:{"n":0,"currency":"JPY","count":0}');
    expect(await check({ ...ok, goodsQuantity: '0' }, 'goodsQuantity')).toBe('rule.notLessThanOne');
    expect(await check({ ...ok, goodsQuantity: '2.5' }, 'goodsQuantity')).toBe('rule.positiveInteger');
    expect(await check({ ...ok, buyerEmail: 'nope' }, 'buyerEmail')).toBe('rule.invalidEmail');
    expect(await check({ ...ok, sendEmailChecked: true }, 'buyerEmail')).toBe('rule.inputEmailTips');
    expect(await check({ ...ok, sendEmailChecked: true, buyerEmail: 'a@b.example' }, 'attachment')).toBe('rule.attachmentTips');
  });
  it('skips the read-only fields in modify', async () => {
    expect(await check({ ...ok, reconId: '', goodsName: '' }, 'reconId', 'update')).toBeNull();
    expect(await check({ ...ok, reconId: '', goodsName: '' }, 'goodsName', 'update')).toBeNull();
    expect(await check({ ...ok, totalAmount: '-1' }, 'totalAmount', 'update')).toBe('rule.greaterThanZero');
  });
  it('posts the url-encoded form of spec §7', () => {
    expect(toWireForm({ ...ok, totalAmount: ' 12.50 ', sendEmailChecked: true, file: { attachment: 'k', fileName: 'a.pdf' }, validDays: 7 }, 5)).toEqual({
      id: '5',
      reconId: 'INV-1',
      orderCurrency: 'USD',
      totalAmount: '12.50',
      goodsName: 'Tea',
      goodsPrice: '12.50',
      goodsQuantity: '1',
      logFee: '0',
      remarks: '',
      buyerEmail: '',
      sendEmailChecked: 'true',
      attachment: 'k',
      fileName: 'a.pdf',
      validDays: '7',
    });
    expect(formFieldOf('attachment')).toBe('file');
    expect(formFieldOf('goodsName')).toBe('goodsName');
  });
});

describe('amounts follow each other (issue 10, finding 7)', () => {
  const v = (o: Partial<OrderFormValues>): OrderFormValues => ({ ...ok, ...o });
  it('quantity 1: the goods price follows the total (less shipping)', () => {
    expect(followingAmounts(v({ totalAmount: '20.00', logFee: '0' }), { totalAmount: '20.00' })).toEqual({ goodsPrice: '20.00' });
    expect(followingAmounts(v({ totalAmount: '20.00', logFee: '5' }), { totalAmount: '20.00' })).toEqual({ goodsPrice: '15.00' });
    expect(followingAmounts(v({ totalAmount: '2', logFee: '5' }), { totalAmount: '2' })).toEqual({});
  });
  it('a currency set after the total (the options answered late) derives the price then; not with quantity > 1', () => {
    expect(followingAmounts(v({ totalAmount: '12.30', logFee: '0', orderCurrency: 'HKD' }), { orderCurrency: 'HKD' })).toEqual({ goodsPrice: '12.30' });
    expect(followingAmounts(v({ totalAmount: '1200', logFee: '0', orderCurrency: 'JPY' }), { orderCurrency: 'JPY' })).toEqual({ goodsPrice: '1200' });
    expect(followingAmounts(v({ totalAmount: '12.30', goodsQuantity: '2', orderCurrency: 'HKD' }), { orderCurrency: 'HKD' })).toEqual({});
  });
  it('otherwise the total follows price × quantity + shipping', () => {
    expect(followingAmounts(v({ goodsPrice: '500', goodsQuantity: '3', logFee: '7' }), { goodsQuantity: '3' })).toEqual({ totalAmount: '1507.00' });
    expect(followingAmounts(v({ goodsPrice: '500', goodsQuantity: '3', logFee: '7' }), { totalAmount: '1' })).toEqual({});
    expect(followingAmounts(v({ goodsPrice: 'abc', goodsQuantity: '3' }), { goodsPrice: 'abc' })).toEqual({});
  });
  it('the form rule refuses a total that does not add up', async () => {
    expect(await check(v({ totalAmount: '1', goodsPrice: '500', goodsQuantity: '3', logFee: '7' }), 'totalAmount')).toBe('rule.totalMismatch:{"expected":"1507.00","currency":"USD"}');
  });
});
