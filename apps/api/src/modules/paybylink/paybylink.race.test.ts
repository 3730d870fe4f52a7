import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { buildApp } from '../../app';
import type { Db } from '../../db/db';
import { VALID_ORDER, buyerPay, createOrder, pbl } from './paybylink.fixtures';
import { claimForPayment, closeOpenOrder, expireDue, settlePayment, updateOpenOrder } from './paybylink.repo';

/**
 * A payment and a close (or an update) of the same order at the same moment end in exactly one
 * state; the loser gets 'Order status has changed, operation failed'.
 *
 * Engines: the "fired together" cases are real concurrency only on PostgreSQL (pooled connections,
 * row locks). PGlite runs one transaction at a time, so there they check the outcome only (one
 * winner, consistent state), which is still worth holding. The "payment lands between the check and
 * the write" cases do not depend on the engine: the payment is made to happen at that exact point.
 */
describe.each(DB_KINDS)('pay vs close and update race on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
  });
  afterAll(() => ctx?.close());

  const orderState = async (id: number) =>
    (
      await ctx.db.query<{ status: string; open_status: string; close_reason: string | null; total_amount: number; events: string[] }>(
        `SELECT o.status, o.open_status, o.close_reason, o.total_amount,
                (SELECT array_agg(kind ORDER BY id) FROM pay_by_link_event e WHERE e.order_id = o.id) AS events
           FROM pay_by_link_order o WHERE o.id = $1`,
        [id],
      )
    ).rows[0];

  /**
   * A second app on the same database whose next transaction first lets `before` run to its end
   * (committed): the request's own read and checks have passed, its write comes after.
   */
  async function appWithInterleave(): Promise<{ app: FastifyInstance; before(fn: () => Promise<unknown>): void }> {
    let pending: (() => Promise<unknown>) | undefined;
    const db: Db = {
      ...ctx.db,
      async tx(fn) {
        const run = pending;
        pending = undefined;
        if (run) await run();
        return ctx.db.tx(fn);
      },
    };
    const app = await buildApp({ ...ctx.deps, db });
    await app.ready();
    return { app, before: (fn) => (pending = fn) };
  }

  it(`fires pay and close together on many orders: one winner each, states and ledger consistent (${isConcurrent(kind) ? 'real concurrency' : 'outcome only: PGlite serialises'})`, async () => {
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
          expect(pay.status).toBe(409);
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

  it(`a close arriving while a payment holds the order waits for it, then loses (${isConcurrent(kind) ? 'waits on the row lock' : 'outcome only: PGlite serialises'})`, async () => {
    const o = await createOrder(ctx, demo);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let claimed!: (pid: number) => void;
    const isClaimed = new Promise<number>((r) => (claimed = r));
    // A payment in flight: the order row is taken and the transaction stays open until released.
    const payment = ctx.db.tx(async (q) => {
      expect(await claimForPayment(q, o.id, ctx.clock.now())).toBe(true);
      claimed(kind === 'postgres' ? (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid : 0);
      await held;
      await q.query(`UPDATE pay_by_link_order SET status = '00', open_status = '02', paid_at = now() WHERE id = $1`, [o.id]);
    });
    const paymentPid = await isClaimed;
    let closeDone = false;
    const close = pbl(ctx, demo)
      .get(`/api/payByLink/closeOrder/${o.id}`)
      .then((r) => {
        closeDone = true;
        return r;
      });
    if (isConcurrent(kind)) {
      // The event itself: a backend of this server blocked by the payment's transaction.
      await expect
        .poll(async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [paymentPid])).rows[0].n, {
          timeout: 20_000,
          interval: 20,
        })
        .toBe(1);
      expect(closeDone).toBe(false);
    }
    release();
    await payment;
    expect((await close).body).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
    expect(await orderState(o.id)).toMatchObject({ status: '00', open_status: '02', close_reason: null, events: ['created'] });
  });

  it("a payment landing between the update's check and its write wins: the update is refused and changes nothing", async () => {
    const { app, before } = await appWithInterleave();
    try {
      const o = await createOrder(ctx, demo);
      before(async () => expect((await buyerPay(ctx, o.linkToken)).body.code).toBe(0));
      const f = form({ ...VALID_ORDER, id: String(o.id), totalAmount: '99.90', goodsPrice: '99.90' });
      const res = await app.inject({ method: 'POST', url: '/api/payByLink/updateOrder', headers: { 'x-token': demo, ...f.headers }, payload: f.payload });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 409, msg: 'Order status has changed, operation failed' });
      expect(await orderState(o.id)).toEqual({ status: '00', open_status: '02', close_reason: null, total_amount: 12050, events: ['created', 'payment'] });
    } finally {
      await app.close();
    }
  });

  it('the payment claim itself takes an order once, only before its expiry instant; an answer lands only on a claimed order', async () => {
    const o = await createOrder(ctx, demo);
    const { rows } = await ctx.db.query<{ expires_at: Date }>('SELECT expires_at FROM pay_by_link_order WHERE id = $1', [o.id]);
    const at = new Date(rows[0].expires_at);
    expect(await claimForPayment(ctx.db, o.id, at)).toBe(false); // at the instant it has expired
    expect(await claimForPayment(ctx.db, o.id, new Date(at.getTime() - 1))).toBe(true);
    expect(await claimForPayment(ctx.db, o.id, new Date(at.getTime() - 1))).toBe(false); // already processing: a second payment cannot take it
    expect(await orderState(o.id)).toMatchObject({ status: '04', open_status: '00' });
    // an acquirer's answer lands only on a claimed (processing) order, never on one still open
    const open = await createOrder(ctx, demo);
    expect(await settlePayment(ctx.db, open.id, 'success', null, ctx.clock.now())).toBe(false);
    expect(await orderState(open.id)).toMatchObject({ status: '04', open_status: '02' });
  });

  it('expiry ends an open, unpaid order at its instant: never a paid one, never one whose payment is processing', async () => {
    const paid = await createOrder(ctx, demo);
    expect((await buyerPay(ctx, paid.linkToken)).body.code).toBe(0);
    const processing = await createOrder(ctx, demo, { totalAmount: '10.04', goodsPrice: '10.04' });
    expect((await buyerPay(ctx, processing.linkToken)).body.data).toMatchObject({ result: 'pending', status: '04', openStatus: '00' });
    const open = await createOrder(ctx, demo);
    const later = new Date('2100-01-01T00:00:00Z'); // long past every link's validity
    expect(await expireDue(ctx.db, later, { id: paid.id })).toBe(0);
    expect(await expireDue(ctx.db, later, { id: processing.id })).toBe(0);
    // an open one ends at its expiry instant, not a millisecond before
    const { rows } = await ctx.db.query<{ expires_at: Date }>('SELECT expires_at FROM pay_by_link_order WHERE id = $1', [open.id]);
    const at = new Date(rows[0].expires_at);
    expect(await expireDue(ctx.db, new Date(at.getTime() - 1), { id: open.id })).toBe(0);
    expect(await expireDue(ctx.db, at, { id: open.id })).toBe(1);
    expect(await orderState(paid.id)).toMatchObject({ status: '00', open_status: '02', close_reason: null });
    expect(await orderState(processing.id)).toMatchObject({ status: '04', open_status: '00', close_reason: null });
    expect(await orderState(open.id)).toMatchObject({ status: '01', open_status: '01' });
  });

  it('the close and update guards themselves leave an in-store order alone (their own rule, not only the check before them)', async () => {
    const add = await ctx.call({ method: 'POST', url: `/api/payInStore/add?storeId=${DEMO.stores.causewayBay}&orderCurrency=HKD&totalAmount=12.30&goodsName=Tea`, headers: { 'x-token': demo } });
    expect(add.body.code, add.body.msg).toBe(0);
    const { rows } = await ctx.db.query<{ id: number }>(`SELECT id FROM pay_by_link_order WHERE prod_category = 'payinstore' ORDER BY id DESC LIMIT 1`);
    const id = rows[0].id;
    const now = ctx.clock.now();
    expect(
      await updateOpenOrder(ctx.db, id, { totalAmount: 100, goodsPrice: 100, goodsQuantity: 1, logFee: 0, sendEmail: false, attachmentId: null, expiresAt: new Date(now.getTime() + 86_400_000), now }),
    ).toBe(false);
    expect(await closeOpenOrder(ctx.db, id, now)).toBe(false);
    expect(await orderState(id)).toMatchObject({ status: '04', open_status: '02', close_reason: null, total_amount: 1230 });
  });

  it("a payment still processing that lands between the update's check and its write: the update is refused and changes nothing", async () => {
    const { app, before } = await appWithInterleave();
    try {
      // x.04: the sandbox leaves the payment processing — the order stays 04, its open status 00
      const o = await createOrder(ctx, demo, { totalAmount: '10.04', goodsPrice: '10.04' });
      before(async () => expect((await buyerPay(ctx, o.linkToken)).body.data).toMatchObject({ result: 'pending', status: '04', openStatus: '00' }));
      const f = form({ ...VALID_ORDER, id: String(o.id), totalAmount: '99.90', goodsPrice: '99.90' });
      const res = await app.inject({ method: 'POST', url: '/api/payByLink/updateOrder', headers: { 'x-token': demo, ...f.headers }, payload: f.payload });
      expect(res.statusCode).toBe(409);
      expect(await orderState(o.id)).toMatchObject({ status: '04', open_status: '00', total_amount: 1004 });
    } finally {
      await app.close();
    }
  });

  it("a payment landing between the close's check and its write wins: the close answers 01 and changes nothing", async () => {
    const { app, before } = await appWithInterleave();
    try {
      const o = await createOrder(ctx, demo);
      before(async () => expect((await buyerPay(ctx, o.linkToken)).body.code).toBe(0));
      const res = await app.inject({ method: 'GET', url: `/api/payByLink/closeOrder/${o.id}`, headers: { 'x-token': demo } });
      expect(res.json()).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
      expect(await orderState(o.id)).toEqual({ status: '00', open_status: '02', close_reason: null, total_amount: 12050, events: ['created', 'payment'] });
    } finally {
      await app.close();
    }
  });

  it('refuses to close an order whose payment is still processing, and the payment then completes', async () => {
    // x.04 is the sandbox's "processing" amount: the order shows as processing until it resolves.
    const o = await createOrder(ctx, demo, { totalAmount: '10.04', goodsPrice: '10.04' });
    const pay = await buyerPay(ctx, o.linkToken);
    expect(pay.body.data).toMatchObject({ result: 'pending', status: '04', openStatus: '00' });
    const close = await pbl(ctx, demo).get(`/api/payByLink/closeOrder/${o.id}`);
    expect(close.body).toEqual({ code: 0, msg: 'Order status has changed, operation failed', data: '01' });
    expect(await orderState(o.id)).toMatchObject({ status: '04', open_status: '00', close_reason: null, events: ['created', 'payment'] });
    const update = await pbl(ctx, demo).update({ ...VALID_ORDER, id: String(o.id), totalAmount: '99.90', goodsPrice: '99.90' });
    expect(update.status).toBe(409);
    expect(update.body).toMatchObject({ code: 409, data: { status: '04', openStatus: '00' } });
    // Past the acquirer's answer time the order becomes paid, as if no close had been asked.
    ctx.clock.advance(6_000);
    const st = await pbl(ctx, demo).get(`/api/payByLink/orderno/${o.orderNo}`);
    expect(st.body.data).toMatchObject({ status: '00', openStatus: '02', closeReason: null });
    expect(await orderState(o.id)).toMatchObject({ total_amount: 1004, events: ['created', 'payment', 'payment'] });
  });
});
