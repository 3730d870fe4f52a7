import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { loadConfig } from '../../src/config';
import { parseTrustProxy } from '../../src/config.env';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../helpers';

/** Issue 10, findings 1–3: where the server listens, who may read the mailbox, whose address counts, where pay links point. */
describe('network settings (finding 1, 2)', () => {
  it('listens on loopback by default; links come from configuration', () => {
    const c = loadConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.trustProxy).toBe(false);
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com/' }).publicUrl).toBe('https://portal.example.com');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('production refuses to start without PUBLIC_URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: required when NODE_ENV=production/);
    expect(
      loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com', SMTP_URL: 'smtp://mail.example.com:587', ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' }).publicUrl,
    ).toBe('https://portal.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'https://portal.example.com/evil?x=1' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
  });

  it('TRUST_PROXY: off by default, a hop count or a list of proxies; never "trust everyone"', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(() => parseTrustProxy('true')).toThrow(/anyone/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an address/);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow();
  });
});

describe.each(DB_KINDS)('development mailbox (finding 1, %s)', (kind) => {
  let ctx: TestCtx;
  let prod: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind, seed: false });
    prod = await createTestApp({ kind, seed: false, config: { env: 'production' } });
  });
  afterAll(async () => {
    await ctx?.close();
    await prod?.close();
  });

  it('answers loopback callers only', async () => {
    for (const url of ['/api/dev/mailbox', '/dev/mailbox']) {
      expect((await ctx.call({ method: 'GET', url, remoteAddress: '127.0.0.1' })).status, url).toBe(200);
      expect((await ctx.call({ method: 'GET', url, remoteAddress: '::1' })).status, url).toBe(200);
      for (const remoteAddress of ['192.168.1.20', '10.0.0.5', '::ffff:203.0.113.9', '2001:db8::1']) {
        const r = await ctx.call({ method: 'GET', url, remoteAddress });
        expect(r.status, `${url} from ${remoteAddress}`).toBe(404);
        expect(r.body).toMatchObject({ code: 404, data: null });
      }
      // A reverse proxy on this machine forwarding an outside caller: refused too.
      expect((await ctx.call({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    }
  });

  it('is not there at all in production', async () => {
    for (const url of ['/api/dev/mailbox', '/dev/mailbox']) expect((await prod.call({ method: 'GET', url, remoteAddress: '127.0.0.1' })).status, url).toBe(404);
    expect((await prod.call({ method: 'POST', url: '/api/dev/runJob', payload: { job: 'monthEnd', at: '2026-12-01T00:00:00Z' }, remoteAddress: '127.0.0.1' })).status).toBe(404);
    expect((await prod.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress: '127.0.0.1' })).status).toBe(404);
  });

  it('the failed-job maker (POST /api/dev/failedJob) answers loopback callers only and writes nothing for others', async () => {
    const jobs = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM job')).rows[0].n;
    const before = await jobs();
    for (const remoteAddress of ['192.168.1.20', '::ffff:203.0.113.9']) {
      expect((await ctx.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress })).status, remoteAddress).toBe(404);
    }
    expect((await ctx.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    expect(await jobs()).toBe(before);
    expect((await ctx.call({ method: 'POST', url: '/api/dev/failedJob', remoteAddress: '127.0.0.1' })).body.code).toBe(0);
    expect(await jobs()).toBe(before + 1);
  });

  it('the month-end trigger (POST /api/dev/runJob) answers loopback callers only, and checks its input', async () => {
    const payload = { job: 'monthEnd', at: 'not a date' };
    for (const remoteAddress of ['192.168.1.20', '::ffff:203.0.113.9']) {
      expect((await ctx.call({ method: 'POST', url: '/api/dev/runJob', payload, remoteAddress })).status, remoteAddress).toBe(404);
    }
    expect((await ctx.call({ method: 'POST', url: '/api/dev/runJob', payload, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    expect((await ctx.call({ method: 'POST', url: '/api/dev/runJob', payload, remoteAddress: '127.0.0.1' })).body.code).toBe(400);
  });
});

describe.each(DB_KINDS)('forwarded headers (finding 2, %s)', (kind) => {
  let ctx: TestCtx;
  let behindProxy: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    behindProxy = await createTestApp({ kind, config: { trustProxy: ['127.0.0.1'] } });
  });
  afterAll(async () => {
    await ctx?.close();
    await behindProxy?.close();
  });

  const askCode = (c: TestCtx, xff: string, remoteAddress = '127.0.0.1') =>
    c.call({ method: 'POST', url: '/api/user/getEmailCode', remoteAddress, headers: { ...form({}).headers, 'x-forwarded-for': xff }, payload: 'username=nobody-here' });

  it('a new X-Forwarded-For per request does not escape the sign-in rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await askCode(ctx, `198.51.100.${i + 1}`)).status);
    expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('the audit log records the socket address, not the claimed one', async () => {
    const r = await ctx.call({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '127.0.0.1',
      headers: { ...form({}).headers, 'x-forwarded-for': '6.6.6.6' },
      payload: new URLSearchParams({ username: DEMO.users.demo, password: 'wrong-one', verifyCode: '000000' }).toString(),
    });
    expect(r.body.code).toBe(Code.WRONG_PASSWORD);
    const { rows } = await ctx.db.query<{ ip: string }>(`SELECT ip FROM audit_log WHERE action = 'auth.login.failure' ORDER BY id DESC LIMIT 1`);
    expect(rows[0].ip).toBe('127.0.0.1');
  });

  it('behind a configured proxy, the forwarded client address counts (rate limit per client, audit)', async () => {
    for (let i = 0; i < 31; i++) expect((await askCode(behindProxy, `198.51.100.${i + 1}`)).status).not.toBe(429);
    // A caller that is not the proxy is not believed.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await askCode(behindProxy, `203.0.113.${i + 1}`, '192.0.2.50')).status);
    expect(statuses[30]).toBe(429);
    await behindProxy.call({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '127.0.0.1',
      headers: { ...form({}).headers, 'x-forwarded-for': '6.6.6.6' },
      payload: new URLSearchParams({ username: DEMO.users.demo, password: 'wrong-one', verifyCode: '000000' }).toString(),
    });
    const { rows } = await behindProxy.db.query<{ ip: string }>(`SELECT ip FROM audit_log WHERE action = 'auth.login.failure' ORDER BY id DESC LIMIT 1`);
    expect(rows[0].ip).toBe('6.6.6.6');
  });
});

describe.each(DB_KINDS)('pay links (finding 3, %s)', (kind) => {
  let ctx: TestCtx;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind, config: { publicUrl: 'https://portal.example.com' } });
    token = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());

  it('come from configuration, never from Host or X-Forwarded-Host', async () => {
    const f = form({ reconId: 'R-HOST', orderCurrency: 'CNY', totalAmount: '10', goodsName: 'Tea', goodsPrice: '10', goodsQuantity: '1' });
    const r = await ctx.call({
      method: 'POST',
      url: '/api/payByLink/add',
      payload: f.payload,
      headers: { ...f.headers, 'x-token': token, host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data.payByLink).toMatch(/^https:\/\/portal\.example\.com\/pay\/[A-Za-z0-9_-]{43}$/);
    const detail = await ctx.call({ method: 'GET', url: `/api/payByLink/${r.body.data.id}`, headers: { 'x-token': token, host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(detail.body.data.link).toBe(r.body.data.payByLink);
  });
});
