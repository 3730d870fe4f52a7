import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, isConcurrent, type TestCtx } from '../../../test/helpers';
import { addDays, platformDate } from '../payments/time';
import { ingestTransaction } from '../payments/ingest.service';
import { settleDate } from '../payments/settlement/settle.run';
import { addOperator, opsLogin } from './ops.fixtures';

const SG = '200000000000001';

/**
 * The back office's exchange rates (issue 46): view, enter under four eyes (the proposer may not
 * approve), history with corrections; the runs screen and /metrics count rows waiting for a rate.
 */
describe.each(DB_KINDS)('ops exchange rates (%s)', (kind) => {
  let ctx: TestCtx;
  let admin: string;
  let risk: string;
  let risk2: string;
  let reader: string;
  let today: string;
  let seq = 0;
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });
  const requests = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fx_rate_request')).rows[0].n;
  const sgdRate = async (d: string) =>
    (await ctx.db.query<{ rate: string; source: string }>(`SELECT rate::text AS rate, source FROM fx_rate WHERE rate_date = $1 AND from_cur = 'USD' AND to_cur = 'SGD'`, [d])).rows[0];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const a = await addOperator(ctx, 'fx-admin', 'administrator');
    const r1 = await addOperator(ctx, 'fx-risk', 'risk');
    const r2 = await addOperator(ctx, 'fx-risk2', 'risk');
    const rd = await addOperator(ctx, 'fx-reader', 'read-only');
    admin = await opsLogin(ctx, 'fx-admin', a.secret);
    risk = await opsLogin(ctx, 'fx-risk', r1.secret);
    risk2 = await opsLogin(ctx, 'fx-risk2', r2.secret);
    reader = await opsLogin(ctx, 'fx-reader', rd.secret);
    today = platformDate(ctx.clock.now(), ctx.deps.config.platformTz);
    await ctx.db.query(`DELETE FROM fx_rate WHERE from_cur = 'USD' AND to_cur = 'SGD'`);
  });
  afterAll(() => ctx?.close());

  const propose = (token: string, body: Record<string, unknown>, lang = 'en') => ctx.call({ method: 'POST', url: '/api/ops/rates/requests', headers: h(token, lang), payload: body });
  const decide = (token: string, id: number, how: 'approve' | 'reject', reason = 'checked against the provider sheet') =>
    ctx.call({ method: 'POST', url: `/api/ops/rates/requests/${id}/${how}`, headers: h(token), payload: { reason } });

  it('four eyes: a rate entered waits; its proposer may not approve it; another operator does, and it is stored and in force', async () => {
    const d = addDays(today, -3);
    const p = await propose(risk, { date: d, from: 'USD', to: 'SGD', rate: '1.3425', note: 'from the bank sheet' });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.data).toMatchObject({ status: 'PENDING', currentRate: null, settledWithCurrent: 0 });
    expect(await sgdRate(d)).toBeUndefined();
    const list = await ctx.call({ method: 'GET', url: '/api/ops/rates', headers: h(reader), query: { from: addDays(today, -10), to: today } });
    expect(list.body.data.pending).toEqual([expect.objectContaining({ id: p.body.data.id, rate: '1.3425', proposedBy: 'fx-risk', status: 'PENDING' })]);
    const self = await decide(risk, p.body.data.id, 'approve');
    expect(self.status).toBe(403);
    expect(self.body.msg).toMatch(/another operator|four eyes|four-eyes/i);
    expect(await sgdRate(d)).toBeUndefined();
    const ok = await decide(risk2, p.body.data.id, 'approve');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', settledWithPrevious: 0 });
    expect(await sgdRate(d)).toEqual({ rate: '1.342500000000', source: 'backoffice' });
    expect((await decide(admin, p.body.data.id, 'approve')).status).toBe(409);
    const { rows } = await ctx.db.query<{ action: string; username: string }>(`SELECT action, username FROM audit_log WHERE action LIKE 'ops.fx_rate.%' ORDER BY id`);
    expect(rows).toEqual([
      { action: 'ops.fx_rate.propose', username: 'fx-risk' },
      { action: 'ops.fx_rate.decide', username: 'fx-risk2' },
    ]);
  });

  it('a correction after the day settled: the proposal shows how many settled transactions keep the rate; settled money unchanged; history lists both', async () => {
    const d = addDays(today, -3);
    const id = (
      await ingestTransaction(
        ctx.db,
        {
          merId: SG,
          orderNo: `FX${kind}${++seq}`,
          tranType: 'PURC',
          amount: 1000,
          currency: 'USD',
          paymentSchema: 'CARD',
          paymentBrand: 'visa',
          gwResponse: '00',
          txnTime: new Date(`${addDays(d, -1)}T04:00:00Z`),
        },
        { platformTz: ctx.deps.config.platformTz },
      )
    ).id;
    await ctx.db.query('DELETE FROM settlement_run');
    await settleDate(ctx.db, d);
    const before = (await ctx.db.query('SELECT settle_amount, fx_rate, fx_rate_id FROM txn WHERE id = $1', [id])).rows[0];
    expect(before).toMatchObject({ settle_amount: 1342 });
    const plain = await propose(risk, { date: d, from: 'USD', to: 'SGD', rate: '1.35' }, 'ja');
    expect(plain.status).toBe(409);
    expect(plain.body.msg).toContain('訂正');
    const p = await propose(risk, { date: d, from: 'USD', to: 'SGD', rate: '1.35', correction: true });
    expect(p.body.data).toMatchObject({ currentRate: '1.3425', settledWithCurrent: 1 });
    const ok = await decide(admin, p.body.data.id, 'approve');
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', settledWithPrevious: 1 });
    expect(ok.body.data.msg).toMatch(/1 transactions already settled with the earlier rate 1\.3425 keep it/);
    expect((await ctx.db.query('SELECT settle_amount, fx_rate, fx_rate_id FROM txn WHERE id = $1', [id])).rows[0]).toEqual(before);
    const hist = await ctx.call({ method: 'GET', url: '/api/ops/rates/history', headers: h(reader), query: { date: d, from: 'USD', to: 'SGD' } });
    expect(hist.body.data.versions.map((v: { rate: string; source: string; settledCount: number; current: boolean }) => [v.rate, v.source, v.settledCount, v.current])).toEqual([
      ['1.3425', 'backoffice', 1, false],
      ['1.35', 'backoffice', 0, true],
    ]);
    expect(hist.body.data.requests.map((r: { status: string }) => r.status)).toEqual(['APPROVED', 'APPROVED']);
  });

  it('a rejected request stores nothing; bad input answers clearly in four languages and writes nothing; roles', async () => {
    const d = addDays(today, -5);
    const p = await propose(risk, { date: d, from: 'USD', to: 'SGD', rate: '1.40' });
    const no = await decide(risk2, p.body.data.id, 'reject', 'wrong sheet');
    expect(no.body.data).toMatchObject({ status: 'REJECTED', entryId: null });
    expect(await sgdRate(d)).toBeUndefined();
    const n = await requests();
    const msgs: string[] = [];
    for (const lang of ['en', 'zh', 'ko', 'ja']) {
      const r = await propose(risk, { date: d, from: 'USD', to: 'USD', rate: '1' }, lang);
      expect(r.status).toBe(400);
      msgs.push(r.body.msg);
    }
    expect(msgs[0]).toMatch(/two different currencies/);
    expect(msgs[1]).toMatch(/不同货币/);
    expect(msgs[2]).toMatch(/통화/);
    expect(msgs[3]).toMatch(/通貨/);
    for (const body of [
      { date: d, from: 'USD', to: 'SGD', rate: '-1' },
      { date: d, from: 'USD', to: 'SGD', rate: '1,5' },
      { date: addDays(today, 3), from: 'USD', to: 'SGD', rate: '1.5' },
      { date: d, from: 'usd', to: 'SGD', rate: '1.5' },
    ])
      expect((await propose(risk, body)).status, JSON.stringify(body)).toBe(400);
    expect(await requests()).toBe(n);
    expect((await propose(reader, { date: d, from: 'USD', to: 'SGD', rate: '1.5' })).status).toBe(403);
    expect((await decide(reader, p.body.data.id, 'approve')).status).toBe(403);
    expect((await ctx.call({ method: 'GET', url: '/api/ops/rates', query: { from: d, to: today } })).status).toBe(401);
    expect((await decide(risk2, 999999, 'approve')).status).toBe(404);
    expect(await requests()).toBe(n);
  });

  it.skipIf(!isConcurrent(kind))('two operators approving the same request at once: one approves, the other is told it is decided', async () => {
    const d = addDays(today, -7);
    const p = await propose(risk, { date: d, from: 'USD', to: 'SGD', rate: '1.33' });
    const [a, b] = await Promise.all([decide(risk2, p.body.data.id, 'approve'), decide(admin, p.body.data.id, 'approve')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fx_rate_entry WHERE rate_date = $1 AND from_cur = 'USD' AND to_cur = 'SGD'`, [d]);
    expect(rows[0].n).toBe(1);
  });

  it('rows waiting for a rate: on the runs screen and on /metrics; gone once the next run settles them', async () => {
    await ctx.db.query(`DELETE FROM fx_rate WHERE from_cur = 'EUR' AND to_cur = 'SGD'`);
    await ctx.db.query(`UPDATE merchant SET currencies = array_append(currencies, 'EUR') WHERE mer_id = $1`, [SG]);
    const d = addDays(today, -2);
    await ingestTransaction(
      ctx.db,
      {
        merId: SG,
        orderNo: `FX${kind}${++seq}`,
        tranType: 'PURC',
        amount: 500,
        currency: 'EUR',
        paymentSchema: 'CARD',
        paymentBrand: 'visa',
        gwResponse: '00',
        txnTime: new Date(`${addDays(d, -1)}T04:00:00Z`),
      },
      { platformTz: ctx.deps.config.platformTz },
    );
    expect((await settleDate(ctx.db, d)).unconverted).toBe(1);
    const runs = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(admin), query: { from: addDays(today, -10), to: today } });
    expect(runs.body.data.waitingForRate).toEqual({ total: 1, pairs: [{ pair: 'EUR>SGD', count: 1, since: d }] });
    const scrape = async () => (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    const m = { text: await scrape() };
    expect(m.text).toContain('# TYPE portal_settlement_fx_waiting_rows gauge');
    expect(m.text).toMatch(/portal_settlement_fx_waiting_rows\{pair="EUR>SGD"\} 1/);
    expect(m.text).toMatch(/portal_settlement_fx_waiting_rows\{pair="all"\} 1/);
    await ctx.db.query(`INSERT INTO fx_rate (rate_date, from_cur, to_cur, rate) VALUES ($1, 'EUR', 'SGD', '1.45')`, [addDays(d, 1)]);
    expect((await settleDate(ctx.db, addDays(d, 1))).unconverted).toBe(0);
    const after = await ctx.call({ method: 'GET', url: '/api/ops/runs/settlement', headers: h(admin), query: { from: addDays(today, -10), to: today } });
    expect(after.body.data.waitingForRate).toEqual({ total: 0, pairs: [] });
    expect(await scrape()).toMatch(/portal_settlement_fx_waiting_rows\{pair="all"\} 0/);
  });

  it('the re-run refuses today as the settle CLI does: one rule, stated in the message', async () => {
    const r = await ctx.call({ method: 'POST', url: `/api/ops/runs/settlement/${today}/rerun`, headers: h(admin) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(
      `Settlement date ${today} cannot be run yet: a day is settled once it is over in the platform time zone (${ctx.deps.config.platformTz}), so dates can be run up to yesterday (${addDays(today, -1)})`,
    );
  });
});
