import type { TestCtx } from '../../../test/helpers';

/** Test helpers of SCIM: a token made through the screen's route, and SCIM calls as an IdP makes them. */
export async function makeScimToken(ctx: TestCtx, portalToken: string, name = 'Entra ID'): Promise<string> {
  const r = await ctx.call({ method: 'POST', url: '/api/team/scim/tokens/create', headers: { 'x-token': portalToken }, payload: { name } });
  if (r.body.code !== 0) throw new Error(`token: ${r.body.msg}`);
  return r.body.data.secret as string;
}

export function scimClient(ctx: TestCtx, token: string) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await ctx.app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}), ...headers },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? (res.json() as any) : null, headers: res.headers };
  };
}

/** A user as Entra ID's provisioning first creates it. */
export const entraUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: `ext-${userName}`,
  userName,
  active: true,
  displayName: 'Jane Doe',
  emails: [{ primary: true, type: 'work', value: userName }],
  name: { formatted: 'Jane Doe', familyName: 'Doe', givenName: 'Jane' },
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Finance' },
  ...extra,
});
