import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { createApiKey, v1, type TestApiKey } from '../apikey/apikey.fixtures';
import { VALID_ORDER } from '../paybylink/paybylink.fixtures';
import { purgeIdempotencyKeys } from './v1.idempotency';

/** Issue 50: Idempotency-Key on every POST of /v1 — one object per key, the first answer replayed, kept 24 hours. */
describe.each(DB_KINDS)('/v1 idempotency on every POST (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestApiKey;
  const count = async (sql: string, p: unknown[] = []) => (await ctx.db.query<{ n: number }>(sql, p)).rows[0].n;
  const order = { ...VALID_ORDER, merchant_id: DEMO.subA, orderCurrency: 'CNY' };

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const demo = (await ctx.login()).token;
    key = await createApiKey(ctx, demo, { permissions: [Perm.payByLinkCreate, Perm.payByLinkDetail, Perm.payInStoreCreate, Perm.payInStoreList] });
  });
  afterAll(() => ctx?.close());

  it('parallel identical requests make one order; every answer is the same, the repeats marked Idempotent-Replayed', async (c) => {
    const before = await count('SELECT count(*)::int AS n FROM pay_by_link_order');
    const all = await Promise.all(
      Array.from({ length: 6 }, () => v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `par-${kind}-0001` }, payload: order })),
    );
    for (const r of all) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(all.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await count('SELECT count(*)::int AS n FROM pay_by_link_order')).toBe(before + 1);
    // Later: the same answer again, byte for byte; another body → 409 idempotency_error.
    const again = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `par-${kind}-0001` }, payload: order });
    expect(again.body).toEqual(all[0].body);
    const other = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `par-${kind}-0001` }, payload: { ...order, totalAmount: '1.00' } });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    // The same key on another operation is another use: 409 too.
    const store = await v1(ctx, key.secret, {
      method: 'POST',
      url: '/v1/in-store-orders',
      headers: { 'idempotency-key': `par-${kind}-0001` },
      payload: { storeId: DEMO.stores.nanjingRoad, orderCurrency: 'CNY', totalAmount: '1.00', goodsName: 'Tea' },
    });
    expect(store.status).toBe(409);
    if (!isConcurrent(kind)) c.annotate('truly parallel on PostgreSQL only');
  });

  it('missing and malformed keys are told apart (nothing made); a refused request does not use up its key', async () => {
    const before = await count('SELECT count(*)::int AS n FROM pay_by_link_order');
    const missing = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: {}, payload: order });
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    const bad = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': 'short' }, payload: order });
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_invalid', param: 'Idempotency-Key' });
    const refused = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `ref-${kind}-0001` }, payload: { ...order, nope: 1 } });
    expect(refused.status).toBe(400);
    const fixed = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `ref-${kind}-0001` }, payload: order });
    expect(fixed.status).toBe(201);
    expect(await count('SELECT count(*)::int AS n FROM pay_by_link_order')).toBe(before + 1);
  });

  it('keys are kept 24 hours, then purged (and may be used again)', async () => {
    const made = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `old-${kind}-0001` }, payload: order });
    expect(made.status).toBe(201);
    await ctx.db.query("UPDATE api_idempotency SET created_at = now() - interval '23 hours' WHERE idem_key = $1", [`old-${kind}-0001`]);
    await purgeIdempotencyKeys(ctx.deps);
    expect(await count('SELECT count(*)::int AS n FROM api_idempotency WHERE idem_key = $1', [`old-${kind}-0001`])).toBe(1);
    await ctx.db.query("UPDATE api_idempotency SET created_at = now() - interval '25 hours' WHERE idem_key = $1", [`old-${kind}-0001`]);
    expect(await purgeIdempotencyKeys(ctx.deps)).toBeGreaterThanOrEqual(1);
    expect(await count('SELECT count(*)::int AS n FROM api_idempotency WHERE idem_key = $1', [`old-${kind}-0001`])).toBe(0);
    const anew = await v1(ctx, key.secret, { method: 'POST', url: '/v1/payment-links', headers: { 'idempotency-key': `old-${kind}-0001` }, payload: order });
    expect(anew.status).toBe(201);
    expect(anew.body.id).not.toBe(made.body.id);
  });
});
