import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, isConcurrent } from '../../../test/helpers';
import { checkInvariants } from '../payments/settlement/invariants';
import { settleRange } from '../payments/settlement/settle.run';
import { reset, rows, setFee, setRate, settleDb, SG, txn, TZ, type TestDb } from '../payments/settlement/settle.fixture';
import { reserveReturn } from '../txn/refund.repo';
import { disputeLinesOf, movementsOf } from './disputes.lines';
import { transition } from './disputes.money';
import { byGwId, receiveDispute, type DisputeNotice } from './disputes.receive';
import { canMove, DISPUTE_STATES, type Actor } from './disputes.machine';

const D0 = '2026-03-02';
const at = (day: string, hh = 12) => new Date(`${day}T${String(hh - 8).padStart(2, '0')}:00:00Z`); // hh platform time (UTC+8)
const gwOf = async (db: TestDb, id: number) => (await db.query<{ gw_trans_id: string }>('SELECT gw_trans_id FROM txn WHERE id = $1', [id])).rows[0].gw_trans_id;
const notice = (gwTransId: string, o: Partial<DisputeNotice> = {}): DisputeNotice => ({
  gwDisputeId: `DP-${Math.random().toString(36).slice(2, 10)}`,
  gwTransId,
  kind: 'chargeback',
  state: 'needs_response',
  reasonCode: '13.1',
  amount: 4000,
  currency: 'USD',
  deadline: at('2026-03-20'),
  ...o,
});

describe.each(DB_KINDS)('dispute money in settlement (%s)', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    await db.exec('DELETE FROM dispute_movement; DELETE FROM dispute_operation; DELETE FROM dispute_evidence; DELETE FROM dispute_reminder; DELETE FROM dispute');
    await reset(db);
    await setFee(db, SG, 'CARD', { mdrBp: 100 });
    await db.query(`UPDATE merchant_fee SET dispute_fee = 1500 WHERE mer_id = $1 AND bus_line = 'CARD'`, [SG]);
    // The purchase settles (on the 3rd) at 1.35; later days have 1.40: the dispute must convert at 1.35.
    await setRate(db, D0, 'USD', 'SGD', '1.35');
    await setRate(db, '2026-03-03', 'USD', 'SGD', '1.35');
    for (let i = 2; i < 12; i++) await setRate(db, `2026-03-${String(2 + i).padStart(2, '0')}`, 'USD', 'SGD', '1.40');
  });

  const receive = (n: DisputeNotice, now: Date) => db.tx((q) => receiveDispute(q, n, { platformTz: TZ, now, by: 'sandbox' }));

  it('debits the disputed amount at the purchase’s rate plus the fee on the day it arrives; won credits it back, the fee stays', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    await settleRange(db, D0, '2026-03-03');
    const { dispute } = await receive(notice(await gwOf(db, p)), at('2026-03-04'));
    expect(dispute).toMatchObject({ state: 'needs_response', debit_amount: 4000, amount: 4000 });
    await settleRange(db, '2026-03-04', '2026-03-05');
    // T+1: the dispute of the 4th settles in the run of the 5th: 40.00 USD × 1.35 = 54.00 SGD, fee 15.00.
    const day5 = (await rows(db)).find((r) => r.txn_set_date === '2026-03-05')!;
    expect(day5.recon_set_amount).toBe(-5400 - 1500);
    const lines = await disputeLinesOf(db, { merId: SG, from: '2026-03-05' });
    expect(lines).toMatchObject({ debit: -5400, fee: -1500, credit: 0, net: -6900 });
    expect(lines.rows.map((r) => [r.kind, r.settleDate, r.busLine, r.setCur])).toEqual([
      ['debit', '2026-03-05', 'CARD', 'SGD'],
      ['fee', '2026-03-05', 'CARD', 'SGD'],
    ]);
    // Won on the 6th: the credit joins the run of the 7th at the same 54.00; the fee is not given back.
    await db.tx(async (q) => transition(q, (await byGwId(q, dispute.gw_dispute_id, true))!, 'won', 'gateway', { platformTz: TZ, now: at('2026-03-06') }, 'sandbox'));
    await settleRange(db, '2026-03-06', '2026-03-07');
    const day7 = (await rows(db)).find((r) => r.txn_set_date === '2026-03-07')!;
    expect(day7.recon_set_amount).toBe(5400);
    expect((await disputeLinesOf(db, { merId: SG, from: '2026-03-04', to: '2026-03-07' })).net).toBe(-1500);
    expect((await movementsOf(db, dispute.id)).map((m) => [m.kind, m.signedAmount])).toEqual([
      ['debit', -5400],
      ['fee', -1500],
      ['credit', 5400],
    ]);
    const after = await db.query<{ disputed_amount: string }>('SELECT disputed_amount FROM txn WHERE id = $1', [p]);
    expect(Number(after.rows[0].disputed_amount)).toBe(0);
    const inv = await checkInvariants(db);
    expect(inv).toEqual({ I1: [], I2: [], I3: [], I4: [], I5: [], I6: [], I8: [] });
    // The daily summary has the types on their own rows.
    const sm = await db.query<{ txn_type: string; settle_amount: string }>(
      `SELECT txn_type, settle_amount FROM settlement_summary WHERE mer_id = $1 AND txn_type LIKE 'DISPUTE%' ORDER BY txn_set_date, txn_type`,
      [SG],
    );
    expect(sm.rows.map((r) => [r.txn_type, Number(r.settle_amount)])).toEqual([
      ['DISPUTE', -5400],
      ['DISPUTE_FEE', -1500],
      ['DISPUTE_REVERSAL', 5400],
    ]);
  });

  it('refuses a refund on the disputed part of an open chargeback; a dispute on a refunded purchase debits only what is left', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    await receive(notice(await gwOf(db, p), { amount: 7000 }), at('2026-03-03'));
    expect(await db.tx((q) => reserveReturn(q, p, 3001))).toBeNull();
    expect(await db.tx((q) => reserveReturn(q, p, 3000))).toBe(3000);
    // A second purchase refunded by 60.00 first: its chargeback of 100.00 debits 40.00 and shows the refund.
    const p2 = await txn(db, D0, { amount: 10000, currency: 'USD' });
    await db.query('UPDATE txn SET return_amount = 6000 WHERE id = $1', [p2]);
    const { dispute } = await receive(notice(await gwOf(db, p2), { amount: 10000 }), at('2026-03-03'));
    expect(dispute).toMatchObject({ debit_amount: 4000, refunded_before: 6000 });
    await settleRange(db, D0, '2026-03-05');
    expect(await checkInvariants(db)).toEqual({ I1: [], I2: [], I3: [], I4: [], I5: [], I6: [], I8: [] });
  });

  it('a dispute dated a day already settled goes through the late path', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    await settleRange(db, D0, '2026-03-05');
    // Arrived on the 4th (settled in the run of the 5th, already done), reported on the 6th.
    await receive(notice(await gwOf(db, p), { openedAt: at('2026-03-04') }), at('2026-03-06'));
    const late = await db.query('SELECT txn_id FROM settle_late');
    expect(late.rows).toHaveLength(2);
    await settleRange(db, '2026-03-06', '2026-03-06');
    const lines = await disputeLinesOf(db, { merId: SG, from: '2026-03-06' });
    expect(lines).toMatchObject({ debit: -5400, fee: -1500 });
    expect(await checkInvariants(db)).toEqual({ I1: [], I2: [], I3: [], I4: [], I5: [], I6: [], I8: [] });
  });

  it('an inquiry moves no money; one open dispute per kind and purchase; a pre-arbitration needs a won chargeback', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    const gw = await gwOf(db, p);
    const inq = await receive(notice(gw, { kind: 'inquiry' }), at('2026-03-03'));
    expect(inq.dispute.debit_amount).toBe(0);
    expect(await movementsOf(db, inq.dispute.id)).toEqual([]);
    await expect(receive(notice(gw, { kind: 'inquiry' }), at('2026-03-03'))).rejects.toMatchObject({ key: 'disputeAlreadyOpen' });
    await expect(receive(notice(gw, { kind: 'pre_arbitration' }), at('2026-03-03'))).rejects.toMatchObject({ key: 'disputePreArbNeedsWon' });
    const cb = await receive(notice(gw, { state: 'won' }), at('2026-03-03'));
    expect(cb.dispute.state).toBe('won');
    const pre = await receive(notice(gw, { kind: 'pre_arbitration' }), at('2026-03-04'));
    expect(pre.dispute.debit_amount).toBe(4000);
  });

  it('is idempotent by the gateway’s id: the same notice is a duplicate, other content a conflict, a later state moves it', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    const n = notice(await gwOf(db, p));
    expect((await receive(n, at('2026-03-03'))).status).toBe('created');
    expect((await receive(n, at('2026-03-03'))).status).toBe('duplicate');
    await expect(receive({ ...n, amount: 5000 }, at('2026-03-03'))).rejects.toMatchObject({ key: 'disputeConflict', params: { field: 'amount' } });
    expect((await receive({ ...n, state: 'under_review' }, at('2026-03-04'))).status).toBe('updated');
    expect((await receive({ ...n, state: 'lost' }, at('2026-03-05'))).status).toBe('updated');
    await expect(receive({ ...n, state: 'won' }, at('2026-03-06'))).rejects.toMatchObject({ key: 'disputeIllegalTransition' });
    expect(await db.query('SELECT 1 FROM dispute_movement')).toMatchObject({ rows: [{}, {}] });
  });

  it.skipIf(!isConcurrent(kind))('parallel identical notifications make one dispute and one debit', async () => {
    const p = await txn(db, D0, { amount: 10000, currency: 'USD' });
    const n = notice(await gwOf(db, p));
    const out = await Promise.all(Array.from({ length: 6 }, () => receive(n, at('2026-03-03'))));
    expect(out.map((o) => o.status).sort()).toEqual(['created', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect((await db.query('SELECT id FROM dispute')).rows).toHaveLength(1);
    expect((await db.query(`SELECT id FROM txn WHERE tran_type = 'DISPUTE'`)).rows).toHaveLength(1);
    const after = await db.query<{ disputed_amount: string }>('SELECT disputed_amount FROM txn WHERE id = $1', [p]);
    expect(Number(after.rows[0].disputed_amount)).toBe(4000);
  });

  it('the state machine allows only its moves', () => {
    const allowed: string[] = [];
    for (const from of DISPUTE_STATES) for (const to of DISPUTE_STATES) for (const a of ['merchant', 'gateway', 'clock'] as Actor[]) if (canMove(from, to, a)) allowed.push(`${from}>${to}:${a}`);
    expect(allowed.sort()).toEqual(
      [
        'needs_response>under_review:merchant',
        'needs_response>under_review:gateway',
        'needs_response>accepted:merchant',
        'needs_response>accepted:gateway',
        'needs_response>expired:clock',
        'needs_response>expired:gateway',
        'needs_response>won:gateway',
        'needs_response>lost:gateway',
        'under_review>won:gateway',
        'under_review>lost:gateway',
      ].sort(),
    );
  });
});
