import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO, type TestCtx, createTestApp } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { daysLeftOf } from './disputes.service';
import { SANDBOX_PLAN_SIZE, seedDemoDisputes } from './disputes.sandbox';
import { DISPUTE_KINDS, DISPUTE_STATES } from './disputes.machine';

/**
 * The demo seed's disputes (issue 48: "the sandbox raises disputes on a share of demo purchases —
 * every kind and state, one due tomorrow"): through the receive path, on each demo merchant, once.
 */
describe.each(DB_KINDS)('demo seed disputes (%s)', (kind) => {
  let ctx: TestCtx;
  const TERMS: Record<string, { currency: string; paymentSchema: string; paymentBrand: string }> = {
    [DEMO.group]: { currency: 'HKD', paymentSchema: 'CARD', paymentBrand: 'visa' },
    [DEMO.subA]: { currency: 'CNY', paymentSchema: 'WX', paymentBrand: 'wechat_pay' },
    [DEMO.subB]: { currency: 'USD', paymentSchema: 'CARD', paymentBrand: 'mastercard' },
    [DEMO.other]: { currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' },
  };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    // A fortnight of purchases per demo merchant, as the first start's generator leaves them.
    for (const [merId, terms] of Object.entries(TERMS))
      for (let i = 0; i < SANDBOX_PLAN_SIZE + 2; i++) await addTxn(ctx, { merId, ...terms, amount: 5000 + i * 100, txnTime: new Date(ctx.clock.now().getTime() - (i + 1) * 3_600_000 * 30) });
  });
  afterAll(() => ctx?.close());

  it('raises every kind and state on each demo merchant, one due tomorrow in the platform zone, and only once', async () => {
    const n = await seedDemoDisputes(ctx.deps);
    expect(n).toBe(4 * (SANDBOX_PLAN_SIZE + 1));
    const { rows } = await ctx.db.query<{ mer_id: string; kind: string; state: string; deadline: Date; amount: string; purchase: string }>(
      `SELECT d.mer_id, d.kind, d.state, d.deadline, d.amount::text AS amount, t.amount::text AS purchase FROM dispute d JOIN txn t ON t.id = d.purchase_id ORDER BY d.id`,
    );
    const now = ctx.clock.now();
    const tz = ctx.deps.config.platformTz;
    // None on the purchases of the last two days (a test or a trying merchant refunds those).
    const { rows: recent } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispute d JOIN txn t ON t.id = d.purchase_id WHERE t.txn_time > $1::timestamptz - interval '2 days'`, [
      ctx.clock.now(),
    ]);
    expect(recent[0].n).toBe(0);
    for (const merId of Object.keys(TERMS)) {
      const mine = rows.filter((r) => r.mer_id === merId);
      expect(new Set(mine.map((r) => r.kind)), merId).toEqual(new Set(DISPUTE_KINDS));
      expect(new Set(mine.map((r) => r.state)), merId).toEqual(new Set(DISPUTE_STATES));
      expect(
        mine.filter((r) => r.state === 'needs_response' && daysLeftOf(now, new Date(r.deadline), tz) === 1),
        merId,
      ).toHaveLength(1);
      // Partial ones exist (amount below the purchase).
      expect(
        mine.some((r) => Number(r.amount) < Number(r.purchase)),
        merId,
      ).toBe(true);
    }
    // Through the receive path: each one audited as received from the sandbox.
    const { rows: audited } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'dispute.received' AND username = 'sandbox'`);
    expect(audited[0].n).toBe(rows.length);
    // A second run (npm run seed again) leaves the merchants with disputes alone.
    expect(await seedDemoDisputes(ctx.deps)).toBe(0);
  });
});
