import { describe, expect, it } from 'vitest';
import { createClient, RequestError, type RequestUi } from './request';
import { memoryTokens } from './tokens';
import { filenameFromDisposition } from './download';

/**
 * The request client against a fake fetch (the browser's network is outside our system): a tiny
 * in-memory "server" that knows which access tokens are valid and rotates pairs on refresh.
 */
interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fakeServer(opts: { refreshDelayMs?: number; refreshAnswer?: () => Response } = {}) {
  let valid = new Set(['t1']);
  let refreshable = new Set(['r1']);
  let n = 1;
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const headers = init.headers as Record<string, string>;
    const body = typeof init.body === 'string' ? init.body : '';
    calls.push({ url, method: init.method ?? 'GET', headers, body });
    if (url.startsWith('/api/user/refreshToken')) {
      await sleep(opts.refreshDelayMs ?? 20);
      if (opts.refreshAnswer) return opts.refreshAnswer();
      const rt = new URLSearchParams(body).get('refreshToken') ?? '';
      if (!refreshable.has(rt)) return json({ code: 50014, msg: 'Session ended', data: null }, 401);
      n += 1;
      valid = new Set([`t${n}`]);
      refreshable = new Set([`r${n}`]);
      return json({ code: 0, msg: 'success', data: { token: `t${n}`, refreshToken: `r${n}`, expiresIn: 900 } });
    }
    const token = headers['X-Token'];
    if (!token) return json({ code: -1, msg: 'Not logged in', data: null }, 401);
    if (!valid.has(token)) return json({ code: 3, msg: 'Token expired', data: null }, 401);
    return json({ code: 0, msg: 'success', data: { url, token } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    calls,
    expireAll() {
      valid = new Set();
    },
    refreshCalls: () => calls.filter((c) => c.url.startsWith('/api/user/refreshToken')),
  };
}

function recordingUi() {
  const shown = { errors: [] as string[], transport: [] as RequestError[], logout: 0 };
  const ui: RequestUi = {
    showError: (m) => shown.errors.push(m),
    showTransportError: (e) => shown.transport.push(e),
    confirmLogout: () => {
      shown.logout += 1;
    },
  };
  return { ui, shown };
}

function setup(server = fakeServer(), tokens = memoryTokens({ token: 't1', refreshToken: 'r1' })) {
  const { ui, shown } = recordingUi();
  const client = createClient({ fetch: server.fetch, tokens, ui, language: () => 'ja', timezoneOffset: () => 9 });
  return { client, server, tokens, shown };
}

describe('request client: code 3 → one refresh, queued requests replayed', () => {
  it('refreshes once for concurrent requests that all meet code 3, and replays every one with the new token', async () => {
    const { client, server, tokens, shown } = setup();
    server.expireAll();
    const urls = ['/a', '/b', '/c', '/d', '/e'];
    const results = await Promise.all(urls.map((u) => client.get<{ url: string; token: string }>(u)));
    expect(server.refreshCalls()).toHaveLength(1);
    expect(results.map((r) => r.url)).toEqual(urls.map((u) => `/api${u}`));
    expect(results.map((r) => r.token)).toEqual(urls.map(() => 't2'));
    expect(tokens.getToken()).toBe('t2');
    expect(tokens.getRefreshToken()).toBe('r2');
    // each request: one try with the old token, one replay with the new one
    for (const u of urls) expect(server.calls.filter((c) => c.url === `/api${u}`).map((c) => c.headers['X-Token'])).toEqual(['t1', 't2']);
    expect(shown).toEqual({ errors: [], transport: [], logout: 0 });
  });

  it('lets a request started during the refresh wait for it instead of sending the stale token', async () => {
    const { client, server } = setup(fakeServer({ refreshDelayMs: 60 }));
    server.expireAll();
    const first = client.get('/first');
    await sleep(20); // the refresh is now in flight
    const late = client.get<{ token: string }>('/late');
    await Promise.all([first, late]);
    expect(server.refreshCalls()).toHaveLength(1);
    expect(server.calls.filter((c) => c.url === '/api/late').map((c) => c.headers['X-Token'])).toEqual(['t2']);
  });

  it('replays without a second refresh when the token was already renewed by another request', async () => {
    const { client, server } = setup();
    server.expireAll();
    await client.get('/one');
    server.expireAll();
    await Promise.all([client.get('/two'), client.get('/three')]);
    expect(server.refreshCalls()).toHaveLength(2);
  });

  it('rejects every queued request and prompts logout when the refresh fails', async () => {
    const { client, server, shown } = setup(fakeServer({ refreshAnswer: () => json({ code: 3, msg: 'expired', data: null }, 401) }));
    server.expireAll();
    const results = await Promise.allSettled(['/a', '/b', '/c'].map((u) => client.get(u)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(server.refreshCalls()).toHaveLength(1);
    expect(shown.logout).toBeGreaterThanOrEqual(1);
    expect(shown.errors).toEqual([]);
    const reason = (results[0] as PromiseRejectedResult).reason as RequestError;
    expect(reason.reason).toBe('logout');
  });

  it('prompts logout when no refresh token is held', async () => {
    const { client, server, shown } = setup(fakeServer(), memoryTokens({ token: 't1' }));
    server.expireAll();
    await expect(client.get('/a')).rejects.toMatchObject({ reason: 'logout' });
    expect(server.refreshCalls()).toHaveLength(0);
    expect(shown.logout).toBe(1);
  });
});

describe('request client: envelope codes and transport', () => {
  const codeServer = (code: number, msg: string, status = 200) => ({ fetch: (async () => json({ code, msg, data: { wait: 12 } }, status)) as typeof fetch }) as ReturnType<typeof fakeServer>;

  it.each([-1, 50012, 50014])('code %i → the Confirm logout box, promise rejected', async (code) => {
    const { client, shown } = setup(codeServer(code, 'bye', 401));
    await expect(client.get('/x')).rejects.toMatchObject({ code, reason: 'logout' });
    expect(shown.logout).toBe(1);
    expect(shown.errors).toEqual([]);
  });

  it('other codes → error message with the server text, rejected with code and data', async () => {
    const { client, shown } = setup(codeServer(1007, 'Wait 12 s'));
    await expect(client.post('/user/getEmailCode', { username: 'demo' })).rejects.toMatchObject({ code: 1007, message: 'Wait 12 s', data: { wait: 12 } });
    expect(shown.errors).toEqual(['Wait 12 s']);
  });

  it("an empty message reads 'Error'", async () => {
    const { client, shown } = setup(codeServer(400, ''));
    await expect(client.get('/x')).rejects.toBeInstanceOf(RequestError);
    expect(shown.errors).toEqual(['Error']);
  });

  it('quiet requests show nothing', async () => {
    const { client, shown } = setup(codeServer(50012, 'x', 401));
    await expect(client.get('/x', undefined, { quiet: true })).rejects.toMatchObject({ code: 50012 });
    expect(shown).toEqual({ errors: [], transport: [], logout: 0 });
  });

  it('network failure → transport message', async () => {
    const fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    const { client, shown } = setup({ fetch } as ReturnType<typeof fakeServer>);
    await expect(client.get('/x')).rejects.toMatchObject({ reason: 'network', code: null });
    expect(shown.transport).toHaveLength(1);
  });

  it('HTTP error without an envelope → transport message with the body text', async () => {
    const fetch = (async () => new Response('Bad gateway', { status: 502, headers: { 'content-type': 'text/plain' } })) as typeof globalThis.fetch;
    const { client, shown } = setup({ fetch } as ReturnType<typeof fakeServer>);
    await expect(client.file('/report/export')).rejects.toMatchObject({ reason: 'http', status: 502, message: 'Bad gateway' });
    expect(shown.transport[0].message).toBe('Bad gateway');
  });

  it('times out after the configured time', async () => {
    const fetch = ((_: unknown, init: RequestInit) =>
      new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as typeof globalThis.fetch;
    const { ui, shown } = recordingUi();
    const client = createClient({ fetch, tokens: memoryTokens(), ui, language: () => 'en', timezoneOffset: () => 0, timeoutMs: 30 });
    await expect(client.get('/slow')).rejects.toMatchObject({ reason: 'timeout' });
    expect(shown.transport[0].reason).toBe('timeout');
  });
});

describe('request client: what goes on the wire', () => {
  it('sends language always, token and time-zone offset when signed in, forms url-encoded, params without blanks', async () => {
    const { client, server } = setup();
    await client.post('/user/checkPassword', { password: 'a&b=c', empty: '', list: ['V', 'M'] });
    await client.get('/txn/list', { page: 0, size: 10, merId: '', brands: ['visa', 'jcb'], x: undefined });
    const [post, get] = server.calls;
    expect(post.headers).toMatchObject({ 'Accept-Language': 'ja', 'X-Token': 't1', 'X-Timezone-Offset': '9', 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' });
    expect(post.body).toBe('password=a%26b%3Dc&list=V%2CM');
    expect(get.url).toBe('/api/txn/list?page=0&size=10&brands=visa%2Cjcb');
  });

  it('signed out: language only', async () => {
    const { client, server } = setup(fakeServer(), memoryTokens());
    await expect(client.get('/user/info', undefined, { quiet: true })).rejects.toMatchObject({ code: -1 });
    expect(server.calls[0].headers).toEqual({ 'Accept-Language': 'ja' });
  });

  it('non-JSON responses are files named by Content-Disposition', async () => {
    const fetch = (async () =>
      new Response('a,b\n1,2\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="report.csv"; filename*=UTF-8''%E4%BA%A4%E6%98%93.csv` },
      })) as typeof globalThis.fetch;
    const { client } = setup({ fetch } as ReturnType<typeof fakeServer>);
    const file = await client.file('/txn/export');
    expect(file.filename).toBe('交易.csv');
    expect(await file.blob.text()).toBe('a,b\n1,2\n');
  });

  it.each([
    ['attachment; filename="bill 2024.xlsx"', 'bill 2024.xlsx'],
    ['attachment; filename=plain.pdf', 'plain.pdf'],
    ["attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", 'résumé.pdf'],
    [null, undefined],
  ])('Content-Disposition %s → %s', (header, name) => {
    expect(filenameFromDisposition(header)).toBe(name);
  });
});
