import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  WebhooksApi,
  webhookDeliveryDetailSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointCreateSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookIdSchema,
  webhookResendFailedSchema,
  webhookSecretSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { createEndpoint, endPreviousSecret, getEndpoint, listEndpoints, rotateSecret, setEnabled, updateEndpoint } from './webhook.service';
import { deliveryDetail, listDeliveries, resendDelivery, resendFailed, sendTestEvent } from './webhook.deliveries';

const TAG = ['webhooks'];
const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

/**
 * Webhook endpoints and their delivery log (issue 31, docs/webhooks.md). Every route needs
 * developer:manage and answers within the caller's merchants (another merchant's endpoint or
 * delivery: 404). Bodies are JSON or forms; `events` an array or comma-joined.
 */
export function webhookRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(WebhooksApi.endpoints),
    schema: { tags: TAG, summary: "The webhook endpoints of the caller's merchants", response: { 200: envelope(answerOf(WebhooksApi.endpoints)(z.array(webhookEndpointSchema))) } },
    handler: async (req) => ok(await listEndpoints(deps, userOf(req).scope)),
  });

  r.route({
    ...routeOf(WebhooksApi.endpoint),
    schema: {
      tags: TAG,
      summary: 'One endpoint (query: id)',
      querystring: inputOf(WebhooksApi.endpoint)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.endpoint)(webhookEndpointSchema)) },
    },
    handler: async (req) => ok(await getEndpoint(deps, userOf(req), req.query.id)),
  });

  r.route({
    ...routeOf(WebhooksApi.create),
    schema: {
      tags: TAG,
      summary:
        'Add an endpoint (merId, url — https in production, events, description); the answer holds its signing secret, shown once; 503 (code 503) when the server has no usable PROVIDER_KEY_ENCRYPTION_KEY to seal it',
      body: inputOf(WebhooksApi.create)(webhookEndpointCreateSchema),
      response: { 200: envelope(answerOf(WebhooksApi.create)(webhookSecretSchema)) },
    },
    handler: async (req) => ok(await createEndpoint(deps, userOf(req), req.lang, req.body, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.update),
    schema: {
      tags: TAG,
      summary: "Change an endpoint's URL, events and description (id)",
      body: inputOf(WebhooksApi.update)(webhookEndpointUpdateSchema),
      response: { 200: envelope(answerOf(WebhooksApi.update)(webhookEndpointSchema)) },
    },
    handler: async (req) => ok(await updateEndpoint(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.rotate),
    schema: {
      tags: TAG,
      summary: 'A new signing secret (shown once); the previous one keeps signing, as a second v1, for 24 hours; 503 (code 503) without a usable PROVIDER_KEY_ENCRYPTION_KEY',
      body: inputOf(WebhooksApi.rotate)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.rotate)(webhookSecretSchema)) },
    },
    handler: async (req) => ok(await rotateSecret(deps, userOf(req), req.body.id, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.endPreviousSecret),
    schema: {
      tags: TAG,
      summary: "End the previous secret's 24-hour overlap now (id): only the current secret signs from here on; 400 when there is none; audited",
      body: inputOf(WebhooksApi.endPreviousSecret)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.endPreviousSecret)(webhookEndpointSchema)) },
    },
    handler: async (req) => ok(await endPreviousSecret(deps, userOf(req), req.body.id, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.disable),
    schema: {
      tags: TAG,
      summary: 'Stop sending to an endpoint (its pending deliveries wait)',
      body: inputOf(WebhooksApi.disable)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.disable)(webhookEndpointSchema)) },
    },
    handler: async (req) => ok(await setEnabled(deps, userOf(req), req.body.id, false, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.enable),
    schema: {
      tags: TAG,
      summary: 'Send to an endpoint again (also one the deliveries disabled)',
      body: inputOf(WebhooksApi.enable)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.enable)(webhookEndpointSchema)) },
    },
    handler: async (req) => ok(await setEnabled(deps, userOf(req), req.body.id, true, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.test),
    schema: {
      tags: TAG,
      summary: 'Send a webhook.test event to this endpoint (delivered by the job within seconds)',
      body: inputOf(WebhooksApi.test)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.test)(webhookDeliveryDetailSchema)) },
    },
    handler: async (req) => ok(await sendTestEvent(deps, userOf(req), req.lang, req.body.id, meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.resendFailed),
    schema: {
      tags: TAG,
      summary: 'Send again every failed delivery of the endpoint (id) whose event is at or after `since` (ISO time with offset)',
      body: inputOf(WebhooksApi.resendFailed)(webhookResendFailedSchema),
      response: { 200: envelope(answerOf(WebhooksApi.resendFailed)(z.object({ count: z.number() }))) },
    },
    handler: async (req) => ok(await resendFailed(deps, userOf(req), req.body.id, new Date(req.body.since), meta(req))),
  });

  r.route({
    ...routeOf(WebhooksApi.deliveries),
    schema: {
      tags: TAG,
      summary: "An endpoint's deliveries (id = the endpoint), newest first; filter by state or one event (eventId)",
      querystring: inputOf(WebhooksApi.deliveries)(webhookDeliveryQuerySchema),
      response: { 200: envelope(answerOf(WebhooksApi.deliveries)(pageOf(webhookDeliverySchema))) },
    },
    handler: async (req) => ok(await listDeliveries(deps, userOf(req), req.query)),
  });

  r.route({
    ...routeOf(WebhooksApi.delivery),
    schema: {
      tags: TAG,
      summary: "One delivery: its body and every attempt (time, status, latency, first 2 KB of the answer or a generic reason in the caller's language, next retry)",
      querystring: inputOf(WebhooksApi.delivery)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.delivery)(webhookDeliveryDetailSchema)) },
    },
    handler: async (req) => ok(await deliveryDetail(deps, userOf(req), req.lang, req.query.id)),
  });

  r.route({
    ...routeOf(WebhooksApi.resend),
    schema: {
      tags: TAG,
      summary: 'Send one delivery again now (same event id and body)',
      body: inputOf(WebhooksApi.resend)(webhookIdSchema),
      response: { 200: envelope(answerOf(WebhooksApi.resend)(webhookDeliveryDetailSchema)) },
    },
    handler: async (req) => ok(await resendDelivery(deps, userOf(req), req.lang, req.body.id, meta(req))),
  });
}
