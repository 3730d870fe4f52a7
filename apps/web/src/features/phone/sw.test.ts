import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

/** public/sw.js and the offline page (decision 042), run in a stand-in worker scope. */
const PUBLIC = path.resolve(import.meta.dirname, '../../../public');
const ORIGIN = 'https://portal.example';

type Listener = (e: unknown) => void;
/** A worker's Request: relative URLs against the worker's origin. */
class WorkerRequest {
  url: string;
  cache?: string;
  constructor(url: string, init?: { cache?: string }) {
    this.url = new URL(url, ORIGIN).href;
    this.cache = init?.cache;
  }
}
function loadWorker(network: (req: Request) => Promise<Response>) {
  const listeners = new Map<string, Listener>();
  const store = new Map<string, Response>();
  const caches = {
    open: async () => ({
      addAll: async (reqs: Request[]) => {
        for (const r of reqs) store.set(new URL(r.url, ORIGIN).pathname, new Response(`cached ${new URL(r.url, ORIGIN).pathname}`));
      },
    }),
    keys: async () => ['mp-shell-v0', 'mp-shell-v1', 'other'],
    delete: async (k: string) => k !== 'other',
    match: async (key: string) => store.get(key)?.clone(),
  };
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  vm.runInNewContext(fs.readFileSync(path.join(PUBLIC, 'sw.js'), 'utf8'), { self, caches, fetch: network, URL, Request: WorkerRequest, Response, Promise });
  return { listeners, store };
}

async function dispatch(listeners: Map<string, Listener>, url: string, init: { mode?: string; method?: string } = {}) {
  let answer: Promise<Response> | null = null;
  const request = { url: `${ORIGIN}${url}`, method: init.method ?? 'GET', mode: init.mode ?? 'cors' };
  listeners.get('fetch')!({ request, respondWith: (p: Promise<Response>) => (answer = p) });
  return answer as Promise<Response> | null;
}

describe('service worker', () => {
  it('keeps the offline page and icons on install, and never answers an API call', async () => {
    const { listeners, store } = loadWorker(() => Promise.reject(new TypeError('offline')));
    let waited: Promise<unknown> | null = null;
    listeners.get('install')!({ waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
    expect([...store.keys()]).toEqual(expect.arrayContaining(['/offline.html', '/offline.js', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png']));
    expect([...store.keys()].some((k) => k.startsWith('/api/'))).toBe(false);
    // The API, signed-in figures included: left to the network, as without a worker.
    expect(await dispatch(listeners, '/api/txn/takings?beginDate=x')).toBeNull();
    expect(await dispatch(listeners, '/api/user/info', { mode: 'navigate' })).toBeNull();
    expect(await dispatch(listeners, '/api/payInStore/add', { method: 'POST' })).toBeNull();
    // Scripts: the HTTP cache's (hashed, immutable).
    expect(await dispatch(listeners, '/assets/base-abc.js')).toBeNull();
    // The shell's files from the cache.
    expect(await (await dispatch(listeners, '/icons/icon-192.png'))!.text()).toBe('cached /icons/icon-192.png');
  });

  it('shows a page from the network, and the offline page when the network fails', async () => {
    let online = true;
    const { listeners, store } = loadWorker(async (req) => {
      if (!online) throw new TypeError('Failed to fetch');
      return new Response(`network ${new URL((req as unknown as { url: string }).url).pathname}`);
    });
    let waited: Promise<unknown> | null = null;
    listeners.get('install')!({ waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
    expect(store.size).toBeGreaterThan(0);
    expect(await (await dispatch(listeners, '/m', { mode: 'navigate' }))!.text()).toBe('network /m');
    online = false;
    expect(await (await dispatch(listeners, '/m', { mode: 'navigate' }))!.text()).toBe('cached /offline.html');
  });
});

describe('offline page', () => {
  it('says it is offline in the four languages, by a script the CSP allows', () => {
    const html = fs.readFileSync(path.join(PUBLIC, 'offline.html'), 'utf8');
    expect(html).toContain('<script src="/offline.js"></script>');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const T = vm.runInNewContext(`${fs.readFileSync(path.join(PUBLIC, 'offline.js'), 'utf8').replace(/var m = [\s\S]*/, '')}; T`) as Record<string, string[]>;
    expect(Object.keys(T).sort()).toEqual(['en', 'ja', 'ko', 'zh']);
    for (const [lng, texts] of Object.entries(T)) {
      expect(texts, lng).toHaveLength(4);
      for (const t of texts) expect(t.trim(), lng).not.toBe('');
    }
    expect(new Set(Object.values(T).map((x) => x[0])).size).toBe(4);
  });
});
