import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, OPS_ENDPOINTS } from './all';
import { endpointKey, fillEndpoint, pathParams } from './endpoint';
import { DisputesApi, TxnApi } from './index';

describe('endpoint descriptors (decision 074)', () => {
  it('fill the path from the input by name, encoded, and leave the rest', () => {
    expect(fillEndpoint(DisputesApi.removeEvidence, { id: 3, evidenceId: 'a/b', note: 'x' })).toEqual({ path: '/api/disputes/3/evidence/a%2Fb/delete', rest: { note: 'x' } });
    expect(() => fillEndpoint(TxnApi.detail, { id: undefined })).toThrow(/no value for :id/);
    expect(pathParams('/api/disputes/:id/evidence/:evidenceId')).toEqual(['id', 'evidenceId']);
  });

  it('give query keys from the path under /api', () => {
    expect(endpointKey(TxnApi.list)).toEqual(['txn', 'list']);
    expect(endpointKey(DisputesApi.detail, { id: 1 })).toEqual(['disputes', ':id', { id: 1 }]);
  });

  it('are plain data: no zod value, a GET travels in the query, every path under its face', () => {
    for (const { name, endpoint: e } of [...ALL_ENDPOINTS, ...OPS_ENDPOINTS]) {
      expect(JSON.parse(JSON.stringify(e)), name).toEqual(e);
      expect(e.method === 'GET', name).toBe(e.body === 'query');
      expect(e.path, name).toMatch(/^\/api\//);
    }
    expect(OPS_ENDPOINTS.every((e) => e.endpoint.path.startsWith('/api/ops/'))).toBe(true);
    expect(ALL_ENDPOINTS.some((e) => e.endpoint.path.startsWith('/api/ops/'))).toBe(false);
  });
});
