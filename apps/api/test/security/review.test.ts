import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { sameLocalOrigin } from '../../src/modules/dev/dev.routes';
import { createTestApp, DB_KINDS, type TestCtx } from '../helpers';

/** Issue 28, findings of an outside review: configuration, API description, development routes. */
describe('production configuration (finding 8)', () => {
  const prod = { NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com' };
  it('refuses to start without SMTP_URL (sign-in codes would be written to disk)', () => {
    expect(() => loadConfig(prod)).toThrow(/SMTP_URL: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...prod, SMTP_URL: '' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ ...prod, SMTP_URL: 'smtp://mail.example.com:587', ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' }).smtpUrl).toBe('smtp://mail.example.com:587');
    // development keeps the outbox on disk
    expect(loadConfig({}).smtpUrl).toBeUndefined();
  });

  it('API_DOCS: auth by default in production, public elsewhere; off|auth|public only', () => {
    const p = { ...prod, SMTP_URL: 'smtp://mail.example.com', ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' };
    expect(loadConfig(p).apiDocs).toBe('auth');
    expect(loadConfig({ ...p, API_DOCS: 'off' }).apiDocs).toBe('off');
    expect(loadConfig({ ...p, API_DOCS: 'public' }).apiDocs).toBe('public');
    expect(loadConfig({}).apiDocs).toBe('public');
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/API_DOCS/);
  });
});

describe.each(DB_KINDS)('the API description by configuration (finding 9, %s)', (kind) => {
  let auth: TestCtx;
  let off: TestCtx;
  beforeAll(async () => {
    auth = await createTestApp({ kind, config: { apiDocs: 'auth' } });
    off = await createTestApp({ kind, seed: false, config: { apiDocs: 'off' } });
  });
  afterAll(async () => {
    await auth?.close();
    await off?.close();
  });

  it('API_DOCS=auth: only a signed-in user reads the description and its UI', async () => {
    for (const url of ['/api/docs/json', '/api/docs', '/api/docs/static/index.html']) {
      const anon = await auth.call({ method: 'GET', url });
      expect(anon.status, url).toBe(401);
      expect(JSON.stringify(anon.body)).not.toContain('openapi');
      expect((await auth.call({ method: 'GET', url, headers: { 'x-token': 'not-a-token' } })).status, url).toBe(401);
    }
    const { token } = await auth.login();
    const spec = await auth.call({ method: 'GET', url: '/api/docs/json', headers: { 'x-token': token } });
    expect(spec.status).toBe(200);
    expect((spec.body as unknown as { openapi: string }).openapi).toMatch(/^3\./);
    const ui = await auth.app.inject({ method: 'GET', url: '/api/docs', headers: { 'x-token': token } });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
    // Issue 51: the SCIM face's document too — a signed-in user, or a SCIM token.
    for (const url of ['/scim/v2/docs/json', '/scim/v2/docs']) {
      const anon = await auth.call({ method: 'GET', url });
      expect(anon.status, url).toBe(401);
      expect(JSON.stringify(anon.body)).not.toContain('openapi');
      expect((await auth.call({ method: 'GET', url, headers: { authorization: 'Bearer scim_not-a-token' } })).status, url).toBe(401);
    }
    const scim = await auth.call({ method: 'GET', url: '/scim/v2/docs/json', headers: { 'x-token': token } });
    expect(scim.status).toBe(200);
    expect((scim.body as unknown as { info: { title: string } }).info.title).toMatch(/SCIM/);
  });

  it('API_DOCS=off: not served at all', async () => {
    for (const url of ['/api/docs/json', '/api/docs', '/api/docs/static/index.html', '/scim/v2/docs/json', '/scim/v2/docs']) {
      const r = await off.call({ method: 'GET', url });
      expect(r.status, url).toBe(404);
    }
  });
});

describe('development routes: Host and Origin (finding 7)', () => {
  it('the check itself', () => {
    expect(sameLocalOrigin({ host: 'localhost:8080' })).toBe(true);
    expect(sameLocalOrigin({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(sameLocalOrigin({ host: '[::1]:8080', origin: 'http://[::1]:8080' })).toBe(true);
    expect(sameLocalOrigin({ host: 'localhost:80', origin: 'http://localhost' })).toBe(true);
    expect(sameLocalOrigin({ host: 'evil.example:8080' })).toBe(false);
    expect(sameLocalOrigin({ host: 'localhost.evil.example' })).toBe(false);
    expect(sameLocalOrigin({})).toBe(false);
    expect(sameLocalOrigin({ host: 'localhost:8080', origin: 'https://evil.example' })).toBe(false);
    expect(sameLocalOrigin({ host: 'localhost:8080', origin: 'http://localhost:9999' })).toBe(false);
    expect(sameLocalOrigin({ host: 'localhost:8080', origin: 'null' })).toBe(false);
    expect(sameLocalOrigin({ host: 'localhost:8080', 'sec-fetch-site': 'cross-site' })).toBe(false);
  });
});

describe.each(DB_KINDS)('development routes refuse foreign Hosts and cross-origin posts (finding 7, %s)', (kind) => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
  });
  afterAll(() => ctx?.close());
  const users = async () => (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_user`)).rows[0].n;
  const invite = (username: string, headers: Record<string, string>) =>
    ctx.call({
      method: 'POST',
      url: '/api/dev/invite',
      remoteAddress: '127.0.0.1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: `username=${username}&email=${username}%40example.com`,
    });

  it('a form posted by another site, or under a rebound Host, creates nobody and reads no mail', async () => {
    const before = await users();
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example', host: 'localhost:8080' },
      { origin: 'null', host: 'localhost:8080' },
      { host: 'evil.example:8080' },
      { host: 'localhost:8080', 'sec-fetch-site': 'cross-site' },
    ]) {
      const r = await invite('csrf-victim', headers);
      expect(r.status, JSON.stringify(headers)).toBe(404);
    }
    expect(await users()).toBe(before);
    for (const url of ['/api/dev/mailbox', '/dev/mailbox', '/api/dev/sms']) {
      expect((await ctx.call({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { host: 'rebound.evil.example' } })).status, url).toBe(404);
      expect((await ctx.call({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { host: 'localhost:8080' } })).status, url).toBe(200);
    }
    expect(
      (
        await ctx.call({
          method: 'POST',
          url: '/api/dev/runJob',
          remoteAddress: '127.0.0.1',
          headers: { origin: 'https://evil.example', host: 'localhost:8080' },
          payload: { job: 'monthEnd', at: 'x' },
        })
      ).status,
    ).toBe(404);
    // The same post from the portal's own page goes through.
    const own = await invite('dev-invited', { origin: 'http://localhost:8080', host: 'localhost:8080', 'sec-fetch-site': 'same-origin' });
    expect(own.body.code).toBe(0);
    expect(await users()).toBe(before + 1);
  });
});
