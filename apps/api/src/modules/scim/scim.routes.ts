import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Perm,
  scimGroupRowSchema,
  scimIdSchema,
  scimMappingRowSchema,
  scimMappingSaveSchema,
  scimTokenCreatedSchema,
  scimTokenCreateSchema,
  scimTokenRowSchema,
  signInIpSaveSchema,
  signInIpSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
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
  const config = { permission: Perm.teamScimManage };

  r.get('/api/team/scim/tokens', {
    config,
    schema: { tags: ['team'], summary: "The merchant group's SCIM tokens, newest first (prefix, creator, last use; never the secret)", response: { 200: envelope(z.array(scimTokenRowSchema)) } },
    handler: async (req) => ok(await listTokens(deps, userOf(req))),
  });
  r.post('/api/team/scim/tokens/create', {
    config: { ...config, rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: {
      tags: ['team'],
      summary: 'Make a SCIM bearer token for the identity provider: the secret is in this answer only (only its SHA-256 is kept). Audited.',
      body: scimTokenCreateSchema,
      response: { 200: envelope(scimTokenCreatedSchema) },
    },
    handler: async (req) => ok(await createToken(deps, userOf(req), req.lang, req.body.name, meta(req))),
  });
  r.post('/api/team/scim/tokens/revoke', {
    config,
    schema: { tags: ['team'], summary: 'Revoke a SCIM token: refused on every server from the next request. Audited.', body: scimIdSchema, response: { 200: envelope(scimTokenRowSchema) } },
    handler: async (req) => ok(await revokeToken(deps, userOf(req), req.body.id, meta(req))),
  });
  r.get('/api/team/scim/mappings', {
    config,
    schema: {
      tags: ['team'],
      summary: "Group → named-role mappings (the first mapping, in this order, among a user's groups gives its role)",
      response: { 200: envelope(z.array(scimMappingRowSchema)) },
    },
    handler: async (req) => ok(await listMappings(deps, userOf(req))),
  });
  r.post('/api/team/scim/mappings/save', {
    config,
    schema: {
      tags: ['team'],
      summary: "Map a directory group (by name) to a named role: its provisioned members get the role's permissions at once. Audited.",
      body: scimMappingSaveSchema,
      response: { 200: envelope(z.array(scimMappingRowSchema)) },
    },
    handler: async (req) => ok(await saveMapping(deps, userOf(req), req.body, meta(req))),
  });
  r.post('/api/team/scim/mappings/remove', {
    config,
    schema: {
      tags: ['team'],
      summary: 'Remove a mapping: its members lose the role at once (no mapping: no permissions). Audited.',
      body: scimIdSchema,
      response: { 200: envelope(z.array(scimMappingRowSchema)) },
    },
    handler: async (req) => ok(await removeMapping(deps, userOf(req), req.body.id, meta(req))),
  });
  r.get('/api/team/scim/groups', {
    config,
    schema: { tags: ['team'], summary: 'The groups the identity provider pushed, with their member counts and mapped role', response: { 200: envelope(z.array(scimGroupRowSchema)) } },
    handler: async (req) => ok(await listScimGroups(deps, userOf(req))),
  });

  const ipConfig = { permission: Perm.merchantUserManage };
  r.get('/api/team/signin-ip', {
    config: ipConfig,
    schema: {
      tags: ['team'],
      summary: "The sign-in IP allow-list of the caller's merchant group, and the caller's own address (as the server reads it behind its trusted proxies)",
      response: { 200: envelope(signInIpSchema) },
    },
    handler: async (req) => ok(await getSignInIp(deps, userOf(req), req.ip)),
  });
  r.post('/api/team/signin-ip/save', {
    config: ipConfig,
    schema: {
      tags: ['team'],
      summary: 'Save the sign-in IP allow-list (addresses or CIDR ranges, IPv4 and IPv6; empty: anywhere). Refused (400) unless it holds your own address — the lock-out guard. Audited.',
      body: signInIpSaveSchema,
      response: { 200: envelope(signInIpSchema) },
    },
    handler: async (req) => ok(await saveSignInIp(deps, userOf(req), req.body, meta(req))),
  });
}
