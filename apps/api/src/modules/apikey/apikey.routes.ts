import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiKeysApi, apiKeyCreateSchema, apiKeyCreatedSchema, apiKeyIdSchema, apiKeyListQuerySchema, apiKeyRowSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { createKey, listKeys, revokeKey } from './apikey.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

/** Developers → Keys (issue 31): the merchant API's keys, for holders of developer:manage. */
export function apiKeyRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(ApiKeysApi.list),
    schema: {
      tags: ['developer'],
      summary: "API keys of the merchants in the caller's scope, newest first: prefix, last use, creator, expiry, the 90-days-unused flag",
      querystring: inputOf(ApiKeysApi.list)(apiKeyListQuerySchema),
      response: { 200: envelope(answerOf(ApiKeysApi.list)(pageOf(apiKeyRowSchema))) },
    },
    handler: async (req) => ok(await listKeys(deps, userOf(req), req.query)),
  });

  r.route({
    ...routeOf(ApiKeysApi.create, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags: ['developer'],
      summary: 'Create an API key: name, merIds (in your scope), permissions (ones you hold), ipAllow (addresses or CIDR ranges), expiresOn (last day). The secret is in this answer only.',
      description: 'A merchant outside your scope or a permission you do not hold (or an administrator-only one) answers 400. Audited.',
      body: inputOf(ApiKeysApi.create)(apiKeyCreateSchema),
      response: { 200: envelope(answerOf(ApiKeysApi.create)(apiKeyCreatedSchema)) },
    },
    handler: async (req) => ok(await createKey(deps, userOf(req), req.lang, req.body, meta(req))),
  });

  r.route({
    ...routeOf(ApiKeysApi.revoke),
    schema: {
      tags: ['developer'],
      summary: 'Revoke an API key: refused on every server from the next request. Audited.',
      body: inputOf(ApiKeysApi.revoke)(apiKeyIdSchema),
      response: { 200: envelope(answerOf(ApiKeysApi.revoke)(apiKeyRowSchema)) },
    },
    handler: async (req) => ok(await revokeKey(deps, userOf(req), req.body.id, meta(req))),
  });
}
