import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthApi, NoticeApi, OpsApi, OpsWorkApi, SsoApi, TeamApi, ViewsApi } from '@portal/contract';
import { answerOf, inputOf, routeOf } from './endpoint-route';

describe('routeOf: a route from its descriptor (decision 074)', () => {
  it('takes method and path, and writes the access as the auth plugins read it', () => {
    expect(routeOf(NoticeApi.list)).toEqual({ method: 'GET', url: '/api/notice/list', config: { permission: 'notice:list' } });
    expect(routeOf(TeamApi.approve).config).toEqual({ permission: ['txn:detail:refund', 'merchant:user:manage', 'merchant:bank:change'] });
    expect(routeOf(ViewsApi.list).config).toEqual({});
    expect(routeOf(AuthApi.login).config).toEqual({ auth: 'public' });
    expect(routeOf(SsoApi.start, { rateLimit: { max: 30, timeWindow: '1 minute' } }).config).toEqual({ auth: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } });
    // The back office's realm: its roles, and its public routes as opsRoles 'public'.
    expect(routeOf(OpsWorkApi.rates).config).toEqual({ opsRoles: ['onboarding', 'risk', 'support', 'read-only'] });
    expect(routeOf(OpsApi.login).config).toEqual({ opsRoles: 'public' });
  });

  it('inputOf and answerOf hand the schema back unchanged (their check is at compile time)', () => {
    const s = z.object({ page: z.coerce.number(), size: z.coerce.number() });
    expect(inputOf(NoticeApi.list)(s)).toBe(s);
    const out = z.null();
    expect(answerOf(ViewsApi.remove)(out)).toBe(out);
  });
});
