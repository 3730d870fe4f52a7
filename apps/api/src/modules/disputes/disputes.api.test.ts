import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO, form, type TestCtx, createTestApp } from '../../../test/helpers';
import { makeConnection, signedCall, type TestKey } from '../gateway/gateway.fixtures';
import { addTxn, auth, loginWithStepUp } from '../txn/txn.fixtures';
import { addEndpoint } from '../webhook/webhook.fixtures';
import { disputeTick } from './disputes.jobs';
import fs from 'node:fs';
import path from 'node:path';
import { sweepInbox } from '../gateway/gateway.background';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

/** A multipart body with one file part. */
function multipart(name: string, data: Buffer, type = 'application/octet-stream') {
  const b = `----d${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), data, Buffer.from(`\r\n--${b}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${b}` } };
}

describe.each(DB_KINDS)('disputes through the portal, the provider API and /v1 (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let other: string;
  let sub: string;
  let key: TestKey;
  const deadline = () => new Date(ctx.clock.now().getTime() + 10 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = await loginWithStepUp(ctx);
    other = (await ctx.login(DEMO.users.other)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    key = await makeConnection(ctx, 'gw-dsp', [DEMO.subA, DEMO.subB]);
  });
  afterAll(() => ctx?.close());

  const notify = (rows: unknown[], k = key) => signedCall(ctx, k, 'POST', '/provider/v1/disputes', { disputes: rows });
  const row = (gwGTransId: string, o: Record<string, unknown> = {}) => ({
    gwDisputeId: `DSP-${Math.random().toString(36).slice(2, 10)}`,
    gwGTransId,
    kind: 'chargeback',
    status: 'needs_response',
    reasonCode: '13.1',
    amount: '60.00',
    currency: 'CNY',
    deadline: deadline(),
    ...o,
  });
  const get = (url: string, token = demo, lang = 'en') => ctx.call({ method: 'GET', url, headers: { ...auth(token), 'accept-language': lang } });
  const post = (url: string, token = demo, body?: unknown, lang = 'en') =>
    ctx.call({ method: 'POST', url, headers: { ...auth(token), 'accept-language': lang, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
  const upload = (id: number, category: string, name: string, data: Buffer, token = demo, lang = 'en') => {
    const m = multipart(name, data);
    return ctx.call({ method: 'POST', url: `/api/disputes/${id}/evidence?category=${category}`, headers: { ...auth(token), 'accept-language': lang, ...m.headers }, payload: m.payload });
  };

  it('takes signed notifications row by row: accepted, duplicate, rejected (unknown purchase, bad field, another connection’s merchant)', async () => {
    const p = await addTxn(ctx, { amount: 10000 });
    const foreign = await addTxn(ctx, { merId: DEMO.group, paymentSchema: 'WX', amount: 10000, currency: 'CNY' }).catch(() => null);
    const r1 = row(p.gwTransId);
    const res = await notify([r1, r1, row('GW-NOPE'), { ...row(p.gwTransId), amount: 'ten' }, ...(foreign ? [row(foreign.gwTransId)] : [])]);
    expect(res.status).toBe(200);
    const results = res.body.data.results;
    expect(results.slice(0, 4).map((x: { status: string }) => x.status)).toEqual(['accepted', 'duplicate', 'rejected', 'rejected']);
    expect(results[2]).toMatchObject({ code: 404 });
    expect(results[3]).toMatchObject({ field: 'amount' });
    if (foreign) expect(results[4]).toMatchObject({ status: 'rejected', code: 404 });
    // Unsigned: refused before anything is read.
    const unsigned = await ctx.call({ method: 'POST', url: '/provider/v1/disputes', payload: JSON.stringify({ disputes: [r1] }), headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
  });

  it('inbox, counts and detail in the user’s language; another merchant’s dispute answers as absent; the permission is checked', async () => {
    const p = await addTxn(ctx, { merId: DEMO.subB, paymentSchema: 'CARD', paymentBrand: 'visa', currency: 'USD', amount: 10000 });
    const r = row(p.gwTransId, { reasonCode: '10.4', currency: 'USD' });
    await notify([r]);
    // A brand without the code in the table: the code itself, never an error.
    const w = await addTxn(ctx, { amount: 10000 });
    const rw = row(w.gwTransId, { reasonCode: '10.4' });
    await notify([rw]);
    const list = await get('/api/disputes/list?state=needs_response', demo, 'zh');
    expect(list.body.code).toBe(0);
    const mine = list.body.data.content.find((d: { gwDisputeId: string }) => d.gwDisputeId === r.gwDisputeId);
    expect(mine).toMatchObject({ state: 'needs_response', reason: '其他欺诈：无卡交易', amount: '60.00', currency: 'USD', daysLeft: 10 });
    expect(list.body.data.content.find((d: { gwDisputeId: string }) => d.gwDisputeId === rw.gwDisputeId)).toMatchObject({ reason: '10.4', reasonGroup: 'other' });
    const counts = await get('/api/disputes/counts');
    expect(counts.body.data.needs_response).toBeGreaterThanOrEqual(1);
    const detail = await get(`/api/disputes/${mine.id}`, demo, 'ja');
    expect(detail.body.data).toMatchObject({ reason: 'その他の不正：非対面取引', canRespond: true, purchase: { gwTransId: p.gwTransId, amount: '100.00' } });
    expect(detail.body.data.evidenceHelps).toContain('receipt');
    expect(detail.body.data.timeline.map((x: { action: string }) => x.action)).toContain('dispute.received');
    expect((await get(`/api/disputes/${mine.id}`, other)).status).toBe(404);
    expect((await get(`/api/disputes/list`, other)).body.data.content.find((d: { id: number }) => d.id === mine.id)).toBeUndefined();
    // demo-sub reads (dispute:view) but may not answer.
    expect((await post(`/api/disputes/${mine.id}/accept`, sub)).status).toBe(403);
    expect((await get('/api/disputes/list?state=nonsense')).status).toBe(400);
  });

  it('evidence: checked by content, size and count; submitted once, immutable after; sent to the gateway; a refund of the disputed part is refused', async () => {
    const p = await addTxn(ctx, { amount: 10000 });
    const r = row(p.gwTransId);
    const id = (await notify([r])).body.data.results[0].disputeId as number;
    const txt = await upload(id, 'receipt', 'receipt.pdf', Buffer.from('just text'), demo, 'zh');
    expect(txt.status).toBe(400);
    expect(txt.body.msg).toContain('PDF、JPG 或 PNG');
    const big = await upload(id, 'receipt', 'big.pdf', Buffer.concat([PDF, Buffer.alloc(4_718_592, 0x20)]));
    expect(big.status).toBe(400);
    expect(big.body.msg).toContain('4.5');
    expect((await upload(id, 'nonsense', 'a.pdf', PDF)).status).toBe(400);
    const ok1 = await upload(id, 'receipt', 'receipt.pdf', PDF);
    expect(ok1.body.data).toMatchObject({ mime: 'application/pdf', submitted: false });
    for (let i = 0; i < 9; i++) expect((await upload(id, 'other', `p${i}.png`, PNG)).status).toBe(200);
    const eleventh = await upload(id, 'other', 'x.png', PNG);
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.msg).toContain('10');
    expect((await post(`/api/disputes/${id}/evidence/${ok1.body.data.id}/delete`)).status).toBe(200);
    expect((await post(`/api/disputes/${id}/statement`, demo, { statement: 'Delivered on 3 Nov, signed by the buyer.' })).status).toBe(200);
    expect((await post(`/api/disputes/${id}/statement`, demo, { statement: 'x'.repeat(5001) })).status).toBe(400);
    // The refund of the disputed part is refused (60.00 of 100.00 disputed).
    const refund = await ctx.call({
      method: 'POST',
      url: '/api/txn/refund',
      headers: { ...auth(demo), 'accept-language': 'zh', ...form({ id: p.gwTransId, amount: '50.00' }).headers },
      payload: form({ id: p.gwTransId, amount: '50.00' }).payload,
    });
    expect(refund.body.data.code).toBe(2);
    expect(refund.body.data.msg).toContain('拒付');
    const sub1 = await post(`/api/disputes/${id}/submit`);
    expect(sub1.body.data).toMatchObject({ state: 'under_review', sendState: 'sent' });
    expect((await post(`/api/disputes/${id}/submit`)).status).toBe(409);
    expect((await post(`/api/disputes/${id}/accept`)).status).toBe(409);
    const files = (await get(`/api/disputes/${id}`)).body.data.evidence;
    expect(files).toHaveLength(9);
    expect(files.every((f: { submitted: boolean }) => f.submitted)).toBe(true);
    expect((await post(`/api/disputes/${id}/evidence/${files[0].id}/delete`)).status).toBe(409);
    expect((await upload(id, 'other', 'late.png', PNG)).status).toBe(409);
    const dl = await get(`/api/disputes/${id}/evidence/${files[0].id}`);
    expect(dl.headers['content-type']).toBe('image/png');
    const op = await ctx.db.query<{ state: string; op_key: string }>('SELECT state, op_key FROM dispute_operation WHERE dispute_id = $1', [id]);
    expect(op.rows).toEqual([{ state: 'confirmed', op_key: `DSP-${r.gwDisputeId}-submit` }]);
    // The gateway rules it won: the debit is credited back.
    const won = await notify([{ ...r, status: 'won' }]);
    expect(won.body.data.results[0]).toMatchObject({ status: 'accepted', state: 'won' });
    const kinds = await ctx.db.query<{ kind: string }>('SELECT kind FROM dispute_movement WHERE dispute_id = $1 ORDER BY id', [id]);
    expect(kinds.rows.map((k) => k.kind)).toEqual(['debit', 'credit']);
  });

  it('webhook events dispute.created, dispute.updated, dispute.closed go through the outbox; the deadline expires unanswered disputes; reminders are recorded once', async () => {
    await addEndpoint(ctx, DEMO.subA, 'http://127.0.0.1:9/hook', ['dispute.created', 'dispute.updated', 'dispute.closed']);
    const p = await addTxn(ctx, { amount: 10000 });
    const r = row(p.gwTransId, { deadline: new Date(ctx.clock.now().getTime() + 2.5 * 86_400_000).toISOString() });
    const id = (await notify([r])).body.data.results[0].disputeId as number;
    await notify([{ ...r, status: 'under_review' }]);
    await notify([{ ...r, status: 'lost' }]);
    const ev = await ctx.db.query<{ type: string; data: { disputeId: number; outcome: string | null } }>(
      `SELECT type, data FROM webhook_event WHERE type LIKE 'dispute.%' AND (data->>'disputeId')::int = $1 ORDER BY id`,
      [id],
    );
    expect(ev.rows.map((e) => e.type)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
    expect(ev.rows[2].data.outcome).toBe('lost');
    // Another, left unanswered: a 3-day reminder now (once), expired after its deadline.
    const p2 = await addTxn(ctx, { amount: 10000 });
    const r2 = row(p2.gwTransId, { deadline: new Date(ctx.clock.now().getTime() + 2.5 * 86_400_000).toISOString() });
    const id2 = (await notify([r2])).body.data.results[0].disputeId as number;
    await disputeTick(ctx.deps);
    await disputeTick(ctx.deps);
    const rem = await ctx.db.query<{ days: number; sent: boolean }>('SELECT days, sent_at IS NOT NULL AS sent FROM dispute_reminder WHERE dispute_id = $1', [id2]);
    expect(rem.rows.length).toBeGreaterThan(0);
    expect(rem.rows.every((x) => x.days === 3 && x.sent)).toBe(true);
    ctx.clock.advance(3 * 86_400_000);
    await disputeTick(ctx.deps);
    expect((await ctx.db.query<{ state: string }>('SELECT state FROM dispute WHERE id = $1', [id2])).rows[0].state).toBe('expired');
    ctx.clock.advance(-3 * 86_400_000);
  });

  it('the daily dispute file in the import inbox: each line received as a notification, bad lines kept with their reason', async () => {
    const p = await addTxn(ctx, { amount: 10000 });
    const dir = path.join(ctx.config.importInbox ?? path.join(ctx.config.dataDir, 'inbox'), 'gw-dsp');
    fs.mkdirSync(dir, { recursive: true });
    const r = row(p.gwTransId);
    fs.writeFileSync(path.join(dir, '2026-12-01.disputes.jsonl'), [JSON.stringify(r), JSON.stringify(r), '{nope', JSON.stringify(row('GW-NONE'))].join('\n'));
    await sweepInbox(ctx.deps);
    const f = await ctx.db.query<{ kind: string; accepted: number; duplicate: number; rejected: number }>(
      `SELECT kind, accepted, duplicate, rejected FROM import_file WHERE file_name = '2026-12-01.disputes.jsonl'`,
    );
    expect(f.rows[0]).toEqual({ kind: 'disputes', accepted: 1, duplicate: 1, rejected: 2 });
    expect((await ctx.db.query('SELECT 1 FROM dispute WHERE gw_dispute_id = $1', [r.gwDisputeId])).rows).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'done', '2026-12-01.disputes.jsonl'))).toBe(true);
  });
});
