import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, type TestCtx } from '../../../test/helpers';
import { ingestTransaction } from '../payments/ingest.service';
import { settleDate } from '../payments/settlement/settle.run';
import { addOperator, FEE, merchantBody, opsLogin } from './ops.fixtures';
import { platformDay } from './merchants.service';
import { disputeFeeOn } from '../disputes/disputes.money';

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);

/**
 * Fee schedules with an effective date (issue 26): a change applies from a day on, never back in
 * time; the history is kept; the settlement run of each day reads the schedule in force that day —
 * proven across a change.
 */
describe.each(DB_KINDS)('ops fee schedules (%s)', (kind) => {
  let ctx: TestCtx;
  let onboarding: string;
  let reader: string;
  let merId: string;
  let today: string;
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    ctx.clock.set('2026-12-01T02:00:00Z');
    const ob = await addOperator(ctx, 'fee-onboarding', 'onboarding');
    const ro = await addOperator(ctx, 'fee-reader', 'read-only');
    onboarding = await opsLogin(ctx, 'fee-onboarding', ob.secret);
    reader = await opsLogin(ctx, 'fee-reader', ro.secret);
    today = platformDay(ctx.clock.now(), ctx.config.platformTz);
    // Settles in HKD; CARD: 3 % + 2.00 HKD, T+1.
    const res = await ctx.call({
      method: 'POST',
      url: '/api/ops/merchants',
      headers: h(onboarding),
      payload: merchantBody({
        name: 'Fee Co',
        fees: [{ ...FEE, mdrBp: 300, fixedFee: 200, cycleDays: 1, reserveBp: 0, reserveHoldDays: 0 }],
        mainUser: { username: 'fee-main', email: 'main@fee.example' },
      }),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    merId = res.body.data.merId;
  });
  afterAll(() => ctx?.close());

  it('a change applies from a day on, never back in time; read-only may not enter one', async () => {
    const change = { effectiveFrom: addDays(today, 2), fees: [{ ...FEE, mdrBp: 100, fixedFee: 0, cycleDays: 1, reserveBp: 0, reserveHoldDays: 0 }] };
    const ro = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/fees`, headers: h(reader), payload: change });
    expect(ro.status).toBe(403);
    const past = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/fees`, headers: h(onboarding, 'zh'), payload: { ...change, effectiveFrom: addDays(today, -1) } });
    expect([past.status, past.body.code]).toEqual([400, Code.BAD_REQUEST]);
    expect(past.body.msg).toContain(today);
    const bad = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/fees`, headers: h(onboarding), payload: { ...change, effectiveFrom: '2026-02-30' } });
    expect(bad.status).toBe(400);
    const ok = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/fees`, headers: h(onboarding), payload: change });
    expect(ok.body.code, ok.body.msg).toBe(0);
    const history = await ctx.call({ method: 'GET', url: `/api/ops/merchants/${merId}/fees`, headers: h(reader) });
    expect(history.body.data.map((r: { effectiveFrom: string; mdrBp: number; state: string }) => [r.effectiveFrom, r.mdrBp, r.state])).toEqual([
      [addDays(today, 2), 100, 'FUTURE'],
      [today, 300, 'IN_FORCE'],
    ]);
    // Not in force yet: the schedule in force is still today's.
    const detail = await ctx.call({ method: 'GET', url: `/api/ops/merchants/${merId}`, headers: h(reader) });
    expect(detail.body.data.fees[0]).toMatchObject({ mdrBp: 300, effectiveFrom: today });
  });

  it('the settlement run reads the schedule in force on its day, across the change', async () => {
    const pay = (day: string, orderNo: string) =>
      ingestTransaction(
        ctx.db,
        { merId, orderNo, tranType: 'PURC', amount: 100000, currency: 'HKD', paymentSchema: 'CARD', paymentBrand: 'visa', gwResponse: '00', txnTime: new Date(`${day}T04:00:00Z`) },
        { platformTz: ctx.config.platformTz },
      );
    const before = await pay(today, 'FEE-BEFORE');
    const after = await pay(addDays(today, 2), 'FEE-AFTER');
    for (let d = 1; d <= 3; d++) await settleDate(ctx.db, addDays(today, d));
    const fee = async (id: number) =>
      (await ctx.db.query<{ settle_fee: number; settle_date: string }>(`SELECT settle_fee::int AS settle_fee, to_char(settle_date, 'YYYY-MM-DD') AS settle_date FROM txn WHERE id = $1`, [id])).rows[0];
    // 1,000.00 HKD: before the change 3 % + 2.00 = 32.00; settled on D+3 under the new 1 % = 10.00.
    expect(await fee(before.id)).toEqual({ settle_fee: 3200, settle_date: addDays(today, 1) });
    expect(await fee(after.id)).toEqual({ settle_fee: 1000, settle_date: addDays(today, 3) });
    // A schedule can no longer start on a day already settled.
    const late = await ctx.call({ method: 'POST', url: `/api/ops/merchants/${merId}/fees`, headers: h(onboarding), payload: { effectiveFrom: addDays(today, 3), fees: [FEE] } });
    expect(late.body.code).toBe(Code.BAD_REQUEST);
    const audited = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'ops.merchant.fee_schedule' AND mer_id = $1`, [merId]);
    expect(audited.rows[0].n).toBe(1);
  });

  it('the dispute fee (issue 48) is part of the schedule: set at creation and from a day on, checked, kept in the history, read on each day', async () => {
    const res = await ctx.call({
      method: 'POST',
      url: '/api/ops/merchants',
      headers: h(onboarding),
      payload: merchantBody({ name: 'Dispute Fee Co', fees: [{ ...FEE, disputeFee: 1500 }], mainUser: { username: 'dfee-main', email: 'main@dfee.example' } }),
    });
    expect(res.body.code, res.body.msg).toBe(0);
    const id = res.body.data.merId as string;
    const post = (fees: unknown[], from = addDays(today, 5)) => ctx.call({ method: 'POST', url: `/api/ops/merchants/${id}/fees`, headers: h(onboarding), payload: { effectiveFrom: from, fees } });
    for (const bad of [-1, 12.5, '25', 1e13]) {
      const r = await post([{ ...FEE, disputeFee: bad }]);
      expect([r.status, r.body.data?.field ?? JSON.stringify(r.body)], String(bad)).toEqual([400, expect.stringContaining('disputeFee')]);
    }
    expect((await post([{ ...FEE, disputeFee: 2500 }])).body.code).toBe(0);
    const detail = await ctx.call({ method: 'GET', url: `/api/ops/merchants/${id}`, headers: h(reader) });
    expect(detail.body.data.fees[0]).toMatchObject({ busLine: 'CARD', disputeFee: 1500 });
    const history = await ctx.call({ method: 'GET', url: `/api/ops/merchants/${id}/fees`, headers: h(reader) });
    expect(history.body.data.map((r: { effectiveFrom: string; disputeFee: number; state: string }) => [r.effectiveFrom, r.disputeFee, r.state])).toEqual([
      [addDays(today, 5), 2500, 'FUTURE'],
      [today, 1500, 'IN_FORCE'],
    ]);
    // A schedule without the field (older clients) means no dispute fee.
    const { effectiveFrom: _f, ...noFee } = { ...FEE, effectiveFrom: '' };
    expect((await post([noFee], addDays(today, 9))).body.code).toBe(0);
    // The money side reads the schedule in force on the day a dispute arrives.
    expect(await disputeFeeOn(ctx.db, id, 'CARD', today)).toBe(1500);
    expect(await disputeFeeOn(ctx.db, id, 'CARD', addDays(today, 6))).toBe(2500);
    expect(await disputeFeeOn(ctx.db, id, 'CARD', addDays(today, 9))).toBe(0);
  });
});
