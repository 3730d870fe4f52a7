import { describe, expect, it } from 'vitest';
import { createPortalClient, listAll, orThrow, paginate, PortalApiError, retryDelay, type Schemas } from './index';

/**
 * The client without a server (a fetch double): what it sends on every call, the Idempotency-Key
 * it adds and keeps, the waits between tries, and the README's calls as typed code (this file is
 * type-checked with the package: a call the document does not allow fails `npm run typecheck`).
 */
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('createPortalClient', () => {
  it('sends the key, the version and the language; a POST gets one Idempotency-Key, kept over its retries', async () => {
    const seen: Request[] = [];
    const answers = [json({}, 503), json({ id: 7 }, 201)];
    const api = createPortalClient({
      baseUrl: 'https://portal.test/',
      apiKey: 'mpk_x',
      version: '2026-06-01',
      language: 'ja',
      sleep: async () => {},
      fetch: async (r) => (seen.push(r), answers.shift()!),
    });
    const out = await api.POST('/v1/refunds', { body: { transaction_id: 1, amount: '1.00' } });
    expect(out.response.status).toBe(201);
    expect(seen.map((r) => r.url)).toEqual(['https://portal.test/v1/refunds', 'https://portal.test/v1/refunds']);
    expect(seen[0].headers.get('authorization')).toBe('Bearer mpk_x');
    expect(seen[0].headers.get('portal-version')).toBe('2026-06-01');
    expect(seen[0].headers.get('accept-language')).toBe('ja');
    const key = seen[0].headers.get('idempotency-key')!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(seen[1].headers.get('idempotency-key')).toBe(key);
    expect(await seen[1].json()).toEqual({ transaction_id: 1, amount: '1.00' });
    // A GET gets none; a key given is kept.
    const gets: Request[] = [];
    const api2 = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', fetch: async (r) => (gets.push(r), json({ id: 1 })) });
    await api2.GET('/v1/transactions/{id}', { params: { path: { id: 1 } } });
    await api2.POST('/v1/refunds', { params: { header: { 'Idempotency-Key': 'order-A-17' } }, body: { transaction_id: 1, amount: '1.00' } });
    expect(gets[0].headers.get('idempotency-key')).toBeNull();
    expect(gets[1].headers.get('idempotency-key')).toBe('order-A-17');
  });

  it('a network error is tried again, at most `retries` times, then thrown; a 4xx is never retried', async () => {
    let calls = 0;
    const api = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', retries: 2, sleep: async () => {}, fetch: async () => (calls++, Promise.reject(new TypeError('fetch failed'))) });
    await expect(api.GET('/v1/transactions/{id}', { params: { path: { id: 1 } } })).rejects.toThrow('fetch failed');
    expect(calls).toBe(3);
    calls = 0;
    const err = { error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'limit', param: 'limit', request_id: 'r1' } };
    const api2 = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', sleep: async () => {}, fetch: async () => (calls++, json(err, 400)) });
    const out = await api2.GET('/v1/transactions', { params: { query: { limit: 1000 } } });
    expect(calls).toBe(1);
    const e = (() => {
      try {
        orThrow(out);
      } catch (x) {
        return x as PortalApiError;
      }
    })();
    expect(e).toBeInstanceOf(PortalApiError);
    expect({ status: e!.status, type: e!.type, code: e!.code, param: e!.param, requestId: e!.requestId }).toEqual({
      status: 400,
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'limit',
      requestId: 'r1',
    });
  });

  it('409 idempotency_key_in_use (the first request still running) is tried again with the same key; 409 idempotency_key_reused is not', async () => {
    const keys: string[] = [];
    const inUse = { error: { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'busy', param: 'Idempotency-Key', request_id: 'r' } };
    const reused = { error: { ...inUse.error, code: 'idempotency_key_reused' } };
    const answers = [json(inUse, 409), json({ id: 1 }, 201), json(reused, 409)];
    const api = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', sleep: async () => {}, fetch: async (r) => (keys.push(r.headers.get('idempotency-key')!), answers.shift()!) });
    expect((await api.POST('/v1/refunds', { body: { transaction_id: 1, amount: '1.00' } })).response.status).toBe(201);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const out = await api.POST('/v1/refunds', { body: { transaction_id: 1, amount: '2.00' } });
    expect(out.response.status).toBe(409);
    expect(out.error?.error.code).toBe('idempotency_key_reused');
    expect(keys).toHaveLength(3);
  });

  it('waits: Retry-After as told (at most maxDelayMs), else exponential with jitter', () => {
    expect(retryDelay(0, '3')).toBe(3000);
    expect(retryDelay(0, '120', { maxDelayMs: 5000 })).toBe(5000);
    for (let i = 0; i < 20; i++) {
      const d = retryDelay(2, null, { baseDelayMs: 100 });
      expect(d).toBeGreaterThanOrEqual(200);
      expect(d).toBeLessThanOrEqual(400);
    }
  });

  it('paginate follows next_cursor until has_more is false, sending the filters on every page', async () => {
    const seen: URL[] = [];
    const t = (id: number) => ({ id }) as unknown as Schemas['Transaction'];
    const pages: Record<string, unknown> = {
      '': { data: [t(5), t(4)], has_more: true, next_cursor: 'c1' },
      c1: { data: [t(3), t(2)], has_more: true, next_cursor: 'c2' },
      c2: { data: [t(1)], has_more: false, next_cursor: null },
    };
    const api = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', fetch: async (r) => json(pages[new URL(r.url).searchParams.get('cursor') ?? ''] ?? {}, 200) });
    const spy = createPortalClient({ baseUrl: 'https://portal.test', apiKey: 'k', fetch: async (r) => (seen.push(new URL(r.url)), json(pages[new URL(r.url).searchParams.get('cursor') ?? '']!)) });
    expect((await listAll(api, '/v1/transactions', { limit: 2 })).map((x) => x.id)).toEqual([5, 4, 3, 2, 1]);
    const ids: number[] = [];
    for await (const x of paginate(spy, '/v1/refunds', { merId: '100000000000002', limit: 2 })) ids.push(x.id);
    expect(ids).toEqual([5, 4, 3, 2, 1]);
    expect(seen.map((u) => [u.searchParams.get('merId'), u.searchParams.get('cursor')])).toEqual([
      ['100000000000002', null],
      ['100000000000002', 'c1'],
      ['100000000000002', 'c2'],
    ]);
    expect((await listAll(api, '/v1/transactions', { limit: 2 }, 3)).length).toBe(3);
  });
});
