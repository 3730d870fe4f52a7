import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthApi, NoticeApi, OpsApi, OpsWorkApi, SsoApi, TeamApi, ViewsApi } from '@portal/contract';
import { answerOf, endpointOfRoute, FROM_ENDPOINT, inputOf, routeOf } from './endpoint-route';

/** A route config without routeOf's mark: the access as the auth plugins read it. */
const access = (c: ReturnType<typeof routeOf>['config']) => {
  const { [FROM_ENDPOINT]: _mark, ...rest } = c;
  return rest;
};

describe('routeOf: a route from its descriptor (decision 074)', () => {
  it('takes method and path, and writes the access as the auth plugins read it', () => {
    expect(routeOf(NoticeApi.list)).toEqual({ method: 'GET', url: '/api/notice/list', config: { permission: 'notice:list', [FROM_ENDPOINT]: NoticeApi.list } });
    expect(access(routeOf(TeamApi.approve).config)).toEqual({ permission: ['txn:detail:refund', 'merchant:user:manage', 'merchant:bank:change'] });
    expect(access(routeOf(ViewsApi.list).config)).toEqual({});
    expect(access(routeOf(AuthApi.login).config)).toEqual({ auth: 'public' });
    expect(access(routeOf(SsoApi.start, { rateLimit: { max: 30, timeWindow: '1 minute' } }).config)).toEqual({ auth: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } });
    // The back office's realm: its roles, and its public routes as opsRoles 'public'.
    expect(access(routeOf(OpsWorkApi.rates).config)).toEqual({ opsRoles: ['onboarding', 'risk', 'support', 'read-only'] });
    expect(access(routeOf(OpsApi.login).config)).toEqual({ opsRoles: 'public' });
  });

  it('marks the config with its descriptor: Fastify’s copy keeps it, a hand-written config has none (the route-table suites count it)', () => {
    const { config } = routeOf(TeamApi.approve);
    expect(endpointOfRoute(config)).toBe(TeamApi.approve);
    expect(endpointOfRoute({ ...config, url: '/api/approval/approve', method: 'POST' })).toBe(TeamApi.approve);
    expect(endpointOfRoute({ permission: 'notice:list' })).toBeUndefined();
    expect(endpointOfRoute(undefined)).toBeUndefined();
    // Not seen by what reads or prints the config.
    expect(Object.keys(config)).toEqual(['permission']);
    expect(JSON.stringify(config)).not.toContain('approve');
  });

  it('inputOf and answerOf hand the schema back unchanged (their check is at compile time)', () => {
    const s = z.object({ page: z.coerce.number(), size: z.coerce.number() });
    expect(inputOf(NoticeApi.list)(s)).toBe(s);
    const out = z.null();
    expect(answerOf(ViewsApi.remove)(out)).toBe(out);
  });
});
