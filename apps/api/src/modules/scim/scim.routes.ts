import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ScimApi,
  scimGroupRowSchema,
  scimIdSchema,
  scimMappingRowSchema,
  scimMappingSaveSchema,
  scimTokenCreateSchema,
  scimTokenCreatedSchema,
  scimTokenRowSchema,
  signInIpSaveSchema,
  signInIpSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { createToken, listTokens, revokeToken } from './scim.tokens';
import { listMappings, listScimGroups, removeMapping, saveMapping } from './scim.mappings';
import { getSignInIp, saveSignInIp } from './signin-ip.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

/**
 * Team → Provisioning (issue 51): SCIM tokens and group → role mappings, for administrators of the
 * merchant group holding team:scim:manage; and the sign-in IP allow-list (administrators holding
 * merchant:user:manage). Another merchant's token or mapping answers 404.
 */
export function scimPortalRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(ScimApi.tokens),
    schema: {
      tags: ['team'],
      summary: "The merchant group's SCIM tokens, newest first (prefix, creator, last use; never the secret)",
      response: { 200: envelope(answerOf(ScimApi.tokens)(z.array(scimTokenRowSchema))) },
    },
    handler: async (req) => ok(await listTokens(deps, userOf(req))),
  });
  r.route({
    ...routeOf(ScimApi.createToken, { rateLimit: { max: 30, timeWindow: '1 minute' } }),
    schema: {
      tags: ['team'],
      summary: 'Make a SCIM bearer token for the identity provider: the secret is in this answer only (only its SHA-256 is kept). Audited.',
      body: inputOf(ScimApi.createToken)(scimTokenCreateSchema),
      response: { 200: envelope(answerOf(ScimApi.createToken)(scimTokenCreatedSchema)) },
    },
    handler: async (req) => ok(await createToken(deps, userOf(req), req.lang, req.body.name, meta(req))),
  });
  r.route({
    ...routeOf(ScimApi.revokeToken),
    schema: {
      tags: ['team'],
      summary: 'Revoke a SCIM token: refused on every server from the next request. Audited.',
      body: inputOf(ScimApi.revokeToken)(scimIdSchema),
      response: { 200: envelope(answerOf(ScimApi.revokeToken)(scimTokenRowSchema)) },
    },
    handler: async (req) => ok(await revokeToken(deps, userOf(req), req.body.id, meta(req))),
  });
  r.route({
    ...routeOf(ScimApi.mappings),
    schema: {
      tags: ['team'],
      summary: "Group → named-role mappings (the first mapping, in this order, among a user's groups gives its role)",
      response: { 200: envelope(answerOf(ScimApi.mappings)(z.array(scimMappingRowSchema))) },
    },
    handler: async (req) => ok(await listMappings(deps, userOf(req))),
  });
  r.route({
    ...routeOf(ScimApi.saveMapping),
    schema: {
      tags: ['team'],
      summary: "Map a directory group (by name) to a named role: its provisioned members get the role's permissions at once. Audited.",
      body: inputOf(ScimApi.saveMapping)(scimMappingSaveSchema),
      response: { 200: envelope(answerOf(ScimApi.saveMapping)(z.array(scimMappingRowSchema))) },
    },
    handler: async (req) => ok(await saveMapping(deps, userOf(req), req.body, meta(req))),
  });
  r.route({
    ...routeOf(ScimApi.removeMapping),
    schema: {
      tags: ['team'],
      summary: 'Remove a mapping: its members lose the role at once (no mapping: no permissions). Audited.',
      body: inputOf(ScimApi.removeMapping)(scimIdSchema),
      response: { 200: envelope(answerOf(ScimApi.removeMapping)(z.array(scimMappingRowSchema))) },
    },
    handler: async (req) => ok(await removeMapping(deps, userOf(req), req.body.id, meta(req))),
  });
  r.route({
    ...routeOf(ScimApi.groups),
    schema: {
      tags: ['team'],
      summary: 'The groups the identity provider pushed, with their member counts and mapped role',
      response: { 200: envelope(answerOf(ScimApi.groups)(z.array(scimGroupRowSchema))) },
    },
    handler: async (req) => ok(await listScimGroups(deps, userOf(req))),
  });
  r.route({
    ...routeOf(ScimApi.signInIp),
    schema: {
      tags: ['team'],
      summary: "The sign-in IP allow-list of the caller's merchant group, and the caller's own address (as the server reads it behind its trusted proxies)",
      response: { 200: envelope(answerOf(ScimApi.signInIp)(signInIpSchema)) },
    },
    handler: async (req) => ok(await getSignInIp(deps, userOf(req), req.ip)),
  });
  r.route({
    ...routeOf(ScimApi.saveSignInIp),
    schema: {
      tags: ['team'],
      summary: 'Save the sign-in IP allow-list (addresses or CIDR ranges, IPv4 and IPv6; empty: anywhere). Refused (400) unless it holds your own address — the lock-out guard. Audited.',
      body: inputOf(ScimApi.saveSignInIp)(signInIpSaveSchema),
      response: { 200: envelope(answerOf(ScimApi.saveSignInIp)(signInIpSchema)) },
    },
    handler: async (req) => ok(await saveSignInIp(deps, userOf(req), req.body, meta(req))),
  });
}
