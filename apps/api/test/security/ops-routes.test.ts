import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, OPS_ROLES, pathParams, type OpsRole } from '@portal/contract';
import { OPS_ENDPOINTS } from '@portal/contract/endpoints/all';
import { createTestApp, DB_KINDS, type TestCtx } from '../helpers';
import { addOperator, opsLogin } from '../../src/modules/ops/ops.fixtures';
import { fillPath, opsRoutes, routeKey } from './route-table';
import { endpointOfRoute } from '../../src/lib/endpoint-route';

/**
 * The back office's route table (issue 26): every /api/ops/ route the app registers — collected
 * through the onRoute hook, so a route added tomorrow is covered — is called with no token, a
 * made-up token and a merchant user's token (401, as unknown), and by an operator of every role the
 * route does not list (403). Only the allow-listed routes are public.
 */
const PUBLIC_OPS_ROUTES: Record<string, string> = {
  'POST /api/ops/auth/login': 'operator sign-in: no token yet',
  'POST /api/ops/auth/refreshToken': 'the refresh token in the body is the credential',
  'POST /api/ops/auth/logout': 'ends the session of X-Token if there is one',
  'GET /api/ops/auth/activation': 'activation page: the single-use link token is the credential',
  'POST /api/ops/auth/activate': 'activation: the link token is the credential',
  'POST /api/ops/dev/addOperator': 'development only (never in production), loopback callers only: the CLI add-operator for the e2e run',
};

describe.each(DB_KINDS)('ops route table: realm and roles (%s)', (kind) => {
  let ctx: TestCtx;
  let routes: ReturnType<typeof opsRoutes>;
  let merchant: string;
  const tokens = {} as Record<OpsRole, string>;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    routes = opsRoutes(ctx.routes);
    for (const role of OPS_ROLES) {
      const name = `sec-${role}`;
      const o = await addOperator(ctx, name, role);
      tokens[role] = await opsLogin(ctx, name, o.secret);
    }
    merchant = (await ctx.login()).token;
  });
  afterAll(() => ctx?.close());

  it('collects the ops routes; only the allow-listed ones are public', () => {
    expect(routes.length).toBeGreaterThan(10);
    const open = routes
      .filter((r) => r.config?.opsRoles === 'public')
      .map(routeKey)
      .sort();
    expect(open).toEqual(Object.keys(PUBLIC_OPS_ROUTES).sort());
  });

  // The back office's part of the endpoint table (packages/contract/src/endpoints/ops.ts, decision 074):
  // one descriptor per route, the same method, path, path parameters and roles, both ways.
  it('every ops route has its descriptor in the endpoint table, with its roles, and every descriptor its route', () => {
    const rolesOf = (a: unknown) => (a === 'public' ? 'public' : [...((a as { opsRoles?: readonly string[] } | undefined)?.opsRoles ?? [])].sort().join(' | '));
    const table = new Map(OPS_ENDPOINTS.map((e) => [routeKey({ method: e.endpoint.method, url: e.endpoint.path }), e.endpoint]));
    expect(routes.filter((r) => !table.has(routeKey(r))).map(routeKey), 'ops routes without a descriptor').toEqual([]);
    const routeRoles = (r: (typeof routes)[number]) => (r.config?.opsRoles === 'public' ? 'public' : [...(r.config?.opsRoles ?? [])].sort().join(' | '));
    expect(routes.filter((r) => routeRoles(r) !== rolesOf(table.get(routeKey(r))!.access)).map(routeKey), 'roles differ').toEqual([]);
    const registered = new Map(routes.map((r) => [routeKey(r), r]));
    const keys = OPS_ENDPOINTS.map((e) => routeKey({ method: e.endpoint.method, url: e.endpoint.path }));
    expect(
      OPS_ENDPOINTS.filter((_, i) => !registered.has(keys[i])).map((e) => e.name),
      'descriptors without a route',
    ).toEqual([]);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    expect(OPS_ENDPOINTS.filter((e, i) => pathParams(e.endpoint.path).join() !== pathParams(registered.get(keys[i])!.url).join()).map((e) => e.name)).toEqual([]);
  });

  // Decision 074: every ops route is registered from its descriptor (routeOf marks its config), so
  // its method, path and roles are the table's and its schemas are tied to the descriptor's types.
  it('every ops route is registered from its descriptor (routeOf)', () => {
    expect(routes.filter((r) => !endpointOfRoute(r.config)).map(routeKey), 'ops routes registered without routeOf').toEqual([]);
    expect(
      routes.filter((r) => routeKey({ method: endpointOfRoute(r.config)!.method, url: endpointOfRoute(r.config)!.path }) !== routeKey(r)).map(routeKey),
      'ops routes whose descriptor names another method or path',
    ).toEqual([]);
    expect(routes.length).toBe(OPS_ENDPOINTS.length);
  });

  it('every other ops route: 401 with no token, a made-up token, and a merchant user’s token', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => !PUBLIC_OPS_ROUTES[routeKey(x)])) {
      const url = fillPath(r.url, () => '1');
      const none = await ctx.call({ method: r.method, url });
      if (none.status !== 401 || none.body.code !== Code.NOT_LOGGED_IN || none.body.data !== null) failures.push(`${routeKey(r)} no token → ${none.status}`);
      const fake = await ctx.call({ method: r.method, url, headers: { 'x-token': 'f'.repeat(43) } });
      if (fake.status !== 401 || fake.body.code !== Code.TOKEN_INVALID) failures.push(`${routeKey(r)} made-up → ${fake.status}`);
      const m = await ctx.call({ method: r.method, url, headers: { 'x-token': merchant } });
      if (m.status !== 401 || m.body.code !== Code.TOKEN_INVALID) failures.push(`${routeKey(r)} merchant token → ${m.status} ${m.body.code}`);
    }
    expect(failures).toEqual([]);
  });

  it('every ops route refuses (403) each operator role it does not list, before reading the input', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of routes.filter((x) => x.config?.opsRoles !== 'public')) {
      const allowed = (r.config?.opsRoles ?? []) as readonly string[];
      for (const role of OPS_ROLES) {
        if (role === 'administrator' || allowed.includes(role)) continue;
        checked++;
        const res = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1'), headers: { 'x-token': tokens[role] } });
        if (res.status !== 403 || res.body.code !== Code.FORBIDDEN) failures.push(`${routeKey(r)} ${role} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it("an operator's token is refused by every merchant route", async () => {
    const failures: string[] = [];
    const merchantRoutes = ctx.routes.filter(
      (r) =>
        r.url.startsWith('/api/') &&
        !r.url.startsWith('/api/ops/') &&
        !r.url.startsWith('/api/docs') &&
        !r.url.startsWith('/api/provider/docs') &&
        (r.config as { auth?: string } | undefined)?.auth !== 'public',
    );
    for (const r of merchantRoutes) {
      for (const m of ([] as string[]).concat(r.method)) {
        if (m === 'HEAD' || m === 'OPTIONS') continue;
        const res = await ctx.call({ method: m as 'GET', url: fillPath(r.url, () => '1'), headers: { 'x-token': tokens.administrator } });
        if (res.status !== 401) failures.push(`${m} ${r.url} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the development add-operator answers no caller from elsewhere, and does not exist in production', async () => {
    const far = await ctx.call({
      method: 'POST',
      url: '/api/ops/dev/addOperator',
      remoteAddress: '203.0.113.9',
      headers: { host: 'localhost' },
      payload: { username: 'far-away', email: 'far@provider.example' },
    });
    expect(far.status).toBe(404);
    const prod = await createTestApp({ kind, config: { env: 'production' } });
    try {
      const res = await prod.call({ method: 'POST', url: '/api/ops/dev/addOperator', headers: { host: 'localhost' }, payload: { username: 'prod-op', email: 'prod@provider.example' } });
      expect(res.status).toBe(404);
    } finally {
      await prod.close();
    }
  });

  it('the ops API is described in its own document, not in the merchant one', async () => {
    const ops = await ctx.call({ method: 'GET', url: '/api/ops/docs/json' });
    expect(ops.status).toBe(200);
    const paths = Object.keys((ops.body as unknown as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/api/ops/auth/login');
    expect(paths.every((p) => p.startsWith('/api/ops/'))).toBe(true);
    const merchantDoc = await ctx.call({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys((merchantDoc.body as unknown as { paths: Record<string, unknown> }).paths).some((p) => p.startsWith('/api/ops/'))).toBe(false);
  });
});
