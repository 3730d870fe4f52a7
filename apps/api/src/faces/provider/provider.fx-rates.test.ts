import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { makeConnection, signedCall, signedHeaders, type TestKey } from '../../modules/gateway/gateway.fixtures';
import { addDays, platformDate } from '../../modules/payments/time';

const URL_ = '/provider/v1/fx-rates';

/** Exchange rates through the provider API (issue 46): signed, idempotent, per-row answers, documented. */
describe.each(DB_KINDS)('provider API: exchange rates (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let today: string;
  const stored = async () =>
    (
      await ctx.db.query<{ d: string; f: string; t: string; rate: string; source: string }>(
        `SELECT rate_date::text AS d, trim(from_cur) AS f, trim(to_cur) AS t, rate::text AS rate, source FROM fx_rate WHERE from_cur = 'USD' ORDER BY 1, 3`,
      )
    ).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    key = await makeConnection(ctx, 'fx-gw', [DEMO.group]);
    today = platformDate(ctx.clock.now(), ctx.config.platformTz);
    await ctx.db.query(`DELETE FROM fx_rate WHERE from_cur = 'USD'`);
  });
  afterAll(() => ctx?.close());

  it('unsigned or badly signed → 401, nothing stored', async () => {
    const body = { rates: [{ date: today, from: 'USD', to: 'HKD', rate: '7.8' }] };
    const r = await ctx.call({ method: 'POST', url: URL_, payload: body });
    expect(r.status).toBe(401);
    const h = signedHeaders(key, 'POST', URL_, JSON.stringify(body), ctx.clock.now().getTime());
    const tampered = await ctx.call({ method: 'POST', url: URL_, payload: JSON.stringify({ rates: [{ ...body.rates[0], rate: '9.9' }] }), headers: h });
    expect(tampered.status).toBe(401);
    expect(await stored()).toEqual([]);
  });

  it("per-row answers: good rows stored, a bad row refused alone with its field, in the caller's language", async () => {
    const res = await signedCall(
      ctx,
      key,
      'POST',
      URL_,
      {
        rates: [
          { date: addDays(today, -1), from: 'USD', to: 'HKD', rate: '7.8125' },
          { date: today, from: 'USD', to: 'HKD', rate: '7.81' },
          { date: today, from: 'USD', to: 'HKD', rate: '7,81' },
          { date: addDays(today, 5), from: 'USD', to: 'HKD', rate: '7.8' },
          'not a row',
        ],
      },
      { headers: { 'accept-language': 'zh' } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ created: 2, corrected: 0, unchanged: 0, rejected: 3 });
    const rs = res.body.data.results;
    expect(rs.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'rejected', 'rejected', 'rejected']);
    expect(rs[2]).toMatchObject({ field: 'rate', code: 400 });
    expect(rs[2].msg).toContain('汇率“7,81”无效');
    expect(rs[3]).toMatchObject({ field: 'date' });
    expect(rs[3].msg).toContain(addDays(today, 1));
    expect(await stored()).toEqual([
      { d: addDays(today, -1), f: 'USD', t: 'HKD', rate: '7.812500000000', source: 'api' },
      { d: today, f: 'USD', t: 'HKD', rate: '7.810000000000', source: 'api' },
    ]);
  });

  it('idempotent: the same rows again answer unchanged (a new signature, nothing new stored); another rate needs correction: true', async () => {
    const body = { rates: [{ date: today, from: 'USD', to: 'HKD', rate: '7.81' }] };
    const again = await signedCall(ctx, key, 'POST', URL_, body);
    expect(again.body.data).toMatchObject({ unchanged: 1, created: 0 });
    const versions = async () => (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fx_rate_entry WHERE from_cur = 'USD' AND rate_date = $1`, [today])).rows[0].n;
    expect(await versions()).toBe(1);
    const other = await signedCall(ctx, key, 'POST', URL_, { rates: [{ ...body.rates[0], rate: '7.9' }] });
    expect(other.body.data.results[0]).toMatchObject({ status: 'rejected', code: 409 });
    const fix = await signedCall(ctx, key, 'POST', URL_, { rates: [{ ...body.rates[0], rate: '7.9', correction: true }] });
    expect(fix.body.data.results[0]).toMatchObject({ status: 'corrected', previousRate: '7.81', settledWithPrevious: 0 });
    expect(await versions()).toBe(2);
    const list = await signedCall(ctx, key, 'GET', `${URL_}?from=${addDays(today, -3)}&to=${today}`, undefined);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data[0]).toMatchObject({ date: today, from: 'USD', to: 'HKD', rate: '7.9', versions: 2, source: 'api', sourceRef: `connection:fx-gw key:${key.keyId}` });
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'fx.rates' AND username = 'gateway:fx-gw'`);
    expect(rows[0].n).toBe(2);
  });

  it('bad input: no rows, too many, not an array → 400, nothing stored', async () => {
    const before = await stored();
    for (const body of [{ rates: [] }, { rates: Array.from({ length: 501 }, () => ({})) }, { rates: 'x' }, { rows: [] }]) {
      const r = await signedCall(ctx, key, 'POST', URL_, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect(await stored()).toEqual(before);
  });

  it.skipIf(!isConcurrent(kind))('parallel calls with the same new rate store it once (both answered, one created)', async () => {
    const d = addDays(today, -10);
    const body = { rates: [{ date: d, from: 'USD', to: 'SGD', rate: '1.3425' }] };
    const [a, b] = await Promise.all([signedCall(ctx, key, 'POST', URL_, body), signedCall(ctx, key, 'POST', URL_, body)]);
    expect([a.body.data.results[0].status, b.body.data.results[0].status].sort()).toEqual(['created', 'unchanged']);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fx_rate_entry WHERE rate_date = $1 AND from_cur = 'USD' AND to_cur = 'SGD'`, [d]);
    expect(rows[0].n).toBe(1);
  });

  it('described in /api/provider/docs', async () => {
    const doc = await ctx.call({ method: 'GET', url: '/api/provider/docs/json' });
    const op = (doc.body as unknown as { paths: Record<string, any> }).paths['/provider/v1/fx-rates'];
    expect(op.post.summary).toMatch(/created \/ corrected \/ unchanged \/ rejected/);
    expect(op.post.description).toMatch(/never changes settled money/);
    expect(op.get).toBeDefined();
  });
});
