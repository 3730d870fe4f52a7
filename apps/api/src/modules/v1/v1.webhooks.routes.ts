import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, WEBHOOK_ALL_EVENTS, WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_SCHEMES, WEBHOOK_URL_MAX } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { API_VERSIONS, keyAsUser } from '../apikey';
import { createEndpoint, deleteEndpoint, eventRowId, getEndpoint, getEvent, listEndpoints, listEvents, setEnabled, updateEndpoint, type DeliveredEvent, type VersionedEndpoint } from '../webhook';
import { V1Error } from './v1.errors';
import { keyOf, narrowScope } from './v1.txn.routes';
import { named } from './v1.registry';

const EVENT_TYPES = [...WEBHOOK_EVENTS] as [string, ...string[]];

/** An event: the very JSON body a webhook delivery carries (docs/webhooks.md). */
export const eventSchema = named(
  z.object({
    id: z.string().describe('evt_…: the same on every delivery, retry and resend (webhook-id / Portal-Event-Id)'),
    type: z.string().describe(`one of ${WEBHOOK_EVENTS.join(', ')}`),
    created: z.number().int().optional().describe('before Portal-Version 2026-12-03: when it happened, Unix seconds (UTC)'),
    created_at: z.string().optional().describe('from Portal-Version 2026-12-03: when it happened, ISO-8601 UTC'),
    merId: z.string().describe('the merchant it is about'),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        "the object's fields at the event (amounts as decimal strings of data.currency). From Portal-Version 2026-12-03: id is the object's /v1 id and every time is ISO-8601 UTC (docs/webhooks.md)",
      ),
  }),
  'Event',
  'A change a merchant is told about: delivered by webhooks and listed by GET /v1/events (kept 30 days)',
);
const eventList = named(
  z.object({ data: z.array(eventSchema), has_more: z.boolean(), next_cursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page') }),
  'EventList',
);

const endpointSchema = named(
  z.object({
    id: z.number().int(),
    merchant_id: z.string(),
    url: z.string(),
    description: z.string(),
    enabled_events: z.array(z.string()).describe('event types, or ["*"]: every event'),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.enum(['user', 'failing']).nullable().describe('user: turned off; failing: 3 days of failed deliveries'),
    signature_scheme: z.enum(WEBHOOK_SIGNATURE_SCHEMES).describe('stripe: Portal-Signature (t=…,v1=<hex>); standard: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)'),
    previous_secret_until: z.string().nullable().describe('ISO-8601 UTC: until then the secret before the last rotation signs too'),
    created_at: z.string().describe('ISO-8601, UTC'),
    api_version: z.string().describe('the API version its events are sent in (pinned at creation; docs/webhooks.md)'),
  }),
  'WebhookEndpoint',
  'Where a merchant receives its events',
);
const endpointWithSecret = named(endpointSchema.extend({ secret: z.string().describe('whsec_…: shown once, at creation') }), 'WebhookEndpointWithSecret');
const endpointList = named(z.object({ data: z.array(endpointSchema), has_more: z.boolean(), next_cursor: z.string().nullable() }), 'WebhookEndpointList');

const toV1Endpoint = (e: VersionedEndpoint) => ({
  id: e.id,
  merchant_id: e.merId,
  url: e.url,
  description: e.description,
  enabled_events: e.events,
  status: e.enabled ? ('enabled' as const) : ('disabled' as const),
  disabled_reason: e.disabledReason,
  signature_scheme: e.signatureScheme,
  previous_secret_until: e.previousSecretUntil,
  created_at: e.createdAt,
  api_version: e.apiVersion,
});

const eventsInput = z
  .array(z.enum([...EVENT_TYPES, WEBHOOK_ALL_EVENTS] as [string, ...string[]]))
  .min(1)
  .max(WEBHOOK_EVENTS.length + 1)
  .describe('event types, or ["*"] for every event');
const urlInput = z.string().trim().min(1).max(WEBHOOK_URL_MAX).describe('http(s) URL without user name or password (https only in production)');
const createBody = z.strictObject({
  url: urlInput,
  enabled_events: eventsInput,
  description: z.string().trim().max(200).optional(),
  merchant_id: z
    .string()
    .regex(/^\d{15}$/)
    .optional()
    .describe("the merchant (one of the key's); default: the key's own merchant, or its only one"),
  signature_scheme: z.enum(WEBHOOK_SIGNATURE_SCHEMES).default('stripe').describe('chosen at creation'),
  api_version: z.enum(API_VERSIONS).optional().describe("the API version its events are sent in, pinned at creation; default: the request's version (its Portal-Version, else the key's)"),
});
const updateBody = z.strictObject({
  url: urlInput.optional(),
  enabled_events: eventsInput.optional(),
  description: z.string().trim().max(200).optional(),
  disabled: z.boolean().optional().describe('true turns it off, false on again'),
});
const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const encodeCursor = (id: string) => Buffer.from(id).toString('base64url');
const eventsQuery = z.strictObject({
  type: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]*)?$/)
    .max(60)
    .optional()
    .describe('one event type (refund.succeeded), or a prefix ending in "." (refund.)'),
  merId: z
    .string()
    .regex(/^\d{15}$/)
    .optional()
    .describe("one of the key's merchants; another merchant's id matches nothing"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z
    .string()
    .trim()
    .max(80)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
});
const listQuery = z.strictObject({
  merId: z
    .string()
    .regex(/^\d{15}$/)
    .optional(),
});

/**
 * Events to pull and webhook endpoints by API (issue 50): the webhook module's services, with the
 * key acting as its creator (cut to the key's merchants and permissions). Both need the key
 * permission developer:webhooks; another merchant's endpoint or event answers 404.
 */
export function v1WebhookRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];
  const userOf = (req: FastifyRequest) => keyAsUser(keyOf(req), deps.clock.now());
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
  const missing = (param = 'id') => new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, param);
  const own = async (req: FastifyRequest, id: number) => {
    try {
      return await getEndpoint(deps, userOf(req), id);
    } catch {
      throw missing();
    }
  };

  r.get('/events', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'events' } },
    schema: {
      tags: hidden,
      operationId: 'listEvents',
      summary: "The key's merchants' events of the last 30 days, newest first (cursor paging; filter by type or prefix)",
      description:
        'The same objects the webhooks deliver (and with the same ids): a merchant who missed deliveries catches up here. Events are recorded for every merchant with an API key or a webhook endpoint.',
      querystring: eventsQuery,
      response: { 200: eventList },
    },
    handler: async (req) => {
      const scope = narrowScope(keyOf(req).scope, req.query.merId);
      if (!scope.length) return { data: [], has_more: false, next_cursor: null };
      let after: number | undefined;
      if (req.query.cursor) {
        const id = Buffer.from(req.query.cursor, 'base64url').toString();
        const row = /^evt_[a-f0-9]{32}$/.test(id) ? await eventRowId(deps, scope, id) : null;
        if (row === null) throw new V1Error(400, 'invalid_request_error', 'cursor_invalid', 'v1CursorInvalid', {}, 'cursor');
        after = row;
      }
      const rows = await listEvents(deps, scope, { type: req.query.type, limit: req.query.limit, after, version: req.apiVersion });
      const more = rows.length > req.query.limit;
      const data: DeliveredEvent[] = rows.slice(0, req.query.limit).map((x) => x.event);
      return { data, has_more: more, next_cursor: more ? encodeCursor(data[data.length - 1].id) : null };
    },
  });

  r.get('/events/:id', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'events' } },
    schema: { tags: hidden, operationId: 'getEvent', summary: 'One event (evt_…)', params: z.strictObject({ id: z.string().max(64) }), response: { 200: eventSchema } },
    handler: async (req) => {
      try {
        return await getEvent(deps, keyOf(req).scope, req.params.id, req.apiVersion);
      } catch {
        throw missing();
      }
    },
  });

  r.get('/webhook_endpoints', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'webhook-endpoints' } },
    schema: {
      tags: hidden,
      operationId: 'listWebhookEndpoints',
      summary: "The key's merchants' webhook endpoints (at most 16 each: one page)",
      querystring: listQuery,
      response: { 200: endpointList },
    },
    handler: async (req) => {
      const scope = narrowScope(keyOf(req).scope, req.query.merId);
      const list = scope.length ? await listEndpoints(deps, scope) : [];
      return { data: list.map(toV1Endpoint), has_more: false, next_cursor: null };
    },
  });

  r.post('/webhook_endpoints', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'webhook-endpoints', idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint; 201 with its signing secret (shown once)',
      description: 'signature_scheme: stripe (default; Portal-Signature) or standard (Standard Webhooks: the standardwebhooks and svix libraries verify it). At most 16 endpoints per merchant.',
      body: createBody,
      response: { 201: endpointWithSecret },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const merId = req.body.merchant_id ?? (key.scope.includes(key.ownerMerId) ? key.ownerMerId : key.scope.length === 1 ? key.scope[0] : undefined);
      if (!merId) throw new V1Error(400, 'invalid_request_error', 'parameter_missing', 'badRequest', { detail: 'merchant_id' }, 'merchant_id');
      if (!key.scope.includes(merId)) throw missing('merchant_id');
      const made = await createEndpoint(
        deps,
        userOf(req),
        key.lang,
        {
          merId,
          url: req.body.url,
          events: [...new Set(req.body.enabled_events)] as never,
          description: req.body.description ?? '',
          signatureScheme: req.body.signature_scheme,
          apiVersion: req.body.api_version ?? req.apiVersion,
        },
        meta(req),
      );
      reply.status(201);
      return { ...toV1Endpoint(made.endpoint), secret: made.secret };
    },
  });

  r.get('/webhook_endpoints/:id', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'webhook-endpoints' } },
    schema: { tags: hidden, operationId: 'getWebhookEndpoint', summary: 'One webhook endpoint', params: idParams, response: { 200: endpointSchema } },
    handler: async (req) => toV1Endpoint(await own(req, req.params.id)),
  });

  r.post('/webhook_endpoints/:id', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'webhook-endpoints', idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'updateWebhookEndpoint',
      summary: 'Change its URL, events or description; turn it off (disabled: true) or on',
      params: idParams,
      body: updateBody,
      response: { 200: endpointSchema },
    },
    handler: async (req) => {
      const before = await own(req, req.params.id);
      const user = userOf(req);
      const b = req.body;
      let e = before;
      if (b.url !== undefined || b.enabled_events !== undefined || b.description !== undefined) {
        e = await updateEndpoint(
          deps,
          user,
          { id: before.id, url: b.url ?? before.url, events: (b.enabled_events ? [...new Set(b.enabled_events)] : before.events) as never, description: b.description ?? before.description },
          meta(req),
        );
      }
      if (b.disabled !== undefined) e = await setEnabled(deps, user, before.id, !b.disabled, meta(req));
      return toV1Endpoint(e);
    },
  });

  r.delete('/webhook_endpoints/:id', {
    config: { v1: { permission: Perm.developerWebhooks, tag: 'webhook-endpoints' } },
    schema: {
      tags: hidden,
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint and its delivery log (its events stay in /v1/events)',
      params: idParams,
      response: { 200: endpointSchema },
    },
    handler: async (req) => {
      await own(req, req.params.id);
      return toV1Endpoint(await deleteEndpoint(deps, userOf(req), req.params.id, meta(req)));
    },
  });
}
