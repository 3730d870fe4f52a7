import type { z } from 'zod';
import { WEBHOOK_EVENTS } from '@portal/contract';
import { API_VERSIONS } from '../apikey';
import type { WebhookEventDef } from '../contract';
import { v1Registry } from './v1.registry';
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
 * closeReason and emailStatus). Applied to every schema of the document, recursively. Since the
 * document is OpenAPI 3.1 (decision 079: its `webhooks`) zod writes null as a type of its own and
 * no `nullable` is left; this stays for a schema written by hand the 3.0 way.
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

const header = (name: string, description: string) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description });
/** The headers of every delivery (webhook.deliver.ts): the signature headers of the endpoint's scheme, and the event's own. */
const DELIVERY_HEADERS = [
  header(
    'Portal-Signature',
    'signature_scheme stripe (the default): t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint\'s secret>[,v1=… with the previous secret while it still signs]',
  ),
  header('webhook-id', 'signature_scheme standard (Standard Webhooks): the event id (evt_…)'),
  header('webhook-timestamp', 'signature_scheme standard: Unix seconds'),
  header(
    'webhook-signature',
    'signature_scheme standard: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" with the base64 part of the secret after whsec_> (space-separated, one per secret)',
  ),
  header('Portal-Event-Id', 'the event id (evt_…): the same on every retry and resend — deduplicate on it'),
  header('Portal-Event-Type', 'the event type'),
  header('Portal-Delivery-Attempt', 'the attempt number of this delivery, from 1'),
];

/** The id a schema is written under in the document (it must be named: `named`, or `webhookEvent` for an event). */
function refOf(schema: unknown, where: string): Json {
  const id = v1Registry.get(schema as z.ZodType)?.id;
  if (!id) throw new Error(`${where}: the schema is not named in the /v1 registry`);
  return { $ref: `#/components/schemas/${id}` };
}

/**
 * The document's OpenAPI 3.1 `webhooks` (issue 45 §3, decision 079): one entry per event type the
 * modules declare, the body the endpoint's version is sent — the 2026-12-03 form, or the first form
 * an endpoint of an older version gets — and the delivery's headers; any 2xx answer is taken as
 * received, anything else (or no answer within 10 s) is retried with backoff for 3 days.
 */
export function documentWebhooks(defs: readonly WebhookEventDef[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  const order = (t: string) => (WEBHOOK_EVENTS as readonly string[]).indexOf(t);
  for (const d of [...defs].sort((a, b) => order(a.type) - order(b.type))) {
    out[d.type] = {
      post: {
        operationId: `webhook_${d.type.replace(/\./g, '_')}`,
        tags: ['events'],
        summary: d.type,
        description: `${d.description}. The body is in the endpoint's api_version: from 2026-12-03 the first schema, before it the second (created in Unix seconds, the first id forms). Also listed by GET /v1/events (30 days).`,
        parameters: DELIVERY_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { oneOf: [refOf(d.payload['2026-12-03'], d.type), refOf(d.payload['2026-12-01'], d.type)] } } },
        },
        responses: {
          '200': { description: 'Any 2xx: received (the delivery succeeded)' },
          '400': { description: 'Any other answer, or none within 10 s: retried with backoff (1 min, 2, 4 … at most 12 h) for 3 days, then the endpoint is disabled' },
        },
      },
    };
  }
  return out;
}
