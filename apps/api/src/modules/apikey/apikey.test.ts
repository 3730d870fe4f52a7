import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_RE, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { sha256 } from '../../lib/crypto';
import { createApiKey } from './apikey.fixtures';

const CREATE = '/api/developer/keys/create';

describe.each(DB_KINDS)('API keys: Developers → Keys (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  const post = (token: string, url: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const list = (token: string, query: Record<string, string> = {}) => ctx.call({ method: 'GET', url: '/api/developer/keys', headers: { 'x-token': token }, query });
  const audits = async (action: string, target: string) =>
    (await ctx.db.query<{ username: string; detail: any; ip: string }>('SELECT username, detail, ip FROM audit_log WHERE action = $1 AND target = $2', [action, target])).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx?.close());

  it('creates a key: the secret once, only its hash stored, audited with before/after', async () => {
    const r = await post(demo, CREATE, {
      name: 'ERP',
      merIds: `${DEMO.subA},${DEMO.subB}`,
      permissions: `${Perm.txnList},${Perm.txnRefund}`,
      ipAllow: '203.0.113.0/24, 2001:db8::/32',
      expiresOn: '2099-12-31',
    });
    expect(r.body.code, r.body.msg).toBe(0);
    const { key, secret } = r.body.data;
    expect(secret).toMatch(API_KEY_RE);
    expect(secret.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key).toMatchObject({
      name: 'ERP',
      merIds: [DEMO.subA, DEMO.subB],
      permissions: [Perm.txnList, Perm.txnRefund],
      ipAllow: ['203.0.113.0/24', '2001:db8::/32'],
      status: 'active',
      createdBy: 'demo',
      lastUsedAt: null,
      unused: false,
    });
    expect(key.expiresAt).toBe('2100-01-01 00:00:00');
    const { rows } = await ctx.db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_key WHERE id = $1', [key.id]);
    expect(rows[0].secret_hash).toBe(sha256(secret));
    // The secret is nowhere else in the database (audit included), and the list does not show it.
    const dump = JSON.stringify((await ctx.db.query('SELECT * FROM audit_log')).rows) + JSON.stringify((await ctx.db.query('SELECT * FROM api_key')).rows);
    expect(dump).not.toContain(secret.slice(17));
    expect(JSON.stringify((await list(demo)).body)).not.toContain(secret.slice(17));
    const a = await audits('apikey.create', key.prefix);
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ username: 'demo', detail: { before: null, after: { merIds: [DEMO.subA, DEMO.subB], permissions: [Perm.txnList, Perm.txnRefund] } } });
  });

  it.each([
    ['no name', { name: '', merIds: DEMO.subA, permissions: Perm.txnList }, 'name'],
    ['a control byte in the name', { name: 'a\u0001b', merIds: DEMO.subA, permissions: Perm.txnList }, 'name'],
    ['no merchant', { name: 'x', merIds: '', permissions: Perm.txnList }, 'merIds'],
    ['no permission', { name: 'x', merIds: DEMO.subA, permissions: '' }, 'permissions'],
    ['a bad range', { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList, ipAllow: '10.0.0.0/33' }, 'ipAllow'],
    ['not an address', { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList, ipAllow: 'example.com' }, 'ipAllow'],
    ['an impossible date', { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList, expiresOn: '2099-02-30' }, 'expiresOn'],
    ['a past date', { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList, expiresOn: '2020-01-01' }, 'expiry'],
    ["another merchant's", { name: 'x', merIds: DEMO.other, permissions: Perm.txnList }, DEMO.other],
    ['an administrator-only permission', { name: 'x', merIds: DEMO.subA, permissions: Perm.developerManage }, Perm.developerManage],
    ['an unknown permission', { name: 'x', merIds: DEMO.subA, permissions: 'txn:everything' }, 'txn:everything'],
  ])('refuses %s (400, nothing written)', async (_, body, hint) => {
    const before = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_key')).rows[0].n;
    const r = await post(demo, CREATE, body);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(hint);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_key')).rows[0].n).toBe(before);
  });

  it("answers in the caller's language", async () => {
    const r = await post(demo, CREATE, { name: 'x', merIds: DEMO.other, permissions: Perm.txnList }, 'ja');
    expect(r.body.msg).toContain('キーは閲覧できる加盟店にのみ使えます');
  });

  it('a key carries only permissions its creator holds', async () => {
    await ctx.db.query(
      "INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions) SELECT 'dev-only', password_hash, 'dev-only@demo-group.example', $1, 'SUB', false, $2 FROM app_user WHERE username = 'demo-sub'",
      [DEMO.subA, [Perm.developerManage, Perm.txnList]],
    );
    const dev = (await ctx.login('dev-only')).token;
    const r = await post(dev, CREATE, { name: 'x', merIds: DEMO.subA, permissions: `${Perm.txnList},${Perm.txnRefund}` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(Perm.txnRefund);
    // Its scope is its own merchant: the group is outside it.
    expect((await post(dev, CREATE, { name: 'x', merIds: DEMO.group, permissions: Perm.txnList })).status).toBe(400);
    expect((await post(dev, CREATE, { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList })).body.code).toBe(0);
  });

  it('needs developer:manage (403 to demo-sub, 401 without a token)', async () => {
    expect((await list(sub)).status).toBe(403);
    expect((await post(sub, CREATE, { name: 'x', merIds: DEMO.subA, permissions: Perm.txnList })).status).toBe(403);
    expect((await post(sub, '/api/developer/keys/revoke', { id: 1 })).status).toBe(403);
    expect((await ctx.call({ method: 'GET', url: '/api/developer/keys' })).status).toBe(401);
  });

  it("lists the merchant's keys (not another merchant's), filters by status and name, flags 90 days unused", async () => {
    const k = await createApiKey(ctx, demo, { name: 'Old shop', permissions: [Perm.txnList] });
    await ctx.db.query("UPDATE api_key SET created_at = now() - interval '120 days' WHERE id = $1", [k.id]);
    const o = await createApiKey(ctx, other, { name: 'Other ERP', merIds: [DEMO.other], permissions: [Perm.txnList] });
    const mine = (await list(demo)).body.data;
    expect(mine.content.map((x: any) => x.prefix)).toContain(k.prefix);
    expect(mine.content.map((x: any) => x.prefix)).not.toContain(o.prefix);
    expect(mine.content.find((x: any) => x.prefix === k.prefix).unused).toBe(true);
    expect(mine.content.filter((x: any) => x.prefix !== k.prefix).every((x: any) => !x.unused)).toBe(true);
    const named = (await list(demo, { name: 'old' })).body.data;
    expect(named.content.map((x: any) => x.prefix)).toEqual([k.prefix]);
    expect((await list(other)).body.data.content.map((x: any) => x.prefix)).toEqual([o.prefix]);
  });

  it("revokes a key (audited once), not another merchant's (404)", async () => {
    const k = await createApiKey(ctx, demo, { name: 'to revoke', permissions: [Perm.txnList] });
    expect((await post(other, '/api/developer/keys/revoke', { id: k.id })).status).toBe(404);
    expect((await ctx.db.query('SELECT revoked_at FROM api_key WHERE id = $1', [k.id])).rows[0].revoked_at).toBeNull();
    const r = await post(demo, '/api/developer/keys/revoke', { id: k.id });
    expect(r.body.data).toMatchObject({ status: 'revoked' });
    expect((await post(demo, '/api/developer/keys/revoke', { id: k.id })).body.data.status).toBe('revoked');
    expect(await audits('apikey.revoke', k.prefix)).toHaveLength(1);
    expect((await list(demo, { status: 'revoked' })).body.data.content.map((x: any) => x.prefix)).toContain(k.prefix);
    expect((await list(demo, { status: 'active' })).body.data.content.map((x: any) => x.prefix)).not.toContain(k.prefix);
    expect((await post(demo, '/api/developer/keys/revoke', { id: 'x' })).status).toBe(400);
  });
});
