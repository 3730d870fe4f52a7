import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, type TestCtx } from '../../../test/helpers';
import { startFakeGateway, type FakeGateway } from '../../../test/fake-gateway';
import { addTxn, auth, loginWithStepUp } from '../txn/txn.fixtures';
import { receiveDispute } from './disputes.receive';
import { resendDueOperations } from './disputes.service';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/**
 * Issue 48: a dispute's answer (evidence submitted, or accepted) through the HTTP gateway adapter,
 * against the fake gateway on loopback: recorded first and committed before the call, sent with
 * one idempotency key on every attempt, "sending" until the gateway confirms, never acted on twice.
 */
describe.each(DB_KINDS)('dispute answers over the HTTP gateway adapter (%s)', (kind) => {
  let ctx: TestCtx;
  let gw: FakeGateway;
  let demo: string;

  beforeAll(async () => {
    gw = await startFakeGateway();
    ctx = await createTestApp({
      kind,
      config: { acquirer: { kind: 'http', url: gw.url, signingKey: gw.signingKey, keyId: gw.keyId, timeoutMs: 300, retries: 1, retryDelayMs: 10 } },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await gw?.close();
  });
  beforeEach(async () => {
    gw.reset();
    demo = await loginWithStepUp(ctx);
  });

  async function raise() {
    const p = await addTxn(ctx, { amount: 10000, txnTime: new Date(ctx.clock.now().getTime() - 86_400_000) });
    const gwDisputeId = `HTTP-DSP-${Math.random().toString(36).slice(2, 10)}`;
    await ctx.db.tx((q) =>
      receiveDispute(
        q,
        {
          gwDisputeId,
          gwTransId: p.gwTransId,
          kind: 'chargeback',
          state: 'needs_response',
          reasonCode: '13.1',
          amount: 6000,
          currency: 'CNY',
          deadline: new Date(ctx.clock.now().getTime() + 10 * 86_400_000),
        },
        { platformTz: ctx.deps.config.platformTz, now: ctx.clock.now(), by: 'test' },
      ),
    );
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM dispute WHERE gw_dispute_id = $1', [gwDisputeId]);
    return { id: Number(rows[0].id), gwDisputeId };
  }
  const post = (url: string, body?: unknown) =>
    ctx.call({ method: 'POST', url, headers: { ...auth(demo), ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
  const upload = (id: number, name: string, data: Buffer) => {
    const b = `----d${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    return ctx.call({ method: 'POST', url: `/api/disputes/${id}/evidence?category=receipt`, headers: { ...auth(demo), 'content-type': `multipart/form-data; boundary=${b}` }, payload });
  };
  const sendState = async (id: number) => (await ctx.db.query<{ send_state: string | null; state: string }>('SELECT send_state, state FROM dispute WHERE id = $1', [id])).rows[0];
  const opOf = async (id: number) =>
    (await ctx.db.query<{ op_key: string; state: string; attempts: number; acquirer: string }>('SELECT op_key, state, attempts, acquirer FROM dispute_operation WHERE dispute_id = $1', [id])).rows;
  /** The job's pass once every pending answer's backoff has passed. */
  const jobPass = async () => {
    ctx.clock.advance(3_700_000);
    return resendDueOperations(ctx.deps);
  };

  it('evidence: recorded and committed before the call; no answer → "sending", the same key again later; the gateway acts once; confirmed → sent', async () => {
    const d = await raise();
    expect((await upload(d.id, 'receipt.pdf', PDF)).status).toBe(200);
    expect((await post(`/api/disputes/${d.id}/statement`, { statement: 'Delivered on 3 Nov, signed by the buyer.' })).status).toBe(200);
    // Each call: the operation is already there, committed (PGlite has one connection: a call made
    // inside the transaction would wait on it; PostgreSQL: another connection sees only committed rows).
    const seen: string[] = [];
    gw.onRequest = async () => {
      const ops = await opOf(d.id);
      seen.push(ops.map((o) => o.state).join(',') || 'none');
    };
    // Both attempts of the first send go unanswered (the gateway never got them).
    gw.script('post', { mode: 'drop' }, { mode: 'drop' });
    const sub = await post(`/api/disputes/${d.id}/submit`);
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data).toMatchObject({ state: 'under_review', sendState: 'sending' });
    const key = `DSP-${d.gwDisputeId}-submit`;
    expect(await opOf(d.id)).toEqual([{ op_key: key, state: 'pending', attempts: 1, acquirer: 'http' }]);
    expect(gw.postsFor(key).map((c) => [c.path, c.signed])).toEqual([
      [`/disputes/${d.gwDisputeId}/evidence`, true],
      [`/disputes/${d.gwDisputeId}/evidence`, true],
    ]);
    expect(gw.ops.has(key)).toBe(false);
    const detail = await ctx.call({ method: 'GET', url: `/api/disputes/${d.id}`, headers: auth(demo) });
    expect(detail.body.data).toMatchObject({ state: 'under_review', sendState: 'sending' });
    // A second submit is refused: the answer is sent once, by the job.
    expect((await post(`/api/disputes/${d.id}/submit`)).status).toBe(409);
    // The job sends it again, same key and body: the gateway takes it.
    expect(await jobPass()).toBe(1);
    expect(gw.postsFor(key)).toHaveLength(3);
    const op = gw.ops.get(key)!;
    expect(op).toMatchObject({
      kind: 'dispute.evidence',
      executions: 1,
      body: { kind: 'submit', idempotencyKey: key, gwDisputeId: d.gwDisputeId, statement: 'Delivered on 3 Nov, signed by the buyer.' },
    });
    expect((op.body.evidence as { fileName: string; content: string }[]).map((e) => [e.fileName, Buffer.from(e.content, 'base64').equals(PDF)])).toEqual([['receipt.pdf', true]]);
    expect(await sendState(d.id)).toEqual({ send_state: 'sent', state: 'under_review' });
    expect(await opOf(d.id)).toEqual([expect.objectContaining({ state: 'confirmed', attempts: 2 })]);
    expect(seen).toEqual(['pending', 'pending', 'pending']);
    // Confirmed: never sent again.
    expect(await jobPass()).toBe(0);
    expect(gw.postsFor(key)).toHaveLength(3);
    const { rows } = await ctx.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target = $1 AND action IN ('dispute.submitted', 'dispute.sent') ORDER BY id`, [String(d.id)]);
    expect(rows.map((r) => r.action)).toEqual(['dispute.submitted', 'dispute.sent']);
  });

  it('accept: the gateway acted but its answer was lost (500); the immediate retry with the same key gets the same operation — acted on once, confirmed', async () => {
    const d = await raise();
    gw.script('post', { mode: '500', execute: true });
    const acc = await post(`/api/disputes/${d.id}/accept`);
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    expect(acc.body.data).toMatchObject({ state: 'accepted', sendState: 'sent' });
    const key = `DSP-${d.gwDisputeId}-accept`;
    expect(gw.postsFor(key).map((c) => c.path)).toEqual([`/disputes/${d.gwDisputeId}/accept`, `/disputes/${d.gwDisputeId}/accept`]);
    expect(gw.ops.get(key)).toMatchObject({ kind: 'dispute.accept', executions: 1 });
    expect(await opOf(d.id)).toEqual([expect.objectContaining({ op_key: key, state: 'confirmed' })]);
  });

  it('a gateway that takes the answer but decides later: "sending" while it is processing, sent once it confirms; a refusal is shown as failed', async () => {
    const d = await raise();
    expect((await post(`/api/disputes/${d.id}/statement`, { statement: 'Refunded in store.' })).status).toBe(200);
    gw.script('post', { mode: 'processing' });
    const sub = await post(`/api/disputes/${d.id}/submit`);
    expect(sub.body.data).toMatchObject({ sendState: 'sending' });
    const key = `DSP-${d.gwDisputeId}-submit`;
    // Still processing at the gateway: asked again (same key), still sending.
    expect(await jobPass()).toBe(1);
    expect(await sendState(d.id)).toMatchObject({ send_state: 'sending' });
    gw.settle(key, 'succeeded');
    expect(await jobPass()).toBe(1);
    expect(await sendState(d.id)).toMatchObject({ send_state: 'sent' });
    expect(gw.ops.get(key)!.executions).toBe(1);
    expect(gw.postsFor(key)).toHaveLength(3);

    // Refused by the gateway (it answers "failed"): shown as failed, not sent again.
    const r = await raise();
    demo = await loginWithStepUp(ctx); // the job passes moved the clock past the step-up grant
    gw.script('post', { mode: 'processing' });
    expect((await post(`/api/disputes/${r.id}/accept`)).body.data).toMatchObject({ state: 'accepted', sendState: 'sending' });
    gw.settle(`DSP-${r.gwDisputeId}-accept`, 'failed', 'Dispute already closed');
    expect(await jobPass()).toBe(1);
    expect(await sendState(r.id)).toMatchObject({ send_state: 'failed', state: 'accepted' });
    expect(await jobPass()).toBe(0);
  });
});
