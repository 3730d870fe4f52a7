/**
 * The settlement run's rules that live only in its SQL (settle.sql.ts, settle.run.ts), each a rule a
 * merchant would notice, each held by a test that fails when the SQL mutation runner drops or flips
 * the predicate that carries it (issue 24, decision 014 "Settlement (tenth session)").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../../../test/helpers';
import { firstPendingDate, settleDate, settleRange } from './settle.run';
import { checkInvariants } from './invariants';
import { JP, SG, TZ, reset, rows, setFee, setRate, settleDb, txn, txnRow, type TestDb } from './settle.fixture';
import { queueLate } from '../late';
import { createSandboxAcquirer } from '../sandbox.acquirer';
import { TestClock } from '../../../lib/clock';

describe.each(DB_KINDS)('settlement rules written in SQL on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(() => reset(db));

  const allHold = async () => expect(Object.values(await checkInvariants(db)).flat()).toEqual([]);
  const queue = async () => (await db.query<{ txn_id: number }>('SELECT txn_id FROM settle_late ORDER BY txn_id')).rows.map((r) => Number(r.txn_id));
  const row = (r: Awaited<ReturnType<typeof rows>>[number]) => [
    r.txn_set_date,
    r.set_cur,
    r.txn_count,
    r.recon_set_amount,
    r.serv_amount,
    r.released_amount,
    r.history_pending,
    r.trans_amount,
    r.total_pending,
  ];
  const reserves = async (merId: string) =>
    (await db.query('SELECT set_cur, txn_set_date, amount, release_date, released, transfer_date FROM reserve WHERE mer_id = $1 ORDER BY txn_set_date, set_cur', [merId])).rows.map((r) => [
      r.set_cur,
      r.txn_set_date,
      Number(r.amount),
      r.release_date,
      r.released,
      r.transfer_date,
    ]);
  /** The settlement currency is the back office's to change; the tests that change it put it back. */
  const withSettleCurrency = async (merId: string, cur: string, fn: () => Promise<void>) => {
    const { rows: m } = await db.query<{ c: string }>('SELECT settle_currency AS c FROM merchant WHERE mer_id = $1', [merId]);
    await db.query('UPDATE merchant SET settle_currency = $2 WHERE mer_id = $1', [merId, cur]);
    try {
      await fn();
    } finally {
      await db.query('UPDATE merchant SET settle_currency = $2 WHERE mer_id = $1', [merId, m[0].c]);
    }
  };

  it('the run reports as transfers only the groups paid out that day, not a balance carried below its threshold', async () => {
    await setFee(db, SG, 'CARD', { threshold: 50_000 });
    await setFee(db, SG, 'AP');
    await txn(db, '2026-03-02', { amount: 10_000 });
    await txn(db, '2026-03-02', { amount: 2_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' });
    expect(await settleDate(db, '2026-03-03')).toMatchObject({ rowCount: 2, transfers: 1 });
    expect((await rows(db)).map((r) => r.total_pending)).toEqual([10_000]);
  });

  it('a day whose sales and refunds cancel out is no transfer: nothing remitted, the transactions stay cleared (S)', async () => {
    await setFee(db, SG, 'CARD');
    const p = await txn(db, '2026-03-02', { amount: 5_000 });
    const r = await txn(db, '2026-03-02', { tranType: 'REFD', amount: 5_000, originTxnId: p });
    await db.query('UPDATE txn SET return_amount = 5000 WHERE id = $1', [p]);
    expect(await settleDate(db, '2026-03-03')).toMatchObject({ txnCount: 2, transfers: 0 });
    expect(await rows(db)).toMatchObject([{ txn_count: 2, net_amount: 0, trans_amount: 0, total_pending: 0, remit_date: null }]);
    expect([(await txnRow(db, p)).settle_flag, (await txnRow(db, r)).settle_flag]).toEqual(['S', 'S']);
    await allHold();
  });

  it('a first catch-up starts at the oldest transaction still to settle: not a declined one, not one settled before (migrated history)', async () => {
    const old = await txn(db, '2026-02-20');
    await db.query(`UPDATE txn SET settle_date = '2026-02-21', settle_flag = 'T' WHERE id = $1`, [old]);
    await txn(db, '2026-02-25', { gwResponse: '05' });
    await txn(db, '2026-03-03');
    expect(await firstPendingDate(db)).toBe('2026-03-03');
  });

  it('converts with the rate of D or the latest before it: never a rate dated after D, never one 31 days old', async () => {
    await setFee(db, JP, 'CARD');
    await setRate(db, '2026-03-03', 'JPY', 'USD', '0.0066');
    await setRate(db, '2026-03-05', 'JPY', 'USD', '0.0070'); // after D: not known on D
    const a = await txn(db, '2026-03-02', { merId: JP, amount: 12_345, currency: 'JPY', paymentBrand: 'jcb' });
    await settleDate(db, '2026-03-03');
    expect(await txnRow(db, a)).toMatchObject({ settle_amount: 8_148, fx_rate: '0.006600000000' }); // 81.477 USD
    // KRW's only rate is 31 days old on 1 April: the transaction waits; a 30-day-old one is used.
    await setRate(db, '2026-03-01', 'KRW', 'USD', '0.00070');
    const k = await txn(db, '2026-03-31', { merId: JP, amount: 10_000, currency: 'KRW', paymentBrand: 'jcb' });
    await settleDate(db, '2026-04-01');
    expect(await txnRow(db, k)).toMatchObject({ settle_flag: 'N', settle_date: null });
    await setRate(db, '2026-03-03', 'KRW', 'USD', '0.00072');
    expect(await settleDate(db, '2026-04-02')).toMatchObject({ txnCount: 1, unconverted: 0 });
    expect(await txnRow(db, k)).toMatchObject({ settle_date: '2026-04-02', settle_amount: 720, fx_rate: '0.000720000000' });
    await allHold();
  });

  it("a dated fee schedule applies from its own day, to its own merchant's business line only", async () => {
    await setFee(db, SG, 'CARD');
    await setFee(db, SG, 'AP');
    await setFee(db, JP, 'CARD');
    await db.query(
      `INSERT INTO merchant_fee_schedule (mer_id, bus_line, effective_from, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
       VALUES ($1, 'CARD', '2026-03-03', 100, 0, 1, 0, 0, 0, 0, 'D')`,
      [SG],
    );
    try {
      const card = await txn(db, '2026-03-02', { amount: 10_000 });
      const ap = await txn(db, '2026-03-02', { amount: 10_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' });
      const jp = await txn(db, '2026-03-02', { merId: JP, amount: 10_000, currency: 'USD', paymentBrand: 'jcb' });
      await settleDate(db, '2026-03-03'); // the schedule's first day: 1 % on SG's card line
      expect([(await txnRow(db, card)).settle_fee, (await txnRow(db, ap)).settle_fee, (await txnRow(db, jp)).settle_fee]).toEqual([100, 0, 0]);
      const { rows: f } = await db.query<{ mer_id: string; bus_line: string; mdr_bp: number }>(
        `SELECT mer_id, bus_line, mdr_bp FROM merchant_fee WHERE (mer_id = $1 AND bus_line IN ('CARD', 'AP')) OR (mer_id = $2 AND bus_line = 'CARD') ORDER BY mer_id, bus_line`,
        [SG, JP],
      );
      expect(f.map((x) => [x.mer_id, x.bus_line, x.mdr_bp])).toEqual([
        [JP, 'CARD', 0],
        [SG, 'AP', 0],
        [SG, 'CARD', 100],
      ]);
    } finally {
      await db.query(`DELETE FROM merchant_fee_schedule WHERE mer_id = $1 AND effective_from = '2026-03-03'`, [SG]);
    }
  });

  it("a currency with rates to several currencies converts once, with the rate to the merchant's settlement currency", async () => {
    await setFee(db, JP, 'CARD');
    await setRate(db, '2026-03-03', 'JPY', 'EUR', '0.0061');
    await setRate(db, '2026-03-03', 'JPY', 'USD', '0.0066');
    await setRate(db, '2026-03-03', 'JPY', 'SGD', '0.0089');
    const a = await txn(db, '2026-03-02', { merId: JP, amount: 12_345, currency: 'JPY', paymentBrand: 'jcb' });
    expect(await settleDate(db, '2026-03-03')).toMatchObject({ txnCount: 1 });
    expect(await txnRow(db, a)).toMatchObject({ settle_amount: 8_148, fx_rate: '0.006600000000' });
    expect((await rows(db, JP)).map(row)).toEqual([['2026-03-03', 'USD', 1, 8_148, 0, 0, 0, 8_148, 0]]);
    await allHold();
  });

  it("a settled transaction is never settled again, even when its schedule's cursor is set back", async () => {
    await setFee(db, SG, 'CARD');
    const a = await txn(db, '2026-03-02', { amount: 10_000 });
    await settleDate(db, '2026-03-03');
    const b = await txn(db, '2026-03-03', { amount: 3_000 });
    await db.query(`UPDATE merchant_fee SET settled_through = '2026-03-01' WHERE mer_id = $1 AND bus_line = 'CARD'`, [SG]);
    expect(await settleDate(db, '2026-03-04')).toMatchObject({ txnCount: 1 });
    expect(await txnRow(db, a)).toMatchObject({ settle_date: '2026-03-03', settle_amount: 10_000 });
    expect(await txnRow(db, b)).toMatchObject({ settle_date: '2026-03-04' });
    expect((await rows(db)).map((r) => [r.txn_set_date, r.txn_count, r.trans_amount])).toEqual([
      ['2026-03-03', 1, 10_000],
      ['2026-03-04', 1, 3_000],
    ]);
    await allHold();
  });

  it('the late queue settles only what is still to settle: a settled, a declined and a pre-authorised transaction queued are left alone', async () => {
    await setFee(db, SG, 'CARD');
    const settled = await txn(db, '2026-03-02', { amount: 10_000 });
    const declined = await txn(db, '2026-03-02', { amount: 777, gwResponse: '05' });
    const paut = await txn(db, '2026-03-02', { amount: 500, tranType: 'PAUT' });
    await settleDate(db, '2026-03-03');
    await queueLate(db, [settled, declined, paut]);
    expect(await settleDate(db, '2026-03-04')).toMatchObject({ txnCount: 0, rowCount: 0 });
    expect(await txnRow(db, settled)).toMatchObject({ settle_date: '2026-03-03', settle_amount: 10_000 });
    expect(await txnRow(db, declined)).toMatchObject({ settle_flag: 'N', settle_date: null });
    expect(await txnRow(db, paut)).toMatchObject({ settle_flag: 'N', settle_date: null });
    expect((await rows(db)).map((r) => r.txn_set_date)).toEqual(['2026-03-03']);
    await allHold();
  });

  it("a payment resolved before its day's run is settled once, though it is both due and queued", async () => {
    await setFee(db, SG, 'CARD');
    await setFee(db, SG, 'AP', { cycleDays: 3 }); // the merchant's other line: its cycle is not the card's
    const clock = new TestClock(new Date('2026-03-02T04:00:00Z'));
    const acq = createSandboxAcquirer({ platformTz: TZ, clock });
    const p = await db.tx((q) => acq.pay(q, { merId: SG, orderNo: 'RESOLVED-1', amount: 10_004, currency: 'SGD', channel: 'CARD', brand: 'visa' }));
    await db.tx((q) => acq.resolvePending(q, p.id));
    expect(await queue()).toEqual([Number(p.id)]);
    expect(await settleDate(db, '2026-03-03')).toMatchObject({ txnCount: 1 });
    expect((await rows(db)).map((r) => [r.txn_count, r.recon_set_amount, r.trans_amount])).toEqual([[1, 10_004, 10_004]]);
    expect(await queue()).toEqual([]);
    await allHold();
  });

  it('a transaction waiting for a rate keeps its place in the queue while others settle, and settles when the rate comes', async () => {
    await setFee(db, SG, 'CARD');
    const usd = await txn(db, '2026-03-02', { currency: 'USD', amount: 1_000 });
    const sgd = await txn(db, '2026-03-02', { amount: 5_000 });
    expect(await settleDate(db, '2026-03-03')).toMatchObject({ txnCount: 1, unconverted: 1 });
    expect((await txnRow(db, sgd)).settle_date).toBe('2026-03-03');
    expect(await queue()).toEqual([usd]);
    await setRate(db, '2026-03-04', 'USD', 'SGD', '1.3425');
    await settleDate(db, '2026-03-04');
    expect(await txnRow(db, usd)).toMatchObject({ settle_date: '2026-03-04', settle_amount: 1_342 });
    expect(await queue()).toEqual([]);
    await allHold();
  });

  it('a reserve released on a day without sales or transfer still comes back into the carried balance', async () => {
    await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 2, threshold: 100_000 });
    await txn(db, '2026-03-02', { amount: 10_000 });
    await settleRange(db, '2026-03-03', '2026-03-06');
    expect((await rows(db)).map(row)).toEqual([
      ['2026-03-03', 'SGD', 1, 10_000, 1_000, 0, 0, 0, 9_000],
      ['2026-03-05', 'SGD', 0, 0, 0, 1_000, 9_000, 0, 10_000],
    ]);
    expect(await reserves(SG)).toEqual([['SGD', '2026-03-03', 1_000, '2026-03-05', true, null]]);
    await allHold();
  });

  it('a reserve released at once into a carried balance gets no remittance date until the balance is paid', async () => {
    await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 0, threshold: 25_000 });
    for (const d of ['2026-03-02', '2026-03-03', '2026-03-04']) await txn(db, d, { amount: 10_000 });
    await settleRange(db, '2026-03-03', '2026-03-04'); // 10,000 then 20,000 carried: below 25,000
    expect(await reserves(SG)).toEqual([
      ['SGD', '2026-03-03', 1_000, '2026-03-03', true, null],
      ['SGD', '2026-03-04', 1_000, '2026-03-04', true, null],
    ]);
    await settleDate(db, '2026-03-05'); // 30,000: paid out on 6 March with the three reserves
    expect((await reserves(SG)).map((r) => r[5])).toEqual(['2026-03-06', '2026-03-06', '2026-03-06']);
    await allHold();
  });

  it('two merchants of one business line and currency each keep their own sales, reserve release and carried balance', async () => {
    await withSettleCurrency(SG, 'USD', async () => {
      await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 2, threshold: 100_000 });
      await setFee(db, SG, 'AP');
      await setFee(db, JP, 'CARD');
      const ids = [
        await txn(db, '2026-03-02', { currency: 'USD', amount: 10_000 }),
        await txn(db, '2026-03-03', { merId: JP, currency: 'USD', amount: 3_000, paymentBrand: 'jcb' }),
        await txn(db, '2026-03-04', { currency: 'USD', amount: 10_000 }),
        await txn(db, '2026-03-04', { merId: JP, currency: 'USD', amount: 4_000, paymentBrand: 'jcb' }),
        await txn(db, '2026-03-04', { currency: 'USD', amount: 2_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' }),
      ];
      await settleRange(db, '2026-03-03', '2026-03-05');
      // SG: 10 % held two days; the 3 March reserve comes back on 5 March; the balance is carried.
      expect((await rows(db, SG)).map(row)).toEqual([
        ['2026-03-03', 'USD', 1, 10_000, 1_000, 0, 0, 0, 9_000],
        ['2026-03-05', 'USD', 1, 10_000, 1_000, 1_000, 9_000, 0, 19_000],
      ]);
      expect((await rows(db, SG, 'AP')).map(row)).toEqual([['2026-03-05', 'USD', 1, 2_000, 0, 0, 0, 2_000, 0]]);
      expect((await rows(db, JP)).map(row)).toEqual([
        ['2026-03-04', 'USD', 1, 3_000, 0, 0, 0, 3_000, 0],
        ['2026-03-05', 'USD', 1, 4_000, 0, 0, 0, 4_000, 0],
      ]);
      // SG's card sales wait in its carried balance (S); JP's and SG's AP sales went out (T).
      expect((await Promise.all(ids.map((id) => txnRow(db, id)))).map((t) => t.settle_flag)).toEqual(['S', 'T', 'S', 'T', 'T']);
      // SG's reserve of 3 March came back into its carried balance: released, not remitted.
      expect(await reserves(SG)).toEqual([
        ['USD', '2026-03-03', 1_000, '2026-03-05', true, null],
        ['USD', '2026-03-05', 1_000, '2026-03-07', false, null],
      ]);
      await allHold();
    });
  });

  it('a payout of one merchant or one business line never marks paid, nor stamps a remittance date on, what another still carries', async () => {
    await withSettleCurrency(SG, 'USD', async () => {
      // SG's card line: 10 % released at once into a balance carried below its threshold. SG's
      // Alipay line and JP's card line: carried one day, paid out the next (4 March, covering 3–4 March).
      await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 0, threshold: 100_000 });
      await setFee(db, SG, 'AP', { threshold: 5_000 });
      await setFee(db, JP, 'CARD', { threshold: 5_000 });
      const card = [await txn(db, '2026-03-02', { currency: 'USD', amount: 10_000 }), await txn(db, '2026-03-03', { currency: 'USD', amount: 10_000 })];
      const ap = [
        await txn(db, '2026-03-02', { currency: 'USD', amount: 3_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' }),
        await txn(db, '2026-03-03', { currency: 'USD', amount: 4_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' }),
      ];
      const jp = [
        await txn(db, '2026-03-02', { merId: JP, currency: 'USD', amount: 3_000, paymentBrand: 'jcb' }),
        await txn(db, '2026-03-03', { merId: JP, currency: 'USD', amount: 4_000, paymentBrand: 'jcb' }),
      ];
      await settleRange(db, '2026-03-03', '2026-03-04');
      const paidOut = [
        ['2026-03-03', 'USD', 1, 3_000, 0, 0, 0, 0, 3_000],
        ['2026-03-04', 'USD', 1, 4_000, 0, 0, 3_000, 7_000, 0],
      ];
      expect((await rows(db, JP)).map(row)).toEqual(paidOut);
      expect((await rows(db, SG, 'AP')).map(row)).toEqual(paidOut);
      expect((await rows(db, SG)).map(row)).toEqual([
        ['2026-03-03', 'USD', 1, 10_000, 1_000, 1_000, 0, 0, 10_000],
        ['2026-03-04', 'USD', 1, 10_000, 1_000, 1_000, 10_000, 0, 20_000],
      ]);
      // Paid out: T. SG's card sales are still carried: S, and its reserves released into that balance have no remittance date.
      const flags = async (ids: number[]) => (await Promise.all(ids.map((id) => txnRow(db, id)))).map((t) => t.settle_flag);
      expect(await flags(jp)).toEqual(['T', 'T']);
      expect(await flags(ap)).toEqual(['T', 'T']);
      expect(await flags(card)).toEqual(['S', 'S']);
      expect(await reserves(SG)).toEqual([
        ['USD', '2026-03-03', 1_000, '2026-03-03', true, null],
        ['USD', '2026-03-04', 1_000, '2026-03-04', true, null],
      ]);
      await allHold();
    });
  });

  // The release of a reserve due on D meets every group of its merchant that day: only its own
  // line's says whether it is paid out. Both ways round, so that no fixed pick of a line passes.
  for (const [held, paid] of [
    ['CARD', 'AP'],
    ['AP', 'CARD'],
  ] as const) {
    it(`a reserve released into a carried balance gets no remittance date when the merchant's other line pays out that day (${held} carried, ${paid} paid)`, async () => {
      const line = (l: string) => (l === 'AP' ? { paymentSchema: 'AP', paymentBrand: 'alipay_cn' } : {});
      await setFee(db, SG, held, { reserveBp: 1_000, holdDays: 1, threshold: 100_000 });
      await setFee(db, SG, paid);
      await txn(db, '2026-03-02', { amount: 10_000, ...line(held) });
      await txn(db, '2026-03-03', { amount: 2_000, ...line(paid) });
      await settleRange(db, '2026-03-03', '2026-03-04');
      expect((await rows(db, SG, paid)).map(row)).toEqual([['2026-03-04', 'SGD', 1, 2_000, 0, 0, 0, 2_000, 0]]);
      expect((await rows(db, SG, held)).map(row)).toEqual([
        ['2026-03-03', 'SGD', 1, 10_000, 1_000, 0, 0, 0, 9_000],
        ['2026-03-04', 'SGD', 0, 0, 0, 1_000, 9_000, 0, 10_000],
      ]);
      expect(await reserves(SG)).toEqual([['SGD', '2026-03-03', 1_000, '2026-03-04', true, null]]);
      await allHold();
    });
  }

  // The same across a settlement-currency change: the release of a reserve held in the old currency
  // meets the merchant's groups of both currencies that day; only its own currency's decides.
  for (const [threshold, usdSale, sgdSale, usdPaid] of [
    [5_000, 3_000, 6_000, false],
    [10_000, 10_000, 2_000, true],
  ] as const) {
    it(`a reserve held before a settlement-currency change is paid out with its own currency's balance only (${usdPaid ? 'old currency paid' : 'new currency paid'})`, async () => {
      let sgdId = 0;
      await withSettleCurrency(SG, 'USD', async () => {
        await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 1, threshold });
        await txn(db, '2026-03-02', { currency: 'USD', amount: usdSale });
        await settleDate(db, '2026-03-03');
        await db.query(`UPDATE merchant SET settle_currency = 'SGD' WHERE mer_id = $1`, [SG]);
        sgdId = await txn(db, '2026-03-03', { currency: 'SGD', amount: sgdSale });
        await settleDate(db, '2026-03-04');
      });
      // the day's sale is marked with its own currency's group: paid out (T) or carried (S)
      expect((await txnRow(db, sgdId)).settle_flag).toBe(usdPaid ? 'S' : 'T');
      const byCur = (await rows(db)).map(row).sort((x, y) => String(x[0]).localeCompare(String(y[0])) || String(x[1]).localeCompare(String(y[1])));
      const usdDue = usdSale - usdSale / 10;
      const sgdDue = sgdSale - sgdSale / 10;
      expect(byCur).toEqual([
        ['2026-03-03', 'USD', 1, usdSale, usdSale / 10, 0, 0, 0, usdDue],
        ['2026-03-04', 'SGD', 1, sgdSale, sgdSale / 10, 0, 0, usdPaid ? 0 : sgdDue, usdPaid ? sgdDue : 0],
        ['2026-03-04', 'USD', 0, 0, 0, usdSale / 10, usdDue, usdPaid ? usdSale : 0, usdPaid ? 0 : usdSale],
      ]);
      expect(await reserves(SG)).toEqual([
        ['USD', '2026-03-03', usdSale / 10, '2026-03-04', true, usdPaid ? '2026-03-05' : null],
        ['SGD', '2026-03-04', sgdSale / 10, '2026-03-05', false, null],
      ]);
      await allHold();
    });
  }

  // A day's sale meets its merchant's groups of both currencies when the other currency releases a
  // reserve that day: only its own currency's group says whether it is paid out (T) or carried (S).
  // Both orders of the two currencies, so that no pick of a group by its currency passes; the payout
  // covers the other currency's carried sale, which stays S.
  for (const [a, b] of [
    ['SGD', 'USD'],
    ['USD', 'SGD'],
  ] as const) {
    it(`a sale is paid out by its own currency's group, not by the other currency's release that day (${a} paid, ${b} carried)`, async () => {
      const ids: number[] = [];
      await withSettleCurrency(SG, a, async () => {
        await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 1, threshold: 10_000 });
        ids.push(await txn(db, '2026-03-02', { currency: a, amount: 2_000 }));
        await settleDate(db, '2026-03-03');
        await db.query('UPDATE merchant SET settle_currency = $2 WHERE mer_id = $1', [SG, b]);
        ids.push(await txn(db, '2026-03-03', { currency: b, amount: 3_000 }));
        await settleDate(db, '2026-03-04');
        await db.query('UPDATE merchant SET settle_currency = $2 WHERE mer_id = $1', [SG, a]);
        ids.push(await txn(db, '2026-03-04', { currency: a, amount: 9_000 }));
        await settleDate(db, '2026-03-05');
      });
      // 5 March: a's group owes 2,000 carried + 8,100 ≥ 10,000 and pays out 3–5 March; b's releases 300 into 2,700 carried.
      expect(
        (await rows(db))
          .filter((r) => r.txn_set_date === '2026-03-05')
          .map(row)
          .sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      ).toEqual(
        [
          ['2026-03-05', a, 1, 9_000, 900, 0, 2_000, 10_100, 0],
          ['2026-03-05', b, 0, 0, 0, 300, 2_700, 0, 3_000],
        ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      );
      const marks = await db.query<{ c: string; f: string }>('SELECT settle_currency AS c, settle_flag AS f FROM txn WHERE id = ANY($1) ORDER BY id', [ids]);
      expect(marks.rows.map((r) => [r.c, r.f])).toEqual([
        [a, 'T'],
        [b, 'S'],
        [a, 'T'],
      ]);
      expect(await reserves(SG)).toEqual([
        [a, '2026-03-03', 200, '2026-03-04', true, '2026-03-06'],
        [b, '2026-03-04', 300, '2026-03-05', true, null],
        [a, '2026-03-05', 900, '2026-03-06', false, null],
      ]);
      await allHold();
    });
  }

  it("a payout in the new settlement currency leaves the old currency's carried sale and released reserve as they were", async () => {
    const ids: number[] = [];
    await withSettleCurrency(SG, 'SGD', async () => {
      // SGD carried from 3 March; a USD day in between (carried, its reserve released at once); SGD pays out on 5 March.
      await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 0, threshold: 5_000 });
      ids.push(await txn(db, '2026-03-02', { currency: 'SGD', amount: 3_000 }));
      await settleDate(db, '2026-03-03');
      await db.query(`UPDATE merchant SET settle_currency = 'USD' WHERE mer_id = $1`, [SG]);
      ids.push(await txn(db, '2026-03-03', { currency: 'USD', amount: 2_000 }));
      await settleDate(db, '2026-03-04');
      await db.query(`UPDATE merchant SET settle_currency = 'SGD' WHERE mer_id = $1`, [SG]);
      ids.push(await txn(db, '2026-03-04', { currency: 'SGD', amount: 4_000 }));
      await settleDate(db, '2026-03-05');
    });
    expect((await rows(db)).filter((r) => r.txn_set_date === '2026-03-05').map(row)).toEqual([['2026-03-05', 'SGD', 1, 4_000, 400, 400, 3_000, 7_000, 0]]);
    expect(await Promise.all(ids.map(async (id) => (await txnRow(db, id)).settle_flag))).toEqual(['T', 'S', 'T']);
    // The SGD reserves of 3 and 5 March go out with the SGD payout; the USD reserve released on 4 March is still carried.
    expect(await reserves(SG)).toEqual([
      ['SGD', '2026-03-03', 300, '2026-03-03', true, '2026-03-06'],
      ['USD', '2026-03-04', 200, '2026-03-04', true, null],
      ['SGD', '2026-03-05', 400, '2026-03-05', true, '2026-03-06'],
    ]);
    await allHold();
  });

  it('a balance and a reserve carried before a settlement currency change are paid out in their own currency, in full', async () => {
    await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 2, threshold: 100_000 });
    await setRate(db, '2026-03-01', 'SGD', 'USD', '0.75');
    await txn(db, '2026-03-02', { amount: 10_000 });
    await settleDate(db, '2026-03-03');
    await withSettleCurrency(SG, 'USD', async () => {
      await txn(db, '2026-03-03', { amount: 10_000 });
      await txn(db, '2026-03-04', { amount: 4_000 });
      await settleDate(db, '2026-03-04');
      await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 2, threshold: 0 });
      await settleDate(db, '2026-03-05');
      expect((await rows(db)).map(row).sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`))).toEqual([
        ['2026-03-03', 'SGD', 1, 10_000, 1_000, 0, 0, 0, 9_000],
        ['2026-03-04', 'USD', 1, 7_500, 750, 0, 0, 0, 6_750],
        // SGD: nothing new; the reserve of 3 March comes back and all 10,000 SGD go out.
        ['2026-03-05', 'SGD', 0, 0, 0, 1_000, 9_000, 10_000, 0],
        ['2026-03-05', 'USD', 1, 3_000, 300, 0, 6_750, 9_450, 0],
      ]);
      // Released and remitted with the SGD transfer; the USD reserves are still held: no transfer date.
      expect(await reserves(SG)).toEqual([
        ['SGD', '2026-03-03', 1_000, '2026-03-05', true, '2026-03-06'],
        ['USD', '2026-03-04', 750, '2026-03-06', false, null],
        ['USD', '2026-03-05', 300, '2026-03-07', false, null],
      ]);
      await allHold();
    });
  });
});
