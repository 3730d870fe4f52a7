import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO, type TestCtx, createTestApp } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';
import { addOperator, opsLogin } from '../ops/ops.fixtures';
import { receiveDispute } from './disputes.receive';

/**
 * The back office's disputes (issue 48): every merchant's list with the inbox's filters, one dispute
 * of any merchant, and the outcome a gateway reported by e-mail — risk and the administrator enter
 * it, support and read-only read only; onboarding sees nothing.
 */
describe.each(DB_KINDS)('disputes in the back office (%s)', (kind) => {
  let ctx: TestCtx;
  let risk: string;
  let support: string;
  let onboarding: string;
  let a: { id: number; gwDisputeId: string };
  let b: { id: number; gwDisputeId: string };
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });

  async function raise(merId: string, amount: number, days: number) {
    const currency = merId === DEMO.subB ? 'USD' : 'CNY';
    const card = merId === DEMO.subB ? ({ paymentSchema: 'CARD', paymentBrand: 'visa' } as const) : {};
    const p = await addTxn(ctx, { merId, amount, currency, ...card, txnTime: new Date(ctx.clock.now().getTime() - 86_400_000) });
    const gwDisputeId = `OPS-DSP-${Math.random().toString(36).slice(2, 10)}`;
    await ctx.db.tx((q) =>
      receiveDispute(
        q,
        { gwDisputeId, gwTransId: p.gwTransId, kind: 'chargeback', state: 'needs_response', reasonCode: '13.1', amount, currency, deadline: new Date(ctx.clock.now().getTime() + days * 86_400_000) },
        { platformTz: ctx.deps.config.platformTz, now: ctx.clock.now(), by: 'sandbox' },
      ),
    );
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM dispute WHERE gw_dispute_id = $1', [gwDisputeId]);
    return { id: Number(rows[0].id), gwDisputeId };
  }

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const r = await addOperator(ctx, 'dsp-risk', 'risk');
    const s = await addOperator(ctx, 'dsp-support', 'support');
    const o = await addOperator(ctx, 'dsp-onboarding', 'onboarding');
    risk = await opsLogin(ctx, 'dsp-risk', r.secret);
    support = await opsLogin(ctx, 'dsp-support', s.secret);
    onboarding = await opsLogin(ctx, 'dsp-onboarding', o.secret);
    a = await raise(DEMO.subA, 10000, 2);
    b = await raise(DEMO.subB, 8000, 9);
  });
  afterAll(() => ctx?.close());

  it('lists every merchant’s disputes with the filters; one dispute of any merchant; onboarding refused', async () => {
    const all = await ctx.call({ method: 'GET', url: '/api/ops/disputes', headers: h(support), query: { state: 'needs_response', size: '100' } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const ids = all.body.data.content.map((d: { gwDisputeId: string }) => d.gwDisputeId);
    expect(ids).toEqual(expect.arrayContaining([a.gwDisputeId, b.gwDisputeId]));
    const row = all.body.data.content.find((d: { gwDisputeId: string }) => d.gwDisputeId === a.gwDisputeId);
    expect(row).toMatchObject({ merId: DEMO.subA, daysLeft: 2, state: 'needs_response' });
    const one = await ctx.call({ method: 'GET', url: '/api/ops/disputes', headers: h(support), query: { merId: DEMO.subB, size: '100' } });
    expect(one.body.data.content.every((d: { merId: string }) => d.merId === DEMO.subB)).toBe(true);
    expect(one.body.data.content.map((d: { gwDisputeId: string }) => d.gwDisputeId)).toContain(b.gwDisputeId);
    const bad = await ctx.call({ method: 'GET', url: '/api/ops/disputes', headers: h(support), query: { state: 'open' } });
    expect(bad.status).toBe(400);
    const detail = await ctx.call({ method: 'GET', url: `/api/ops/disputes/${b.id}`, headers: h(support, 'ja') });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data).toMatchObject({ id: b.id, merId: DEMO.subB, amount: '80.00', purchase: expect.objectContaining({ amount: '80.00' }) });
    expect(detail.body.data.timeline.map((t: { action: string }) => t.action)).toContain('dispute.received');
    expect((await ctx.call({ method: 'GET', url: '/api/ops/disputes/999999999', headers: h(support) })).status).toBe(404);
    expect((await ctx.call({ method: 'GET', url: '/api/ops/disputes', headers: h(onboarding) })).status).toBe(403);
    expect((await ctx.call({ method: 'GET', url: `/api/ops/disputes/${a.id}`, headers: h(onboarding) })).status).toBe(403);
    expect((await ctx.call({ method: 'GET', url: '/api/ops/disputes' })).status).toBe(401);
  });

  it('risk enters the outcome (audited, the state machine applies); support may not; bad input and illegal moves refused', async () => {
    const out = (token: string, id: number, body: unknown) => ctx.call({ method: 'POST', url: `/api/ops/disputes/${id}/outcome`, headers: h(token), payload: body as Record<string, unknown> });
    expect((await out(support, a.id, { outcome: 'won' })).status).toBe(403);
    expect((await out(risk, a.id, { outcome: 'accepted' })).status).toBe(400);
    expect((await out(risk, a.id, { outcome: 'won', extra: 1 })).status).toBe(400);
    expect((await out(risk, 999999999, { outcome: 'won' })).status).toBe(404);
    const ok = await out(risk, a.id, { outcome: 'won', note: 'gateway e-mail 2026-12-03' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const d = await ctx.call({ method: 'GET', url: `/api/ops/disputes/${a.id}`, headers: h(support) });
    expect(d.body.data.state).toBe('won');
    expect(d.body.data.settlement.map((l: { kind: string }) => l.kind)).toEqual(expect.arrayContaining(['debit', 'credit']));
    const { rows } = await ctx.db.query<{ username: string; detail: { note: string } }>(`SELECT username, detail FROM audit_log WHERE target = $1 AND action = 'dispute.won'`, [String(a.id)]);
    expect(rows).toEqual([expect.objectContaining({ username: 'operator:dsp-risk', detail: expect.objectContaining({ note: 'gateway e-mail 2026-12-03' }) })]);
    // Won is final: a second outcome is refused, nothing changes.
    const again = await out(risk, a.id, { outcome: 'lost' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect((await ctx.call({ method: 'GET', url: `/api/ops/disputes/${a.id}`, headers: h(support) })).body.data.state).toBe('won');
  });
});
