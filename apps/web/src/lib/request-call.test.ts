import { describe, expect, it } from 'vitest';
import { BankrecApi, DisputesApi, endpointKey, FilesApi, NoticeApi, TrailApi, TxnApi, UsersApi, ViewsApi, WebhooksApi } from '@portal/contract';
import { createClient, type RequestUi } from './request';
import { memoryTokens } from './tokens';

/**
 * http.call(descriptor, input) (issue 45 §3, decision 074): the same requests the hand-written URLs
 * made — path parameters filled and encoded, the rest as query, form, JSON or multipart by the
 * descriptor; downloads answer the file.
 */
interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
}

function setup(answer: () => Response = () => new Response(JSON.stringify({ code: 0, msg: 'success', data: { ok: true } }), { headers: { 'content-type': 'application/json' } })) {
  const sent: Sent[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    sent.push({ url: String(input), method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body });
    return answer();
  }) as typeof globalThis.fetch;
  const errors: string[] = [];
  const ui: RequestUi = { showError: (m) => errors.push(m), showTransportError: () => undefined, confirmLogout: () => undefined };
  const client = createClient({ fetch, tokens: memoryTokens({ token: 't1', refreshToken: 'r1' }), ui, language: () => 'en', timezoneOffset: () => 0 });
  return { client, sent, errors };
}

describe('http.call', () => {
  it('a GET: the path filled and encoded, the rest in the query (blanks left out)', async () => {
    const { client, sent } = setup();
    await client.call(TxnApi.detail, { id: 'GW/1 2' });
    await client.call(TxnApi.list, { page: 0, size: 10, merId: '', brands: ['visa', 'jcb'] });
    await client.call(TrailApi.proofRows, { id: '2026-01-05.1.CARD.SGD', line: 'fee', page: 0, size: 5 });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/txn/GW%2F1%202',
      'GET /api/txn/list?page=0&size=10&brands=visa%2Cjcb',
      'GET /api/trail/transfer/2026-01-05.1.CARD.SGD/proof/rows?line=fee&page=0&size=5',
    ]);
  });

  it('a POST: a url-encoded form by default, JSON where the descriptor says so, the path parameters out of the body', async () => {
    const { client, sent } = setup();
    await client.call(UsersApi.remove, { userId: 5 });
    await client.call(ViewsApi.update, { id: 3, name: 'Mine' });
    await client.call(BankrecApi.confirm, { id: 4 });
    await client.call(BankrecApi.confirmMany, { ids: [1, 2] });
    expect(sent.map((s) => [s.method, s.url, s.headers['Content-Type'], s.body])).toEqual([
      ['POST', '/api/user/remove', 'application/x-www-form-urlencoded;charset=UTF-8', 'userId=5'],
      ['POST', '/api/views/3/update', 'application/x-www-form-urlencoded;charset=UTF-8', 'name=Mine'],
      ['POST', '/api/bankrec/matches/4/confirm', 'application/json', '{}'],
      ['POST', '/api/bankrec/matches/confirm', 'application/json', '{"ids":[1,2]}'],
    ]);
  });

  it('a multipart upload: the form data as the body, the other fields in the query', async () => {
    const { client, sent } = setup();
    const fd = new FormData();
    fd.append('file', new Blob(['%PDF']), 'r.pdf');
    await client.call(DisputesApi.uploadEvidence, { id: 8, category: 'receipt', multipart: fd });
    expect(sent[0].url).toBe('/api/disputes/8/evidence?category=receipt');
    expect(sent[0].body).toBe(fd);
    expect(sent[0].headers['Content-Type']).toBeUndefined();
  });

  it('a download answers the file; an envelope instead is an error with its code and data', async () => {
    const file = setup(() => new Response('a,b', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="f.csv"' } }));
    const out = await file.client.call(FilesApi.download, { id: 2 });
    expect(out.filename).toBe('f.csv');
    expect(file.sent[0].url).toBe('/api/report/file/download/2');
    const queued = setup(() => new Response(JSON.stringify({ code: 0, msg: 'queued', data: { id: 9, status: 'PENDING' } }), { headers: { 'content-type': 'application/json' } }));
    await expect(queued.client.call(NoticeApi.attachment, { id: 1 }, { quiet: true })).rejects.toMatchObject({ code: 0, data: { id: 9 } });
  });

  it('the envelope when asked, the options passed on (quiet: no message)', async () => {
    const { client, errors } = setup(() => new Response(JSON.stringify({ code: 1001, msg: 'No such user', data: null }), { headers: { 'content-type': 'application/json' } }));
    await expect(client.call(WebhooksApi.rotate, { id: 1 }, { quiet: true })).rejects.toMatchObject({ code: 1001 });
    expect(errors).toEqual([]);
    await expect(client.call(WebhooksApi.rotate, { id: 1 })).rejects.toMatchObject({ code: 1001 });
    expect(errors).toEqual(['No such user']);
    const ok = setup();
    expect(await ok.client.callEnvelope(UsersApi.remove, { userId: 1 })).toEqual({ code: 0, msg: 'success', data: { ok: true } });
  });

  it('refuses a missing path parameter and an endpoint under another base', async () => {
    const { client, sent } = setup();
    await expect(client.call(TxnApi.detail, { id: '' })).rejects.toThrow(/no value for :id/);
    const ops = createClient({
      fetch: globalThis.fetch,
      tokens: memoryTokens(),
      ui: { showError() {}, showTransportError() {}, confirmLogout() {} },
      language: () => 'en',
      timezoneOffset: () => 0,
      baseUrl: '/api/ops',
    });
    await expect(ops.call(TxnApi.list, {})).rejects.toThrow(/not under \/api\/ops/);
    expect(sent).toEqual([]);
  });

  it('query keys come from the descriptor: its path under /api, then the input', () => {
    expect(endpointKey(TxnApi.list, { page: 0 })).toEqual(['txn', 'list', { page: 0 }]);
    expect(endpointKey(WebhooksApi.endpoints)).toEqual(['webhooks', 'endpoint', 'list']);
  });
});
