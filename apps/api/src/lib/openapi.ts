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
  // Pages outside /api (the development mailbox) apart from the API call of the same name.
  return `${method.toLowerCase()}${camel}${url.startsWith('/api/') ? '' : 'Page'}`;
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

/** Wraps a swagger transform (jsonSchemaTransform) with the touches above. */
export function portalDocTransform<A extends { schema: unknown; url: string; route?: RouteOptions }, R extends { schema: unknown; url: string }>(inner: (a: A) => R) {
  return (arg: A): R => {
    const out = inner(arg);
    const schema = (out.schema ?? {}) as Json & { response?: Json; operationId?: string };
    const route = arg.route;
    const method = ([] as string[]).concat(route?.method ?? 'GET')[0];
    const config = (route?.config ?? {}) as { auth?: string; permission?: unknown; rateLimit?: unknown };
    const response: Json = { ...schema.response };
    const add = (status: number, text: string) => {
      if (!(status in response)) response[status] = envelopeError(text);
    };
    if (!Object.keys(response).some((k) => k.startsWith('2'))) response[200] = { description: 'The answer: a file or page (see the summary)' };
    add(400, 'Invalid input: code 400, msg names the field');
    if (config.auth !== 'public' && out.url.startsWith('/api/')) add(401, 'Not signed in, or the session ended (codes -1, 3, 50012, 50014)');
    if (config.permission) add(403, 'The signed-in user lacks the permission (code 403)');
    if (out.url.includes(':')) add(404, "Not found — also another merchant's record (code 404)");
    if (config.rateLimit) add(429, 'Too many requests (code 429)');
    return {
      ...out,
      schema: fixNullable({ ...schema, operationId: schema.operationId ?? operationIdOf(method, out.url), response }),
    } as R;
  };
}
