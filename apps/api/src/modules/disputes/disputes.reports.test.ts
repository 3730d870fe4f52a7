import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { buildStatement } from '../files/statement.service';
import { settleRange } from '../payments/settlement/settle.run';
import { addTxn, auth } from '../txn/txn.fixtures';
import { disputeLinesOf } from './disputes.lines';
import { transition } from './disputes.money';
import { byGwId, receiveDispute } from './disputes.receive';

const at = (day: string) => new Date(`${day}T04:00:00Z`); // noon in the platform zone (UTC+8)

/**
 * Issue 48: a chargeback's debit and fee, and the credit back when won, in every figure the portal
 * shows: the bill and transfer reports, the daily summary, the settlement detail, the monthly
 * statement and the transaction detail — read through their own endpoints and services.
 */
describe.each(DB_KINDS)('dispute lines in the reports (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());
  const get = (url: string) => ctx.call({ method: 'GET', url, headers: auth(demo) });

  it('bill, transfer, summary, settlement detail, statement and transaction detail show the debit, the fee and the credit', async () => {
    await ctx.db.query(`INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, dispute_fee) VALUES ($1, 'WX', 0, 1500) ON CONFLICT (mer_id, bus_line) DO UPDATE SET mdr_bp = 0, dispute_fee = 1500`, [
      DEMO.subA,
    ]);
    const p = await addTxn(ctx, { amount: 10000, txnTime: at('2026-11-10') });
    await settleRange(ctx.db, '2026-11-11', '2026-11-11');
    const cb = await ctx.db.tx((q) =>
      receiveDispute(
        q,
        {
          gwDisputeId: 'DSP-REP-1',
          gwTransId: p.gwTransId,
          kind: 'chargeback',
          state: 'needs_response',
          reasonCode: '13.1',
          amount: 6000,
          currency: 'CNY',
          deadline: at('2026-11-30'),
          openedAt: at('2026-11-12'),
        },
        { platformTz: ctx.config.platformTz, now: at('2026-11-12'), by: 'test' },
      ),
    );
    await ctx.db.tx(async (q) => transition(q, (await byGwId(q, 'DSP-REP-1', true))!, 'won', 'gateway', { platformTz: ctx.config.platformTz, now: at('2026-11-14') }, 'test'));
    await settleRange(ctx.db, '2026-11-12', '2026-11-15');
    expect(cb.dispute.debit_amount).toBe(6000);

    const range = `beginDate=2026-11-13&endDate=2026-11-15&merId=${DEMO.subA}`;
    const bill = (await get(`/api/report/bill/list?${range}`)).body.data.content as { txnSetDate: string; reconSetAmount: string }[];
    expect(bill.find((r) => r.txnSetDate === '2026-11-13')?.reconSetAmount).toBe('-75.00');
    expect(bill.find((r) => r.txnSetDate === '2026-11-15')?.reconSetAmount).toBe('60.00');
    const transfer = (await get(`/api/report/transfer/list?${range}`)).body.data.content as { txnSetDate: string; reconSetAmount: string }[];
    expect(transfer.find((r) => r.txnSetDate === '2026-11-13')?.reconSetAmount).toBe('-75.00');
    const summary = JSON.stringify((await get(`/api/report/txn/newList?${range}`)).body.data);
    for (const type of ['DISPUTE', 'DISPUTE_FEE', 'DISPUTE_REVERSAL']) expect(summary).toContain(type);
    const detail = JSON.stringify((await get(`/api/txn/settleDetail?${range}`)).body.data);
    expect(detail).toContain('-75.00');
    // The monthly statement has the types on lines of their own.
    const st = await buildStatement(ctx.db, DEMO.subA, 'CNY', '2026-11');
    const by = Object.fromEntries(st.settledByType.map((x) => [x.type, x.amount]));
    expect(by).toMatchObject({ DISPUTE: -6000, DISPUTE_FEE: -1500, DISPUTE_REVERSAL: 6000 });
    // The purchase's transaction detail lists both lines; nothing of the disputed part was refundable meanwhile.
    const txn = (await get(`/api/txn/${p.id}`)).body.data as { associated: { gwTranType: string }[]; refundable: string };
    expect(txn.associated.map((a) => a.gwTranType)).toEqual(expect.arrayContaining(['DISPUTE', 'DISPUTE_FEE', 'DISPUTE_REVERSAL']));
    expect(txn.refundable).toBe('100.00');
    // The lines of the settlement days, for the payout proof (issue 49).
    const lines = await disputeLinesOf(ctx.db, { merId: DEMO.subA, from: '2026-11-13', to: '2026-11-15' });
    expect(lines).toMatchObject({ debit: -6000, fee: -1500, credit: 6000, net: -1500 });
  });
});
