import { API_VERSIONS } from '../apikey';
import { ERROR_DESCRIPTIONS } from './v1.errors';

/**
 * What a /v1 route declares in `config.v1` (issue 50: the face's shared mechanisms, picked up by
 * declaring them — see docs/merchant-api.md "Adding a /v1 route"):
 * - `permission` the key must carry, `tag` of the operation in /v1/docs;
 * - `errors`: answers beyond 400/401/403/404/429/500 (e.g. 409, 422), documented with the Error schema;
 * - `idempotent`: the `Idempotency-Key` header is required and documented; the first answer is
 *   stored for 24 hours and replayed (`Idempotent-Replayed: true`) — every POST sets it;
 * - `file`: the content types of a file answer (documented as a string of that media type).
 */
export interface V1RouteConfig {
  permission: string;
  tag: string;
  errors?: number[];
  idempotent?: boolean;
  file?: string[];
}

/** The pattern of an `Idempotency-Key` (also checked by the face's hook). */
export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9_-]{8,64}$/;

type Json = Record<string, unknown>;

/**
 * A nullable enum lists null among its values (OpenAPI 3.0.3: `nullable` does not widen `enum`, so
 * a validator refuses a null answer otherwise — the mismatch issue 50's developer met on
 * closeReason and emailStatus). Applied to every schema of the document, recursively.
 */
export function nullableEnums<T>(s: T): T {
  if (Array.isArray(s)) return s.map(nullableEnums) as T;
  if (!s || typeof s !== 'object') return s;
  const o: Json = {};
  for (const [k, v] of Object.entries(s as Json)) o[k] = nullableEnums(v);
  if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  return o as T;
}

const int = (description: string) => ({ type: 'integer', description });
/** Headers on every answer a key got through (its rate limit was counted). */
const COMMON_HEADERS: Json = {
  'X-Request-Id': { type: 'string', description: "this request's id (also the error's request_id): quote it to support" },
  'RateLimit-Limit': int("the key's requests per minute"),
  'RateLimit-Remaining': int('requests left in this minute'),
  'RateLimit-Reset': int('seconds until the minute ends'),
  'Portal-Version': { type: 'string', enum: [...API_VERSIONS], description: "the API version this answer is in (the request's Portal-Version, else the key's pinned version)" },
};
const REQUEST_ID: Json = { 'X-Request-Id': COMMON_HEADERS['X-Request-Id'] };
const RETRY_AFTER: Json = { 'Retry-After': int('seconds to wait before trying again') };
const REPLAYED: Json = { 'Idempotent-Replayed': { type: 'string', enum: ['true'], description: 'present on a replay: the stored first answer of this Idempotency-Key' } };
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * Finishes one /v1 operation of the document (issue 50), from what its route declares in
 * `config.v1`: its tag; each answer's content (JSON, or the file's media types) and headers
 * (`X-Request-Id`, `RateLimit-*`, `Retry-After` on 429, `Idempotent-Replayed` on an idempotent
 * operation's success); the error answers it can give, each the named `Error` schema; and the
 * required `Idempotency-Key` header of an idempotent operation.
 */
export function documentOperation<T extends { schema: unknown }>(out: T, v1: V1RouteConfig | undefined): T {
  const schema = out.schema as Json & { response?: Record<string, Json>; headers?: Json };
  if (!v1) return out;
  const response: Record<string, Json> = {};
  const okHeaders = v1.idempotent ? { ...COMMON_HEADERS, ...REPLAYED } : COMMON_HEADERS;
  for (const [code, s] of Object.entries(schema.response ?? {})) {
    const { description, ...body } = s as Json & { description?: string };
    response[code] = { description: description ?? (code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK'), headers: okHeaders, content: { 'application/json': { schema: body } } };
  }
  if (v1.file) {
    response[200] = {
      description: 'The file',
      headers: { ...COMMON_HEADERS, 'Content-Disposition': { type: 'string', description: 'attachment; filename=…' } },
      content: Object.fromEntries(v1.file.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
    };
  }
  for (const s of [400, 401, 403, 404, 429, 500, ...(v1.errors ?? [])]) {
    const headers = s === 401 ? REQUEST_ID : s === 429 ? { ...REQUEST_ID, ...RETRY_AFTER } : COMMON_HEADERS;
    response[s] = { description: ERROR_DESCRIPTIONS[s], headers, content: { 'application/json': { schema: ERROR_REF } } };
  }
  // Every operation takes Portal-Version (issue 50); an idempotent one requires Idempotency-Key.
  const h = (schema.headers ?? { type: 'object', properties: {} }) as Json & { properties: Json; required?: string[] };
  const versioned = {
    ...h.properties,
    'Portal-Version': {
      type: 'string',
      enum: [...API_VERSIONS],
      description:
        "the API version to answer in for this call (a date; see the changelog in docs/merchant-api.md); default: the key's, pinned at its creation. Another value answers 400 version_invalid",
    },
  };
  let headers: Json = { ...h, properties: versioned };
  if (v1.idempotent) {
    headers = {
      ...h,
      properties: {
        ...versioned,
        'Idempotency-Key': {
          type: 'string',
          pattern: IDEMPOTENCY_KEY_RE.source,
          description:
            'required: 8–64 letters, digits, "-" or "_". The first answer is kept 24 hours: a repeat with the same body answers it again (Idempotent-Replayed: true); with another body 409 idempotency_error',
        },
      },
      required: [...(h.required ?? []), 'Idempotency-Key'],
    };
  }
  return { ...out, schema: nullableEnums({ ...schema, tags: [v1.tag], response, headers }) };
}
