import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../helpers';
import { fillPath, routeKey, scimRoutes, type ApiRoute } from './route-table';
import { entraUser, makeScimToken, scimClient } from '../../src/modules/scim/scim.fixtures';

/**
 * The route table of the SCIM face (issue 51): every /scim/v2 route the app registers — collected
 * through Fastify's onRoute hook, so a route added later is covered — is called
 *   - with no Authorization, a malformed one, a made-up token, a revoked token and a portal session
 *     (X-Token): 401 in the SCIM error format, nothing changed;
 *   - with another merchant group's token and the demo group's user and group ids: 404, as absent.
 */
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const EXPECTED = [
  'GET /scim/v2/ServiceProviderConfig',
  'GET /scim/v2/ResourceTypes',
  'GET /scim/v2/ResourceTypes/:id',
  'GET /scim/v2/Schemas',
  'GET /scim/v2/Schemas/:id',
  'GET /scim/v2/Users',
  'POST /scim/v2/Users',
  'GET /scim/v2/Users/:id',
  'PUT /scim/v2/Users/:id',
  'PATCH /scim/v2/Users/:id',
  'DELETE /scim/v2/Users/:id',
  'GET /scim/v2/Groups',
  'POST /scim/v2/Groups',
  'GET /scim/v2/Groups/:id',
  'PUT /scim/v2/Groups/:id',
  'PATCH /scim/v2/Groups/:id',
  'DELETE /scim/v2/Groups/:id',
];

describe.each(DB_KINDS)('route table: the SCIM face /scim/v2 (%s)', (kind) => {
  let ctx: TestCtx;
  let routes: ApiRoute[];
  let revoked: string;
  let portalToken: string;
  let otherToken: string;
  let userId: string;
  let groupId: string;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    routes = scimRoutes(ctx.routes);
    portalToken = (await ctx.login()).token;
    const scim = scimClient(ctx, await makeScimToken(ctx, portalToken));
    userId = (await scim('POST', '/Users', entraUser('table@contoso.example'))).body.id;
    groupId = (await scim('POST', '/Groups', { displayName: 'Table', members: [{ value: userId }] })).body.id;
    revoked = await makeScimToken(ctx, portalToken, 'to revoke');
    const id = (await ctx.db.query<{ id: number }>("SELECT id FROM scim_token WHERE name = 'to revoke'")).rows[0].id;
    await ctx.call({ method: 'POST', url: '/api/team/scim/tokens/revoke', headers: { 'x-token': portalToken }, payload: { id } });
    otherToken = await makeScimToken(ctx, (await ctx.login(DEMO.users.other)).token, 'other');
  }, 60_000);
  afterAll(() => ctx?.close());

  const snapshot = async () =>
    JSON.stringify((await ctx.db.query('SELECT s.*, u.status, u.username, u.permissions FROM scim_user s JOIN app_user u ON u.id = s.user_id ORDER BY s.user_id')).rows) +
    JSON.stringify((await ctx.db.query('SELECT * FROM scim_group_member ORDER BY 1, 2')).rows);

  it('registers exactly the SCIM routes of the table', () => {
    expect(routes.map(routeKey).sort()).toEqual([...EXPECTED].sort());
  });

  it('every route: 401 in the SCIM error format without a valid SCIM token; nothing changed', async () => {
    const before = await snapshot();
    const auths: Record<string, string>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: `Bearer scim_${'A'.repeat(12)}_${'b'.repeat(43)}` },
      { authorization: `Bearer ${revoked}` },
      { 'x-token': portalToken },
    ];
    for (const r of routes) {
      const url = fillPath(r.url, (p) => (p === 'id' ? (r.url.includes('Groups') ? groupId : userId) : 'x'));
      for (const headers of auths) {
        const res = await ctx.app.inject({
          method: r.method,
          url,
          headers: { ...headers, 'content-type': 'application/scim+json' },
          payload:
            r.method === 'GET' || r.method === 'DELETE' ? undefined : JSON.stringify({ userName: 'intruder@x.example', displayName: 'X', Operations: [{ op: 'replace', value: { active: false } }] }),
        });
        expect(res.statusCode, `${routeKey(r)} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toMatchObject({ schemas: [ERROR], status: '401' });
        expect(res.headers['content-type']).toContain('application/scim+json');
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it("every route with an id: another merchant group's token answers 404 for the demo group's user and group; nothing changed", async () => {
    const before = await snapshot();
    const other = scimClient(ctx, otherToken);
    for (const r of routes.filter((x) => x.url.includes('/Users/:id') || x.url.includes('/Groups/:id'))) {
      const url = fillPath(r.url, () => (r.url.includes('Groups') ? groupId : userId)).replace('/scim/v2', '');
      const body =
        r.method === 'PATCH'
          ? { Operations: [{ op: 'replace', value: r.url.includes('Groups') ? { displayName: 'Taken' } : { active: false, displayName: 'Taken' } }] }
          : r.method === 'PUT'
            ? r.url.includes('Groups')
              ? { displayName: 'Taken', members: [] }
              : entraUser('table@contoso.example', { active: false })
            : undefined;
      const res = await other(r.method, url, body);
      expect(res.status, routeKey(r)).toBe(404);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '404' });
    }
    // The lists do not show them either.
    expect((await other('GET', '/Users')).body.totalResults).toBe(0);
    expect((await other('GET', '/Groups')).body.totalResults).toBe(0);
    expect(await snapshot()).toBe(before);
  });
});
