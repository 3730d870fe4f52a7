import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busLineOf } from '@portal/contract';
import { DB_KINDS, freshDb } from '../../../test/helpers';
import { seedFoundation, DEMO } from '../../seed/foundation.seed';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { ingestBatch, ingestTransaction, type IngestInput } from './ingest.service';

const TZ = 'Asia/Shanghai';
const base = (o: Partial<IngestInput> = {}): IngestInput => ({
  merId: DEMO.group,
  orderNo: `O-${Math.random().toString(36).slice(2)}`,
  tranType: 'PURC',
  amount: 12345,
  currency: 'HKD',
  paymentSchema: 'CARD',
  paymentBrand: 'visa',
  gwResponse: '00',
  txnTime: new Date('2026-03-01T16:30:00Z'),
  ...o,
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('busLineOf', () => {
  it('groups channels into business lines', () => {
    expect(['UP', 'APP', 'EXUP', 'UP_B2B'].map(busLineOf)).toEqual(['UP', 'UP', 'UP', 'UP']);
    expect(['AP', 'APDP', 'APMP'].map(busLineOf)).toEqual(['AP', 'AP', 'AP']);
    expect(['PPRO_IDEAL', 'PPRO_PAYPAY', 'PPRO'].map(busLineOf)).toEqual(['PPRO', 'PPRO', 'PPRO']);
    expect(['WX', 'CARD'].map(busLineOf)).toEqual(['WX', 'CARD']);
  });
});

describe.each(DB_KINDS)('ingestion on %s', (kind) => {
  let db: Awaited<ReturnType<typeof freshDb>>;
  const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
  beforeAll(async () => {
    db = await freshDb(kind);
    await seedFoundation(db, { env: 'test' });
    await db.query(`UPDATE merchant SET enabled = false WHERE mer_id = $1`, [DEMO.other]);
  });
  afterAll(() => db.drop());

  it('writes a purchase with business line, platform date, gateway id and masked card', async () => {
    const r = await ingestTransaction(db, base({ orderNo: 'OK-1', paymentSchema: 'PPRO_IDEAL', paymentBrand: 'ideal', cardNumber: '4111 1111 1111 1111', currency: 'EUR' }), { platformTz: TZ });
    expect(r.gwTransId).toMatch(/^G20260302[0-9a-f]{16}$/);
    const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM txn WHERE id = $1', [r.id]);
    expect(rows[0]).toMatchObject({ bus_line: 'PPRO', txn_date: '2026-03-02', card_first6: '411111', card_last4: '1111', settle_flag: 'N', amount: 12345, order_amount: 12345, order_currency: 'EUR' });
    expect(JSON.stringify(rows[0])).not.toContain('4111111111111111');
  });

  const bad: [string, Partial<IngestInput>, string][] = [
    ['unknown merchant', { merId: '999999999999999' }, 'payMerchantNotFound'],
    ['malformed merchant id', { merId: 'abc' }, 'payMerchantNotFound'],
    ['disabled merchant', { merId: DEMO.other, currency: 'SGD' }, 'payMerchantDisabled'],
    ['channel not enabled', { paymentSchema: 'UP_B2B' }, 'payChannelNotEnabled'],
    ['malformed channel', { paymentSchema: 'card; drop' }, 'payChannelInvalid'],
    ['currency not allowed', { currency: 'GBP' }, 'payCurrencyNotAllowed'],
    ['unknown currency', { currency: 'XXX' }, 'payCurrencyUnknown'],
    ['zero amount', { amount: 0 }, 'payAmountInvalid'],
    ['negative amount', { amount: -5 }, 'payAmountInvalid'],
    ['fractional amount', { amount: 12.5 }, 'payAmountInvalid'],
    ['unsafe amount', { amount: 2 ** 53 }, 'payAmountInvalid'],
    ['negative sign outside MANENTD', { amountSign: -1 }, 'payAmountSignInvalid'],
    ['unknown brand', { paymentBrand: 'nosuchbrand' }, 'payBrandUnknown'],
    ['unknown type', { tranType: 'PAYOUT' }, 'payTranTypeInvalid'],
    ['empty order number', { orderNo: '' }, 'payOrderNoInvalid'],
    ['order number with spaces', { orderNo: 'a b' }, 'payOrderNoInvalid'],
    ['bad card number', { cardNumber: '1234' }, 'payCardInvalid'],
    ['invalid time', { txnTime: new Date('nope') }, 'payTimeInvalid'],
    ['refund without origin', { tranType: 'REFD' }, 'payOriginRequired'],
    ['refund of unknown purchase', { tranType: 'REFD', originOrderNo: 'NOPE' }, 'payOriginNotFound'],
    ['too long merchant reserve', { merReserve: 'x'.repeat(300) }, 'payFieldTooLong'],
  ];
  it.each(bad)('rejects %s with a clear message and writes nothing', async (_name, o, key) => {
    const before = await count();
    const e = await failure(ingestTransaction(db, base(o), { platformTz: TZ }));
    expect(e.key).toBe(key);
    for (const lang of ['en', 'zh', 'ko', 'ja'] as const) expect(t(lang, e.key, e.params)).not.toMatch(/\{\w+\}/);
    expect(await count()).toBe(before);
  });

  it('rejects a duplicate order number of the same merchant only', async () => {
    await ingestTransaction(db, base({ orderNo: 'DUP-1' }), { platformTz: TZ });
    const before = await count();
    const e = await failure(ingestTransaction(db, base({ orderNo: 'DUP-1' }), { platformTz: TZ }));
    expect(e.key).toBe('payOrderNoDuplicate');
    expect(t('en', e.key, e.params)).toBe(`Order number DUP-1 already exists for merchant ${DEMO.group}`);
    expect(await count()).toBe(before);
    await ingestTransaction(db, base({ orderNo: 'DUP-1', merId: DEMO.subA, currency: 'CNY', paymentSchema: 'WX', paymentBrand: 'wechat_pay' }), { platformTz: TZ });
  });

  it('checks a refund and a void against their purchase', async () => {
    const p = await ingestTransaction(db, base({ orderNo: 'P-1', amount: 10000 }), { platformTz: TZ });
    const refd = (o: Partial<IngestInput>) => ingestTransaction(db, base({ tranType: 'REFD', originTxnId: p.id, ...o }), { platformTz: TZ });
    expect((await failure(refd({ orderNo: 'R-x', amount: 10001 }))).key).toBe('payRefundExceeds');
    expect((await failure(refd({ orderNo: 'R-y', currency: 'USD' }))).key).toBe('payOriginMismatch');
    expect((await failure(refd({ orderNo: 'R-z', paymentSchema: 'AP', paymentBrand: 'alipay_hk' }))).key).toBe('payOriginMismatch');
    const r = await refd({ orderNo: 'R-1', amount: 4000, originTxnId: undefined, originOrderNo: 'P-1' });
    const { rows } = await db.query<{ origin_txn_id: number; origin_order_no: string }>('SELECT origin_txn_id, origin_order_no FROM txn WHERE id = $1', [r.id]);
    expect(rows[0]).toEqual({ origin_txn_id: p.id, origin_order_no: 'P-1' });
    const late = new Date('2026-03-03T01:00:00Z');
    const e = await failure(ingestTransaction(db, base({ orderNo: 'V-1', tranType: 'VOID', amount: 10000, originTxnId: p.id, txnTime: late }), { platformTz: TZ }));
    expect(e.key).toBe('payVoidNotAllowed');
    await ingestTransaction(db, base({ orderNo: 'V-2', tranType: 'VOID', amount: 10000, originTxnId: p.id }), { platformTz: TZ });
  });

  it('takes a negative manual entry', async () => {
    const r = await ingestTransaction(db, base({ orderNo: 'M-1', tranType: 'MANENTD', amountSign: -1, paymentBrand: null }), { platformTz: TZ });
    const { rows } = await db.query<{ amount_sign: number }>('SELECT amount_sign FROM txn WHERE id = $1', [r.id]);
    expect(rows[0].amount_sign).toBe(-1);
  });

  it('ingests a batch, resolving origins inside it, and refuses a bad batch whole', async () => {
    const before = await count();
    const n = await db.tx((q) =>
      ingestBatch(
        q,
        [
          base({ orderNo: 'B-1', amount: 500 }),
          base({ orderNo: 'B-2', amount: 700, currency: 'JPY', paymentSchema: 'AP', paymentBrand: 'alipay_hk' }),
          base({ orderNo: 'B-3', tranType: 'VOID', amount: 500, originOrderNo: 'B-1' }),
        ],
        { platformTz: TZ },
      ),
    );
    expect(n).toBe(3);
    expect(await count()).toBe(before + 3);
    const dup = await failure(db.tx((q) => ingestBatch(q, [base({ orderNo: 'B-9' }), base({ orderNo: 'B-1' })], { platformTz: TZ })));
    expect(dup.key).toBe('payOrderNoDuplicate');
    expect(dup.params).toMatchObject({ orderNo: 'B-1' });
    const twice = await failure(db.tx((q) => ingestBatch(q, [base({ orderNo: 'B-8' }), base({ orderNo: 'B-8' })], { platformTz: TZ })));
    expect(twice.key).toBe('payOrderNoDuplicate');
    const bad = await failure(db.tx((q) => ingestBatch(q, [base({ orderNo: 'B-7' }), base({ orderNo: 'B-6', currency: 'GBP' })], { platformTz: TZ })));
    expect(bad.key).toBe('payCurrencyNotAllowed');
    expect(await count()).toBe(before + 3);
  });
});
