import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { buyerPay, createOrder, pbl } from './paybylink.fixtures';
import { claimForPayment } from './paybylink.repo';

/**
 * A payment and a close of the same order at the same moment end in exactly one state; the loser
 * gets 'Order status has changed, operation failed'. Real concurrency on PostgreSQL (pooled
 * connections, row locks); PGlite serialises the transactions and must give the same answers.
 */
describe.each(DB_KINDS)('pay vs close race on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
  });
  afterAll(() => ctx.close());

  it('fires pay and close together on many orders: one winner each, states and ledger consistent', async () => {
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await createOrder(ctx, demo, { reconId: `RACE-${i}` }));
    const tally = { paid: 0, closed: 0 };
    await Promise.all(
      orders.map(async (o, i) => {
        const closeCall = () => pbl(ctx, demo).get(`/api/payByLink/closeOrder/${o.id}`);
        const [pay, close] = i % 2 ? await Promise.all([buyerPay(ctx, o.linkToken), closeCall()]) : (await Promise.all([closeCall(), buyerPay(ctx, o.linkToken)])).reverse();
        const payWon = pay.body.code === 0;
        const closeWon = close.body.data === '00';
        expect(payWon !== closeWon).toBe(true);
        if (payWon) {
          tally.paid++;
          expect(close.body).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
        } else {
          tally.closed++;
          expect(pay.body).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
        }
        const { rows } = await ctx.db.query<{ status: string; open_status: string; close_reason: string | null; txns: number; events: string[] }>(
          `SELECT o.status, o.open_status, o.close_reason,
                  (SELECT count(*)::int FROM txn t WHERE t.order_no = o.order_no) AS txns,
                  (SELECT array_agg(kind ORDER BY id) FROM pay_by_link_event e WHERE e.order_id = o.id) AS events
             FROM pay_by_link_order o WHERE o.id = $1`,
          [o.id],
        );
        expect(rows[0]).toEqual(
          payWon
            ? { status: '00', open_status: '02', close_reason: null, txns: 1, events: ['created', 'payment'] }
            : { status: '01', open_status: '01', close_reason: 'merchant', txns: 0, events: ['created', 'closed'] },
        );
      }),
    );
    expect(tally.paid + tally.closed).toBe(12);
  });

  it('a close arriving while a payment holds the order waits for it, then loses', async () => {
    const o = await createOrder(ctx, demo);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let claimed!: () => void;
    const isClaimed = new Promise<void>((r) => (claimed = r));
    // A payment in flight: the order row is taken and the transaction stays open until released.
    const payment = ctx.db.tx(async (q) => {
      expect(await claimForPayment(q, o.id, ctx.clock.now())).toBe(true);
      claimed();
      await held;
      await q.query(`UPDATE pay_by_link_order SET status = '00', open_status = '02', paid_at = now() WHERE id = $1`, [o.id]);
    });
    await isClaimed;
    let closeDone = false;
    const close = pbl(ctx, demo).get(`/api/payByLink/closeOrder/${o.id}`).then((r) => {
      closeDone = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(closeDone).toBe(false); // blocked behind the payment's row lock (PGlite: behind its transaction)
    release();
    await payment;
    expect((await close).body).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
    expect((await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`)).body.data.status).toBe('00');
  });
});
