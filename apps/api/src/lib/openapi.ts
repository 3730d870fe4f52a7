import type { RouteOptions } from 'fastify';

/**
 * The portal document's (/api/docs) finishing touches, applied to every route as @fastify/swagger
 * builds it (issue 31: a document SDK generators and `redocly lint` accept):
 * - an operationId derived from the method and the path (`GET /api/txn/:id` → `getTxnById`), unless
 *   the route names its own;
 * - the error answers the route can give, documented with the envelope (`data` null): 400 bad input,
 *   401 not signed in (routes behind the sign-in), 403 without the permission, 404 (routes with an id
 *   in the path), 429 (rate-limited routes);
 * - a 200 for routes that declare no answer schema (files, pages), described as such;
 * - `nullable` beside a union (zod's `.nullable()` on a union, e.g. the envelope's `data`) pushed into
 *   each member, which has a type — OpenAPI 3.0 reads `nullable` only beside `type`.
 * The provider's (/api/provider/docs) and the back office's (/api/ops/docs) documents get the same
 * touches (issue 46), each telling which of its routes need a caller and which can refuse one
 * (`DocAuth`): signed gateway requests there, operator roles here.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `by-${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  const camel = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  // Pages outside the APIs (the development mailbox) apart from the API call of the same name.
  return `${method.toLowerCase()}${camel}${/^\/(?:api|provider)\//.test(url) ? '' : 'Page'}`;
}

type Json = Record<string, unknown>;

/** `{nullable, anyOf: [A, B]}` → `{anyOf: [A?, B?]}` (each member nullable), recursively; other schemas as they are. */
export function fixNullable(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(fixNullable);
  if (!s || typeof s !== 'object') return s;
  const o: Json = {};
  for (const [k, v] of Object.entries(s as Json)) o[k] = fixNullable(v);
  const union = (o.anyOf ?? o.oneOf) as Json[] | undefined;
  if (o.nullable === true && o.type === undefined && Array.isArray(union)) {
    const key = o.anyOf ? 'anyOf' : 'oneOf';
    const { nullable: _n, ...rest } = o;
    return { ...rest, [key]: union.map((m) => fixNullable({ ...m, nullable: true })) };
  }
  return o;
}

const envelopeError = (description: string) => ({
  description,
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'number', description: 'the error code (spec §8)' },
    msg: { type: 'string', description: "in the caller's language (Accept-Language)" },
    data: { type: 'object', nullable: true, description: 'null, or details of the refusal' },
  },
});

/**
 * Which answers a document's routes can give besides 400 / 404 / 429: `unauthenticated` the 401's
 * text when the route needs a caller (null: it needs none), `forbidden` the 403's when the caller
 * may lack the right (null: never). The default is the merchant portal's: signed-in `/api/` routes
 * unless `auth: 'public'`, 403 for routes with a `permission`.
 */
export interface DocAuth {
  unauthenticated(route: RouteOptions | undefined, url: string): string | null;
  forbidden(route: RouteOptions | undefined): string | null;
}

const PORTAL_AUTH: DocAuth = {
  unauthenticated: (route, url) =>
    (route?.config as { auth?: string } | undefined)?.auth !== 'public' && url.startsWith('/api/') ? 'Not signed in, or the session ended (codes -1, 3, 50012, 50014)' : null,
  forbidden: (route) => ((route?.config as { permission?: unknown } | undefined)?.permission ? 'The signed-in user lacks the permission (code 403)' : null),
};

/**
 * Faces with a document of their own, registered in the portal's context (so the portal's swagger
 * sees their routes too): left out of the portal's document. Issue 51: the SCIM face (/scim/v2/docs).
 */
export const OWN_DOCUMENT_PREFIXES = ['/scim/v2/'] as const;

/** Wraps a swagger transform (jsonSchemaTransform) with the touches above. */
export function portalDocTransform<A extends { schema: unknown; url: string; route?: RouteOptions }, R extends { schema: unknown; url: string }>(inner: (a: A) => R, docAuth: DocAuth = PORTAL_AUTH) {
  return (arg: A): R => {
    if (docAuth === PORTAL_AUTH && OWN_DOCUMENT_PREFIXES.some((p) => arg.url.startsWith(p))) return { ...arg, schema: { hide: true } } as unknown as R;
    const out = inner(arg);
    const schema = (out.schema ?? {}) as Json & { response?: Json; operationId?: string };
    const route = arg.route;
    const method = ([] as string[]).concat(route?.method ?? 'GET')[0];
    const config = (route?.config ?? {}) as { rateLimit?: unknown };
    const response: Json = { ...schema.response };
    const add = (status: number, text: string) => {
      if (!(status in response)) response[status] = envelopeError(text);
    };
    if (!Object.keys(response).some((k) => k.startsWith('2'))) response[200] = { description: 'The answer: a file or page (see the summary)' };
    add(400, 'Invalid input: code 400, msg names the field');
    const unauthenticated = docAuth.unauthenticated(route, out.url);
    if (unauthenticated) add(401, unauthenticated);
    const forbidden = docAuth.forbidden(route);
    if (forbidden) add(403, forbidden);
    if (out.url.includes(':')) add(404, "Not found — also another merchant's record (code 404)");
    if (config.rateLimit) add(429, 'Too many requests (code 429)');
    return {
      ...out,
      schema: fixNullable({ ...schema, operationId: schema.operationId ?? operationIdOf(method, out.url), response }),
    } as R;
  };
}
