import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestCtx } from './helpers';

describe('app-wide behaviour', () => {
  let ctx: TestCtx;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('sends security headers on every response', async () => {
    for (const url of ['/api/user/info', '/api/nope', '/api/docs/json']) {
      const res = await ctx.call({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-dns-prefetch-control']).toBe('off');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    const csp = String((await ctx.call({ method: 'GET', url: '/api/user/info' })).headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
  });

  it('answers an unknown API path with the not-found envelope', async () => {
    const res = await ctx.call({ method: 'GET', url: '/api/nope', headers: { 'accept-language': 'ko' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, msg: '찾을 수 없습니다', data: null, requestId: expect.any(String) });
  });

  it('describes the API in OpenAPI at /api/docs', async () => {
    const spec = (await ctx.call({ method: 'GET', url: '/api/docs/json' })).body as unknown as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    for (const p of ['/api/user/login', '/api/user/getEmailCode', '/api/user/refreshToken', '/api/user/info', '/api/merchant/info', '/api/notice/list']) {
      expect(Object.keys(spec.paths)).toContain(p);
    }
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });

  it('serves the development mailbox outside production', async () => {
    await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username: 'demo' } });
    const page = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your sign-in verification code');
    const json = await ctx.call({ method: 'GET', url: '/api/dev/mailbox' });
    expect(json.body.data[0].to).toBe('demo@demo-group.example');
  });
});
