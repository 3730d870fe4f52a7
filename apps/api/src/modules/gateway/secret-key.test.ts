import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { auth, loginWithStepUp } from '../txn/txn.fixtures';
import { addEndpoint } from '../webhook/webhook.fixtures';
import { feedRow, makeConnection, signedCall } from './gateway.fixtures';
import { assertProviderKey } from './gateway.service';
import { firstStart } from '../../startup';

/**
 * PROVIDER_KEY_ENCRYPTION_KEY seals every stored secret: gateway connections' signing secrets and
 * webhook endpoints' signing secrets (issues 46 and 47).
 *   - start-up: in production, no key while a connection or a webhook endpoint exists, or a key
 *     that does not open what is stored → the server refuses to start, saying which;
 *   - run time: a feature that needs the key (a signed gateway call, a webhook endpoint created or
 *     rotated) without a usable one answers 503 with a clear message, never a bare 500.
 */
const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

describe.each(DB_KINDS)('the secret-sealing key (%s)', (kind) => {
  let ctx: TestCtx;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());

  const prod = (key?: string) => ({ ...ctx.config, env: 'production', providerKeyEncryptionKey: key });

  it('start-up in production: refused without the key once a gateway connection or only a webhook endpoint exists; started when neither does', async () => {
    await expect(assertProviderKey(ctx.db, prod())).resolves.toBeNull();
    // A webhook endpoint alone (its signing secret is sealed with the key).
    await addEndpoint(ctx, DEMO.subA, 'https://hooks.example.com/a', ['refund.succeeded']);
    await expect(assertProviderKey(ctx.db, prod())).rejects.toThrow(/PROVIDER_KEY_ENCRYPTION_KEY.*webhook endpoint/s);
    // The whole start-up path refuses too.
    await expect(firstStart({ ...ctx.deps, config: prod() as typeof ctx.config })).rejects.toThrow(/PROVIDER_KEY_ENCRYPTION_KEY/);
  });

  it('start-up in production: a key that does not open the stored secrets is refused, naming what it cannot open', async () => {
    const cli = { ...ctx.config, providerKeyEncryptionKey: KEY_A };
    await makeConnection({ db: ctx.db, config: cli }, 'keygw', [DEMO.group]);
    await ctx.db.query('DELETE FROM webhook_endpoint');
    await expect(assertProviderKey(ctx.db, prod(KEY_B))).rejects.toThrow(/PROVIDER_KEY_ENCRYPTION_KEY.*does not open.*gateway key/s);
    await expect(assertProviderKey(ctx.db, prod())).rejects.toThrow(/PROVIDER_KEY_ENCRYPTION_KEY.*gateway connection/s);
    await expect(assertProviderKey(ctx.db, prod(KEY_A))).resolves.toBeNull();
    // Outside production the same finding is a warning for the log, not a refusal.
    await expect(assertProviderKey(ctx.db, { ...ctx.config, providerKeyEncryptionKey: KEY_B })).resolves.toMatch(/does not open.*gateway key/);
  });
});

describe.each(DB_KINDS)('a server running without a usable key answers 503 (%s)', (kind) => {
  let ctx: TestCtx;

  beforeAll(async () => {
    // Production, started before PROVIDER_KEY_ENCRYPTION_KEY was set (nothing sealed existed then).
    ctx = await createTestApp({ kind, config: { env: 'production', providerKeyEncryptionKey: undefined } });
  });
  afterAll(() => ctx?.close());

  it('a signed gateway call for a connection made since (with the key, by the CLI) → 503 with the reason, nothing written', async () => {
    const key = await makeConnection({ db: ctx.db, config: { ...ctx.config, providerKeyEncryptionKey: KEY_A } }, 'latergw', [DEMO.group]);
    const before = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;
    for (const lang of ['en', 'zh']) {
      const res = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [feedRow()] }, { headers: { 'accept-language': lang } });
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, data: null });
      expect(res.body.msg).toMatch(lang === 'en' ? /PROVIDER_KEY_ENCRYPTION_KEY/ : /PROVIDER_KEY_ENCRYPTION_KEY.*[\u4e00-\u9fff]|[\u4e00-\u9fff].*PROVIDER_KEY_ENCRYPTION_KEY/);
    }
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n).toBe(before);
  });

  it('creating a webhook endpoint → 503 with the reason, nothing stored', async () => {
    const token = await loginWithStepUp(ctx);
    const res = await ctx.call({
      method: 'POST',
      url: '/api/webhooks/endpoint/create',
      headers: auth(token),
      payload: { merId: DEMO.subA, url: 'https://hooks.example.com/b', events: ['refund.succeeded'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, data: null });
    expect(res.body.msg).toMatch(/PROVIDER_KEY_ENCRYPTION_KEY/);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoint')).rows[0].n).toBe(0);
  });
});

describe.each(DB_KINDS)('a server whose key does not open a stored secret answers 503 (%s)', (kind) => {
  let ctx: TestCtx;

  beforeAll(async () => {
    ctx = await createTestApp({ kind, config: { providerKeyEncryptionKey: KEY_B } });
  });
  afterAll(() => ctx?.close());

  it('a signed call for a connection sealed with another key → 503, not 500', async () => {
    const key = await makeConnection({ db: ctx.db, config: { ...ctx.config, providerKeyEncryptionKey: KEY_A } }, 'othergw', [DEMO.group]);
    const res = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [feedRow()] });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, data: null });
  });
});
