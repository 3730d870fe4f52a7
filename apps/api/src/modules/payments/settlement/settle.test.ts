import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { busLineOf, divRoundHalfEven } from '@portal/contract';
import { DB_KINDS } from '../../../../test/helpers';
import { settleDate, settleRange, settleThrough } from './settle.run';
import { checkInvariants } from './invariants';
import { JP, SG, TZ, reset, rows, setFee, setRate, settleDb, snapshot, txn, txnRow, type TestDb } from './settle.fixture';
import { createSandboxAcquirer } from '../sandbox.acquirer';
import { TestClock } from '../../../lib/clock';

describe.each(DB_KINDS)('settlement run on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(() => reset(db));

  const allHold = async () => {
    const v = await checkInvariants(db);
    expect(Object.values(v).flat()).toEqual([]);
  };

  it('settles T+1: fee on purchases only, signed amounts, flags, summary', async () => {
    await setFee(db, SG, 'CARD', { mdrBp: 250, fixedFee: 30 });
    const p = await txn(db, '2026-03-02', { amount: 12345 });
    const r = await txn(db, '2026-03-02', { tranType: 'REFD', amount: 2345, originTxnId: p });
    await db.query('UPDATE txn SET return_amount = 2345 WHERE id = $1', [p]); // the refund caller's part
    const failed = await txn(db, '2026-03-02', { amount: 999, gwResponse: '01' });
    const paut = await txn(db, '2026-03-02', { tranType: 'PAUT', amount: 500 });
    expect((await settleDate(db, '2026-03-02')).txnCount).toBe(0);
    const run = await settleDate(db, '2026-03-03');
    expect(run).toMatchObject({ txnCount: 2, rowCount: 1, transfers: 1 });
    // 12345 × 2.5 % = 308.625 → 309 (half-even), + 30 fixed.
    expect(await txnRow(db, p)).toMatchObject({ settle_flag: 'T', settle_date: '2026-03-03', settle_amount: 12345, settle_fee: 339 });
    expect(await txnRow(db, r)).toMatchObject({ settle_flag: 'T', settle_amount: -2345, settle_fee: 0 });
    expect((await txnRow(db, failed)).settle_flag).toBe('N');
    expect((await txnRow(db, paut)).settle_flag).toBe('N');
    const [row] = await rows(db);
    expect(row).toMatchObject({ txn_count: 2, recon_set_amount: 12345 - 339 - 2345, fee_amount: 339, trans_amount: 9661, remit_date: '2026-03-04', recon_search_date: '2026-03-03' });
    const sum = await db.query<{ txn_type: string; settle_amount: number; fee: number; acquirer: string; payment_brand: string }>(
      'SELECT txn_type, settle_amount, fee, acquirer, payment_brand FROM settlement_summary ORDER BY txn_type',
    );
    expect(sum.rows).toEqual([
      { txn_type: 'PURC', settle_amount: 12345, fee: 339, acquirer: 'HSBC', payment_brand: 'visa' },
      { txn_type: 'REFD', settle_amount: -2345, fee: 0, acquirer: 'HSBC', payment_brand: 'visa' },
    ]);
    await allHold();
  });

  it('honours T+N cycles per business line (T+0, T+2, default T+1)', async () => {
    await setFee(db, SG, 'CARD', { cycleDays: 0 });
    await setFee(db, SG, 'AP', { cycleDays: 2 });
    const c = await txn(db, '2026-03-02');
    const a = await txn(db, '2026-03-02', { paymentSchema: 'AP', paymentBrand: 'alipay_cn' });
    await db.query(`DELETE FROM merchant_fee WHERE mer_id = $1 AND bus_line = 'CARD'`, [SG]);
    const d = await txn(db, '2026-03-02', { paymentSchema: 'CARD', amount: 777 });
    await setFee(db, SG, 'CARD', { cycleDays: 0 });
    await settleDate(db, '2026-03-02');
    expect((await txnRow(db, c)).settle_date).toBe('2026-03-02');
    expect((await txnRow(db, d)).settle_date).toBe('2026-03-02');
    await settleDate(db, '2026-03-03');
    expect((await txnRow(db, a)).settle_flag).toBe('N');
    await settleDate(db, '2026-03-04');
    expect((await txnRow(db, a)).settle_date).toBe('2026-03-04');
    await allHold();
  });

  it('is idempotent: a second run of the same dates changes nothing', async () => {
    await setFee(db, SG, 'CARD', { mdrBp: 200, reserveBp: 1000, holdDays: 2, threshold: 50_000 });
    for (const d of ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']) await txn(db, d, { amount: 20_000 });
    const first = await settleRange(db, '2026-03-02', '2026-03-09');
    expect(first.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09']);
    expect(first.every((r) => !r.skipped)).toBe(true);
    const before = await snapshot(db);
    const second = await settleRange(db, '2026-03-02', '2026-03-09');
    expect(second).toHaveLength(8);
    expect(second.every((r) => r.skipped)).toBe(true);
    expect(await snapshot(db)).toBe(before);
    await allHold();
  });

  it('catches up every missed date in order and refuses to run backwards', async () => {
    await txn(db, '2026-03-02');
    await txn(db, '2026-03-05');
    const caught = await settleThrough(db, '2026-03-07');
    expect(caught.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07']);
    expect((await rows(db)).map((r) => r.txn_set_date)).toEqual(['2026-03-03', '2026-03-06']);
    expect(await settleThrough(db, '2026-03-07')).toEqual([]);
    await db.query(`DELETE FROM settlement_run WHERE run_date = '2026-03-04'`);
    await expect(settleDate(db, '2026-03-04')).rejects.toMatchObject({ key: 'paySettleBackwards' });
    // A range starting after a gap runs the gap first.
    const more = await settleRange(db, '2026-03-10', '2026-03-10');
    expect(more.map((r) => r.date)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
  });

  it('a date run twice is skipped the second time and changes nothing; an impossible date is refused; the time it took is reported', async () => {
    await txn(db, '2026-03-01'); // settles T+1: on the run of 2 March
    const t0 = performance.now();
    const first = await settleDate(db, '2026-03-02');
    const elapsed = performance.now() - t0;
    expect(first).toMatchObject({ date: '2026-03-02', skipped: false, txnCount: 1, rowCount: 1 });
    expect(first.ms).toBeGreaterThan(0);
    expect(first.ms).toBeLessThanOrEqual(elapsed);
    const before = await snapshot(db);
    const again = await settleDate(db, '2026-03-02');
    expect(again).toMatchObject({ date: '2026-03-02', skipped: true, txnCount: 0, rowCount: 0 });
    expect(again.ms).toBeLessThanOrEqual(performance.now() - t0);
    expect(await snapshot(db)).toBe(before);
    for (const bad of ['2026-02-30', '2026-3-02', 'yesterday']) {
      await expect(settleDate(db, bad)).rejects.toMatchObject({ key: 'badRequest', params: { detail: `date ${bad}` }, httpStatus: 400 });
    }
    await expect(settleDate(db, '2026-03-01')).rejects.toMatchObject({ key: 'paySettleBackwards', params: { date: '2026-03-01', last: '2026-03-02' }, httpStatus: 409 });
  });

  it(`two runs of one date at once settle it once (${kind === 'postgres' ? 'real concurrency: the table lock' : 'outcome only: PGlite serialises'})`, async () => {
    await txn(db, '2026-03-01', { amount: 20_000 });
    const both = await Promise.all([settleDate(db, '2026-03-02'), settleDate(db, '2026-03-02')]);
    expect(both.map((r) => r.skipped).sort()).toEqual([false, true]);
    expect(both.map((r) => r.txnCount).sort()).toEqual([0, 1]);
    expect((await rows(db)).map((r) => r.txn_set_date)).toEqual(['2026-03-02']);
    await allHold();
  });

  it('a range reports each date with its index and the total; dates up to the last run are skipped, not refused', async () => {
    await txn(db, '2026-03-05');
    await settleDate(db, '2026-03-05');
    const seen: [string, number, number][] = [];
    const out = await settleRange(db, '2026-03-03', '2026-03-07', (r, i, n) => {
      seen.push([r.date, i, n]);
    });
    expect(seen).toEqual([
      ['2026-03-03', 0, 5],
      ['2026-03-04', 1, 5],
      ['2026-03-05', 2, 5],
      ['2026-03-06', 3, 5],
      ['2026-03-07', 4, 5],
    ]);
    expect(out.map((r) => r.skipped)).toEqual([true, true, true, false, false]);
  });

  it('settles a payment resolved after its day on the next run (late arrival)', async () => {
    const clock = new TestClock(new Date('2026-03-02T04:00:00Z'));
    const acq = createSandboxAcquirer({ platformTz: TZ, clock });
    const p = await db.tx((q) => acq.pay(q, { merId: SG, orderNo: 'LATE-1', amount: 10004, currency: 'SGD', channel: 'CARD', brand: 'visa' }));
    await settleRange(db, '2026-03-02', '2026-03-04');
    expect((await txnRow(db, p.id)).settle_flag).toBe('N');
    await db.tx((q) => acq.resolvePending(q, p.id));
    await settleDate(db, '2026-03-05');
    expect(await txnRow(db, p.id)).toMatchObject({ settle_date: '2026-03-05', settle_amount: 10004 });
    await allHold();
  });

  it('leaves no date behind when a cycle is shortened, and re-reads none when lengthened', async () => {
    await setFee(db, SG, 'CARD', { cycleDays: 3 });
    const ids: number[] = [];
    for (const d of ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']) ids.push(await txn(db, d));
    await settleRange(db, '2026-03-02', '2026-03-05');
    await setFee(db, SG, 'CARD', { cycleDays: 1 });
    await settleDate(db, '2026-03-06');
    const dates = async () => (await Promise.all(ids.map((id) => txnRow(db, id)))).map((t) => t.settle_date);
    expect(await dates()).toEqual(['2026-03-05', '2026-03-06', '2026-03-06', '2026-03-06', null]);
    await setFee(db, SG, 'CARD', { cycleDays: 2 });
    await settleDate(db, '2026-03-07');
    expect((await dates())[4]).toBeNull();
    await settleDate(db, '2026-03-08');
    expect((await dates())[4]).toBe('2026-03-08');
    await allHold();
  });

  it('queues a backdated transaction ingested after its date was run, and settles it next', async () => {
    await settleRange(db, '2026-03-02', '2026-03-05');
    const id = await txn(db, '2026-03-02', { orderNo: 'BACKDATED-1' });
    expect((await db.query('SELECT txn_id FROM settle_late')).rows).toEqual([{ txn_id: id }]);
    await settleDate(db, '2026-03-06');
    expect(await txnRow(db, id)).toMatchObject({ settle_date: '2026-03-06', settle_flag: 'T' });
    expect((await db.query('SELECT txn_id FROM settle_late')).rows).toEqual([]);
    await allHold();
  });

  it("converts with the day's rate, half-even, with JPY and KRW exponents", async () => {
    // Merchant JP settles USD. JPY 0 decimals → USD 2: 12345 JPY × 0.0066 = 81.477 USD → 8148.
    await setFee(db, JP, 'CARD', { mdrBp: 250 });
    await setRate(db, '2026-03-02', 'JPY', 'USD', '0.0066');
    await setRate(db, '2026-03-03', 'JPY', 'USD', '0.0070');
    await setRate(db, '2026-03-03', 'KRW', 'USD', '0.000725');
    await setRate(db, '2026-03-03', 'EUR', 'USD', '1.085');
    const jp = (day: string, amount: number, currency: string) => txn(db, day, { merId: JP, amount, currency, paymentSchema: 'CARD', paymentBrand: 'jcb' });
    const a = await jp('2026-03-02', 12345, 'JPY');
    const b = await jp('2026-03-02', 10, 'KRW'); // 10 × 0.000725 = 0.00725 USD → 0.725 ¢ → 1
    const c = await jp('2026-03-02', 50, 'KRW'); // 0.03625 USD → 3.625 ¢ → 4
    const e = await jp('2026-03-02', 1, 'EUR'); // 0.01 × 1.085 = 1.085 ¢ → 1
    const h = await jp('2026-03-02', 3_000, 'KRW'); // 2.175 USD → 217.5 ¢ → 218 (half to even)
    const g = await jp('2026-03-02', 1_000, 'KRW'); // 0.725 USD → 72.5 ¢ → 72 (half to even)
    await settleDate(db, '2026-03-03');
    // The rate of the settlement date (0.0070) applies: 12345 × 0.0070 = 86.415 USD → 8642 (0.5 → even 8642).
    expect(await txnRow(db, a)).toMatchObject({ settle_amount: 8642, fx_rate: '0.007000000000' });
    expect((await txnRow(db, b)).settle_amount).toBe(1);
    expect((await txnRow(db, c)).settle_amount).toBe(4);
    expect((await txnRow(db, e)).settle_amount).toBe(1);
    expect((await txnRow(db, h)).settle_amount).toBe(218);
    expect((await txnRow(db, g)).settle_amount).toBe(72);
    // Fee: 8642 × 2.5 % = 216.05 → 216; 72 × 2.5 % = 1.8 → 2.
    expect((await txnRow(db, a)).settle_fee).toBe(Number(divRoundHalfEven(8642n * 250n, 10000n)));
    expect((await txnRow(db, g)).settle_fee).toBe(2);
    await allHold();
  });

  it('keeps a transaction without a rate unsettled until one exists', async () => {
    const a = await txn(db, '2026-03-02', { currency: 'USD', amount: 1000 });
    const r = await settleDate(db, '2026-03-03');
    expect(r.unconverted).toBe(1);
    expect((await txnRow(db, a)).settle_flag).toBe('N');
    await setRate(db, '2026-03-04', 'USD', 'SGD', '1.3425');
    await settleDate(db, '2026-03-04');
    expect(await txnRow(db, a)).toMatchObject({ settle_date: '2026-03-04', settle_amount: 1342 }); // 1342.5 → 1342
    await allHold();
  });

  it("gives every enabled channel's business line a schedule, grouped as busLineOf does", async () => {
    const channels = ['CARD', 'APDP', 'UP_B2B', 'PPRO_SOFORT', 'EXUP', 'WX', 'APP'];
    await db.query('UPDATE merchant SET channels = $2 WHERE mer_id = $1', [SG, channels]);
    try {
      await settleDate(db, '2026-03-02');
      const { rows } = await db.query<{ bus_line: string }>('SELECT bus_line FROM merchant_fee WHERE mer_id = $1 ORDER BY 1', [SG]);
      expect(rows.map((r) => r.bus_line)).toEqual([...new Set(channels.map(busLineOf))].sort());
    } finally {
      await db.query(`UPDATE merchant SET channels = '{CARD,AP}' WHERE mer_id = $1`, [SG]);
    }
  });

  it('the invariant checker notices tampering', async () => {
    await setFee(db, SG, 'CARD', { mdrBp: 100, reserveBp: 500, holdDays: 1 });
    await txn(db, '2026-03-02');
    await settleRange(db, '2026-03-02', '2026-03-05');
    await allHold();
    await db.query(`UPDATE settlement SET total_pending = total_pending + 1 WHERE mer_id = $1`, [SG]);
    await db.query(`UPDATE txn SET settle_amount = settle_amount + 1 WHERE mer_id = $1`, [SG]);
    await db.query(`UPDATE settlement_summary SET fee = fee + 1 WHERE mer_id = $1 AND txn_type = 'PURC'`, [SG]);
    await db.query(`UPDATE reserve SET amount = amount + 1 WHERE mer_id = $1`, [SG]);
    await db.query(`UPDATE settlement SET tran_fee = 1 WHERE mer_id = $1 AND trans_amount > 0`, [SG]);
    const v = await checkInvariants(db);
    for (const k of ['I1', 'I2', 'I3', 'I4', 'I6']) expect(v[k].length, k).toBeGreaterThan(0);
  });
});
