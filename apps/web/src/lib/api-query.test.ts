import { describe, expect, it, vi } from 'vitest';
import { OpsMerchantsApi, OpsWorkApi, TeamApi, TxnApi, endpointKey } from '@portal/contract';
import { apiKey, apiQuery, areaKey, clientQuery, ofEndpoints } from './api-query';
import { matched } from './matched-queries.testing';

describe('lib/api-query', () => {
  it('apiQuery: the key is the descriptor key with the input', () => {
    expect(apiQuery(TxnApi.detail, { id: '7' }).queryKey).toEqual(['txn', ':id', { id: '7' }]);
    expect(apiQuery(TxnApi.list, { page: 0 }).queryKey).toEqual(endpointKey(TxnApi.list, { page: 0 }));
    expect(apiKey(TxnApi.list)).toEqual(['txn', 'list']);
  });

  it('clientQuery calls through the client it is given, with the input, quiet and the signal', async () => {
    const call = vi.fn(async () => ({ content: [] }));
    const q = clientQuery({ call } as never, OpsMerchantsApi.list, { size: 100 }, { quiet: true });
    expect(q.queryKey).toEqual(['ops', 'merchants', { size: 100 }]);
    const signal = new AbortController().signal;
    await (q.queryFn as (c: { signal: AbortSignal }) => Promise<unknown>)({ signal });
    expect(call).toHaveBeenCalledWith(OpsMerchantsApi.list, { size: 100 }, { quiet: true, signal });
  });

  it('areaKey: a prefix of a descriptor key, of the depth asked; none deeper than the path', () => {
    expect(areaKey(TxnApi.list)).toEqual(['txn']);
    expect(areaKey(OpsMerchantsApi.list)).toEqual(['ops']);
    expect(areaKey(OpsWorkApi.disputes, 2)).toEqual(['ops', 'disputes']);
    expect(areaKey(TeamApi.review, 2)).toEqual(['access', 'review']);
    expect(() => areaKey(TxnApi.list, 3)).toThrow(/no prefix of depth 3/);
    expect(() => areaKey(TxnApi.list, 0)).toThrow();
    // As an invalidation: the area's queries, whatever their input, and no other area's.
    const keys = [apiQuery(TxnApi.list, { page: 0 }).queryKey, apiQuery(TxnApi.detail, { id: '1' }).queryKey, apiQuery(TeamApi.roles, undefined).queryKey];
    expect(matched({ queryKey: areaKey(TxnApi.list) }, keys)).toEqual(keys.slice(0, 2));
  });

  it('ofEndpoints: the queries of these endpoints, with or without input, and not of a longer path beneath one', () => {
    const review = apiQuery(TeamApi.review, { merId: 'm' }).queryKey;
    const history = apiQuery(TeamApi.reviewHistory, { merId: 'm', page: 0, size: 10 }).queryKey;
    const record = apiQuery(TeamApi.reviewRecord, { id: 3 }).queryKey;
    const roles = apiQuery(TeamApi.roles, undefined).queryKey;
    const keys = [review, history, record, roles];
    expect(matched({ predicate: ofEndpoints(TeamApi.review, TeamApi.roles) }, keys)).toEqual([review, roles]);
    expect(matched({ predicate: ofEndpoints(TeamApi.reviewHistory) }, keys)).toEqual([history]);
    // apiKey(TeamApi.review), a prefix, would take the history and the record too.
    expect(matched({ queryKey: apiKey(TeamApi.review) }, keys)).toEqual([review, history, record]);
    expect(matched({ predicate: ofEndpoints() }, keys)).toEqual([]);
  });
});
