import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../../../test/helpers';
import { settleRange } from './settle.run';
import { checkInvariants } from './invariants';
import { SG, reset, rows, setFee, settleDb, txn, txnRow, type TestDb } from './settle.fixture';

// 2026-03-02 is a Monday.
describe.each(DB_KINDS)('transfers and reserves on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(() => reset(db));

  const allHold = async () => expect(Object.values(await checkInvariants(db)).flat()).toEqual([]);
  const pick = (r: Awaited<ReturnType<typeof rows>>) => r.map((x) => [x.txn_set_date, x.history_pending, x.net_amount, x.trans_amount, x.total_pending, x.recon_search_date]);

  it('carries balances below the threshold and transfers once reached', async () => {
    await setFee(db, SG, 'CARD', { threshold: 25_000 });
    const ids: number[] = [];
    for (const d of ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']) ids.push(await txn(db, d, { amount: 10_000 }));
    await settleRange(db, '2026-03-02', '2026-03-06');
    expect(pick(await rows(db))).toEqual([
      ['2026-03-03', 0, 10_000, 0, 10_000, '2026-03-03'],
      ['2026-03-04', 10_000, 10_000, 0, 20_000, '2026-03-03'],
      ['2026-03-05', 20_000, 10_000, 30_000, 0, '2026-03-03'],
      ['2026-03-06', 0, 10_000, 0, 10_000, '2026-03-06'],
    ]);
    // Carried transactions became T with the transfer; the last one waits (S).
    expect((await Promise.all(ids.map((id) => txnRow(db, id)))).map((t) => t.settle_flag)).toEqual(['T', 'T', 'T', 'S']);
    await allHold();
  });

  it('transfers a balance exactly at the threshold (due ≥ threshold), and one exactly at the transfer fee', async () => {
    await setFee(db, SG, 'CARD', { threshold: 20_000 });
    await setFee(db, SG, 'AP', { tranFee: 1_500 });
    for (const d of ['2026-03-02', '2026-03-03']) await txn(db, d, { amount: 10_000 });
    await txn(db, '2026-03-02', { amount: 1_500, paymentSchema: 'AP', paymentBrand: 'alipay_cn' });
    await settleRange(db, '2026-03-02', '2026-03-04');
    expect(pick(await rows(db))).toEqual([
      ['2026-03-03', 0, 10_000, 0, 10_000, '2026-03-03'],
      ['2026-03-04', 10_000, 10_000, 20_000, 0, '2026-03-03'],
    ]);
    expect((await rows(db, SG, 'AP')).map((x) => [x.txn_set_date, x.trans_amount, x.tran_fee, x.real_trans_amount, x.total_pending])).toEqual([['2026-03-03', 1_500, 1_500, 0, 0]]);
    await allHold();
  });

  it('holds the reserve rounded half-even: x.5 goes to the even neighbour, anything else to the nearest', async () => {
    await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 5 });
    // One purchase a day, so each day's reserve is 10 % of one amount.
    const cases: [string, number, number][] = [
      ['2026-03-02', 10_015, 1_002], // 1001.5 → 1002 (odd digit: up)
      ['2026-03-03', 10_025, 1_002], // 1002.5 → 1002 (even digit: down)
      ['2026-03-04', 10_007, 1_001], // 1000.7 → 1001
      ['2026-03-05', 10_003, 1_000], // 1000.3 → 1000
    ];
    for (const [d, amount] of cases) await txn(db, d, { amount });
    await settleRange(db, '2026-03-02', '2026-03-06');
    expect((await rows(db)).map((x) => [x.txn_set_date, x.recon_set_amount, x.serv_amount])).toEqual(
      cases.map(([_d, amount, held], i) => [['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'][i], amount, held]),
    );
    const res = (await db.query<{ amount: number }>('SELECT amount FROM reserve ORDER BY txn_set_date')).rows.map((r) => r.amount);
    expect(res).toEqual(cases.map((c) => c[2]));
    await allHold();
  });

  it('carries a negative balance (refunds over sales) without a transfer', async () => {
    await setFee(db, SG, 'CARD');
    const p = await txn(db, '2026-03-02', { amount: 5_000 });
    await settleRange(db, '2026-03-02', '2026-03-03');
    await txn(db, '2026-03-03', { tranType: 'REFD', amount: 5_000, originTxnId: p });
    await db.query('UPDATE txn SET return_amount = 5000 WHERE id = $1', [p]);
    await txn(db, '2026-03-03', { tranType: 'FEE_COLLECTION', amount: 1_000, paymentBrand: null });
    await txn(db, '2026-03-04', { amount: 4_000 });
    await settleRange(db, '2026-03-04', '2026-03-05');
    expect(pick(await rows(db))).toEqual([
      ['2026-03-03', 0, 5_000, 5_000, 0, '2026-03-03'],
      ['2026-03-04', 0, -6_000, 0, -6_000, '2026-03-04'],
      ['2026-03-05', -6_000, 4_000, 0, -2_000, '2026-03-04'],
    ]);
    await allHold();
  });

  it("holds a reserve and releases it on its day, into that day's transfer", async () => {
    await setFee(db, SG, 'CARD', { reserveBp: 1_000, holdDays: 3 });
    await txn(db, '2026-03-02', { amount: 10_005 });
    await settleRange(db, '2026-03-02', '2026-03-08');
    const r = await rows(db);
    // 10005 × 10 % = 1000.5 → 1000 (half to even).
    expect(r.map((x) => [x.txn_set_date, x.serv_amount, x.released_amount, x.trans_amount, x.remit_date])).toEqual([
      ['2026-03-03', 1_000, 0, 9_005, '2026-03-04'],
      ['2026-03-06', 0, 1_000, 1_000, '2026-03-09'],
    ]);
    const res = (await db.query('SELECT txn_set_date, amount, release_date, released, transfer_date FROM reserve')).rows;
    expect(res).toEqual([{ txn_set_date: '2026-03-03', amount: 1_000, release_date: '2026-03-06', released: true, transfer_date: '2026-03-09' }]);
    const dep = (await db.query(`SELECT txn_set_date, txn_type, settle_amount, payment_brand FROM settlement_summary WHERE txn_type LIKE 'M-%' ORDER BY 1`)).rows;
    expect(dep).toEqual([
      { txn_set_date: '2026-03-03', txn_type: 'M-DEPOSIT', settle_amount: -1_000, payment_brand: '' },
      { txn_set_date: '2026-03-06', txn_type: 'M-DEPOSIT-RELEASE', settle_amount: 1_000, payment_brand: '' },
    ]);
    await allHold();
  });

  it('charges the transfer fee and never transfers less than it', async () => {
    await setFee(db, SG, 'CARD', { tranFee: 1_500 });
    await txn(db, '2026-03-02', { amount: 1_000 });
    await txn(db, '2026-03-03', { amount: 20_000 });
    await settleRange(db, '2026-03-02', '2026-03-04');
    expect((await rows(db)).map((x) => [x.txn_set_date, x.trans_amount, x.real_trans_before_fee, x.tran_fee, x.real_trans_amount, x.total_pending])).toEqual([
      ['2026-03-03', 0, 0, 0, 0, 1_000],
      ['2026-03-04', 21_000, 21_000, 1_500, 19_500, 0],
    ]);
    await allHold();
  });

  it('transfers weekly on its weekday and monthly on its day; remits the next business day', async () => {
    await setFee(db, SG, 'CARD', { period: 'W5', cycleDays: 0 }); // Fridays
    await setFee(db, SG, 'AP', { period: 'M15', cycleDays: 0 });
    for (const d of ['2026-03-02', '2026-03-04', '2026-03-09']) await txn(db, d, { amount: 1_000 });
    for (const d of ['2026-03-02', '2026-03-16', '2026-04-10']) await txn(db, d, { amount: 2_000, paymentSchema: 'AP', paymentBrand: 'alipay_cn' });
    await settleRange(db, '2026-03-02', '2026-04-20');
    const card = (await rows(db)).filter((x) => x.trans_amount > 0);
    // Friday 6 March transfers 2000 (a row with no transactions, for the carried balance); remitted Monday 9.
    expect(card.map((x) => [x.txn_set_date, x.trans_amount, x.remit_date, x.txn_count, x.recon_search_date])).toEqual([
      ['2026-03-06', 2_000, '2026-03-09', 0, '2026-03-02'],
      ['2026-03-13', 1_000, '2026-03-16', 0, '2026-03-07'],
    ]);
    const ap = (await rows(db, SG, 'AP')).filter((x) => x.trans_amount > 0);
    expect(ap.map((x) => [x.txn_set_date, x.trans_amount, x.remit_date])).toEqual([
      ['2026-03-15', 2_000, '2026-03-16'],
      ['2026-04-15', 4_000, '2026-04-16'],
    ]);
    await allHold();
  });
});
