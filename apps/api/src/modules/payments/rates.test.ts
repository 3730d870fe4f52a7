import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { divRoundHalfEven } from '@portal/contract';
import { DB_KINDS } from '../../../test/helpers';
import { AppError } from '../../lib/errors';
import { assertDayOver, lastSettleableDate, settleDate } from './settlement/settle.run';
import { checkInvariants } from './settlement/invariants';
import { SG, reset, setFee, settleDb, txn, type TestDb } from './settlement/settle.fixture';
import { ingestTransaction } from './ingest.service';
import { parseRateRow, rateHistory, saveRates, waitingForRate, type RateRow } from './rates.service';

const NOW = { now: new Date('2026-03-20T04:00:00Z'), platformTz: 'Asia/Shanghai' };
const by = { source: 'api' as const, ref: 'test', actor: { username: 'test' }, lang: 'en' as const };

describe.each(DB_KINDS)('exchange rates and the settlement run (%s)', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    await reset(db);
    await db.exec('DELETE FROM fx_rate_entry');
    await setFee(db, SG, 'CARD', { mdrBp: 250 });
  });

  const row = (date: string, rate: string, o: Partial<RateRow> = {}): RateRow => ({ date, from: 'USD', to: 'SGD', rate, correction: false, ...o });
  const save = (rows: RateRow[]) => db.tx((q) => saveRates(q, rows, by));
  const usd = (day: string, amount: number) => txn(db, day, { currency: 'USD', amount });
  const settled = async (id: number) =>
    (
      await db.query<{ settle_date: string | null; settle_amount: number | null; fx_rate: string | null; fx_rate_id: string | null }>(
        'SELECT settle_date::text AS settle_date, settle_amount, fx_rate::text AS fx_rate, fx_rate_id FROM txn WHERE id = $1',
        [id],
      )
    ).rows[0];
  const entryOf = async (date: string) => (await db.query<{ entry_id: string }>(`SELECT entry_id FROM fx_rate WHERE rate_date = $1 AND from_cur = 'USD' AND to_cur = 'SGD'`, [date])).rows[0].entry_id;
  const allHold = async () => expect(Object.values(await checkInvariants(db)).flat()).toEqual([]);

  it('strict rows: each bad field named, with a clear message', () => {
    const bad = (raw: unknown) => {
      try {
        parseRateRow(raw, NOW);
      } catch (e) {
        return { key: (e as AppError).key, field: ((e as AppError).data as { field?: string } | null)?.field };
      }
      return null;
    };
    expect(parseRateRow({ date: '2026-03-02', from: 'USD', to: 'SGD', rate: '1.3425' }, NOW)).toEqual(row('2026-03-02', '1.3425'));
    expect(bad({ date: '2026-02-30', from: 'USD', to: 'SGD', rate: '1' })).toEqual({ key: 'fxDateInvalid', field: 'date' });
    expect(bad({ date: '2026-03-22', from: 'USD', to: 'SGD', rate: '1' })).toEqual({ key: 'fxDateFuture', field: 'date' });
    expect(bad({ date: '2026-03-21', from: 'USD', to: 'SGD', rate: '1' })).toBeNull(); // tomorrow is accepted
    expect(bad({ date: '2026-03-02', from: 'XXX', to: 'SGD', rate: '1' })).toEqual({ key: 'payCurrencyUnknown', field: 'from' });
    expect(bad({ date: '2026-03-02', from: 'USD', to: 'USD', rate: '1' })).toEqual({ key: 'fxSamePair', field: 'to' });
    for (const rate of ['0', '0.000', '-1', '1e3', '1.', '.5', '01.5', 1.5, '1.1234567890123', '1234567890123'])
      expect(bad({ date: '2026-03-02', from: 'USD', to: 'SGD', rate }), String(rate)).toEqual({ key: 'fxRateInvalid', field: 'rate' });
    expect(bad({ date: '2026-03-02', from: 'USD', to: 'SGD', rate: '1', extra: 1 })).toEqual({ key: 'fxRowInvalid', field: 'extra' });
    expect(bad({ date: '2026-03-02', from: 'USD', to: 'SGD', rate: '1', correction: 'yes' })).toEqual({ key: 'fxRowInvalid', field: 'correction' });
  });

  it('idempotent by content; another figure only as a correction; every version kept', async () => {
    const a = await save([row('2026-03-02', '1.3425'), row('2026-03-02', '1.3425', { to: 'HKD' })]);
    expect(a.results.map((r) => r.status)).toEqual(['created', 'created']);
    const again = await save([row('2026-03-02', '1.342500')]);
    expect(again.results[0]).toMatchObject({ status: 'unchanged', entryId: a.results[0].entryId });
    const plain = await save([row('2026-03-02', '1.35')]);
    expect(plain.results[0]).toMatchObject({ status: 'rejected', code: 409, field: 'rate' });
    expect(plain.results[0].msg).toBe('The rate USD→SGD of 2026-03-02 is already 1.3425: to replace it, send the row as a correction');
    const fix = await save([row('2026-03-02', '1.35', { correction: true }), row('2026-03-02', '1.36', { correction: true })]);
    expect(fix.results[0]).toMatchObject({ status: 'corrected', previousRate: '1.3425', settledWithPrevious: 0, msg: 'success' });
    expect(fix.results[1]).toMatchObject({ status: 'rejected', msg: 'This day and pair already came in row 0 of the same request' });
    const h = await rateHistory(db, '2026-03-02', 'USD', 'SGD');
    expect(h.map((v) => [v.rate, v.source, v.current, v.supersedes])).toEqual([
      ['1.3425', 'api', false, null],
      ['1.35', 'api', true, h[0].entryId],
    ]);
  });

  it('the run converts with the rate in force and records the rate and its version on every converted row', async () => {
    await save([row('2026-03-03', '1.3425')]);
    const a = await usd('2026-03-02', 1000); // 10.00 USD × 1.3425 = 13.425 SGD → 1342 (half-even)
    const same = await txn(db, '2026-03-02', { amount: 500 });
    await settleDate(db, '2026-03-03');
    expect(await settled(a)).toEqual({ settle_date: '2026-03-03', settle_amount: 1342, fx_rate: '1.342500000000', fx_rate_id: await entryOf('2026-03-03') });
    expect(await settled(same)).toMatchObject({ settle_amount: 500, fx_rate: '1.000000000000', fx_rate_id: null });
    await allHold();
  });

  it('decimal arithmetic as the run always did: a 12-digit rate, half-even, exponents — equal to exact integer arithmetic', async () => {
    await db.tx((q) => saveRates(q, [{ date: '2026-03-03', from: 'JPY', to: 'SGD', rate: '0.008912345678', correction: false }], by));
    await db.query(`UPDATE merchant SET currencies = array_append(currencies, 'JPY') WHERE mer_id = $1`, [SG]);
    try {
      const amounts = [123_456_789, 1, 56_107, 5_610_750];
      const ids = [];
      for (const amount of amounts) ids.push(await txn(db, '2026-03-02', { currency: 'JPY', amount }));
      await settleDate(db, '2026-03-03');
      for (const [i, amount] of amounts.entries()) {
        // JPY exponent 0 → SGD 2: amount × 0.008912345678 × 100 = amount × 8912345678 / 10^10.
        const want = Number(divRoundHalfEven(BigInt(amount) * 8912345678n, 10n ** 10n));
        expect((await settled(ids[i])).settle_amount, String(amount)).toBe(want);
      }
    } finally {
      await db.query(`UPDATE merchant SET currencies = array_remove(currencies, 'JPY') WHERE mer_id = $1`, [SG]);
    }
  });

  it('a missing day: the latest earlier rate is in force (and recorded); none within 31 days → the rows wait', async () => {
    await save([row('2026-03-01', '1.30')]);
    const a = await usd('2026-03-02', 1000);
    await settleDate(db, '2026-03-03'); // no rate of 03-02 or 03-03: 03-01's is in force
    expect(await settled(a)).toMatchObject({ settle_amount: 1300, fx_rate_id: await entryOf('2026-03-01') });
    const b = await usd('2026-04-02', 1000);
    const r = await settleDate(db, '2026-04-03'); // 03-01 is 33 days old: not used
    expect(r.unconverted).toBe(1);
    expect((await settled(b)).settle_date).toBeNull();
  });

  it('rows waiting for a rate are counted per pair; when the rate arrives the next run settles them (late path)', async () => {
    const a = await usd('2026-03-02', 1000);
    const b = await usd('2026-03-02', 2000);
    expect((await settleDate(db, '2026-03-03')).unconverted).toBe(2);
    expect(await waitingForRate(db)).toEqual({ total: 2, pairs: [{ pair: 'USD>SGD', count: 2, since: '2026-03-03' }] });
    expect((await settleDate(db, '2026-03-04')).unconverted).toBe(2); // still none: still waiting, since the first run
    expect(await waitingForRate(db)).toEqual({ total: 2, pairs: [{ pair: 'USD>SGD', count: 2, since: '2026-03-03' }] });
    await save([row('2026-03-05', '1.3425')]);
    const run = await settleDate(db, '2026-03-05');
    expect(run).toMatchObject({ unconverted: 0, txnCount: 2 });
    expect(await settled(a)).toMatchObject({ settle_date: '2026-03-05', settle_amount: 1342, fx_rate_id: await entryOf('2026-03-05') });
    expect(await settled(b)).toMatchObject({ settle_date: '2026-03-05', settle_amount: 2685 });
    expect(await waitingForRate(db)).toEqual({ total: 0, pairs: [] });
    await allHold();
  });

  it('a corrected rate before its day settled: the run uses the correction', async () => {
    await save([row('2026-03-03', '1.50')]);
    await save([row('2026-03-03', '1.3425', { correction: true })]);
    const a = await usd('2026-03-02', 1000);
    await settleDate(db, '2026-03-03');
    expect(await settled(a)).toMatchObject({ settle_amount: 1342, fx_rate: '1.342500000000', fx_rate_id: await entryOf('2026-03-03') });
  });

  it('a corrected rate after its day settled: settled money does not change, the answer says so, later runs use the correction', async () => {
    await save([row('2026-03-03', '1.50')]);
    const a = await usd('2026-03-02', 1000);
    await settleDate(db, '2026-03-03');
    const before = await settled(a);
    const settlementBefore = (await db.query('SELECT * FROM settlement ORDER BY txn_set_date')).rows;
    expect(before).toMatchObject({ settle_amount: 1500 });
    const fix = await save([row('2026-03-03', '1.3425', { correction: true })]);
    expect(fix.results[0]).toMatchObject({ status: 'corrected', previousRate: '1.5', settledWithPrevious: 1 });
    expect(fix.results[0].msg).toMatch(/1 transactions already settled with the earlier rate 1\.5 keep it/);
    expect(await settled(a)).toEqual(before);
    expect((await db.query('SELECT * FROM settlement ORDER BY txn_set_date')).rows).toEqual(settlementBefore);
    // The history keeps both versions, with what each converted.
    const h = await rateHistory(db, '2026-03-03', 'USD', 'SGD');
    expect(h.map((v) => [v.rate, v.settledCount, v.current])).toEqual([
      ['1.5', 1, false],
      ['1.3425', 0, true],
    ]);
    // A later transaction (03-03's rate still in force on 03-04) converts with the correction.
    const b = await usd('2026-03-03', 1000);
    await settleDate(db, '2026-03-04');
    expect(await settled(b)).toMatchObject({ settle_amount: 1342, fx_rate_id: await entryOf('2026-03-03') });
    await allHold();
  });

  it('DST: transactions around a spring-forward midnight take the rate of their settlement day; the day-over rule follows the zone', async () => {
    const tz = 'America/New_York'; // 2026-03-08 02:00 → 03:00
    await save([row('2026-03-08', '1.30'), row('2026-03-09', '1.40'), row('2026-03-10', '1.50')]);
    const at = async (iso: string, no: string) =>
      (
        await ingestTransaction(
          db,
          { merId: SG, orderNo: no, tranType: 'PURC', amount: 1000, currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'visa', gwResponse: '00', txnTime: new Date(iso) },
          { platformTz: tz },
        )
      ).id;
    const late7 = await at('2026-03-08T04:59:00Z', 'DST-1'); // 23:59 EST on 03-07
    const early8 = await at('2026-03-08T05:01:00Z', 'DST-2'); // 00:01 EST on 03-08 (a 23-hour day)
    const late8 = await at('2026-03-09T03:59:00Z', 'DST-3'); // 23:59 EDT on 03-08
    const early9 = await at('2026-03-09T04:01:00Z', 'DST-4'); // 00:01 EDT on 03-09
    for (const d of ['2026-03-08', '2026-03-09', '2026-03-10']) await settleDate(db, d);
    expect((await settled(late7)).settle_amount).toBe(1300);
    expect((await settled(early8)).settle_amount).toBe(1400);
    expect((await settled(late8)).settle_amount).toBe(1400);
    expect((await settled(early9)).settle_amount).toBe(1500);
    // 03-08 is over at 00:00 EDT of 03-09 (04:00 UTC), not at 05:00 UTC as in winter.
    expect(lastSettleableDate(new Date('2026-03-09T03:59:00Z'), tz)).toBe('2026-03-07');
    expect(lastSettleableDate(new Date('2026-03-09T04:00:00Z'), tz)).toBe('2026-03-08');
    expect(() => assertDayOver('2026-03-08', new Date('2026-03-09T03:59:00Z'), tz)).toThrow(AppError);
    expect(() => assertDayOver('2026-03-08', new Date('2026-03-09T04:00:00Z'), tz)).not.toThrow();
  });
});
