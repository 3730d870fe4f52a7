import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickLanguage } from '@portal/contract';
import { resolveSession } from '../../plugins/auth';
import { AppError } from '../../lib/errors';
import type { Deps } from '../../plugins/context';
import { ScimError, SCIM_MEDIA, ERROR_SCHEMA, sendScimError, scimNotFound } from './scim.errors';
import { authenticateScim, type ScimCaller } from './scim.tokens';
import { etagOf, pageOf } from './scim.filter';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser, USER_SCHEMA } from './scim.users';
import { changeGroup, createGroup, deleteGroup, getGroup, GROUP_SCHEMA, listGroups, parseGroupBody, parseGroupPatch } from './scim.groups';
import { resourceTypes, schemas, serviceProviderConfig } from './scim.discovery';
import { errors, idParams, listQuery, resource, SCIM_DOC_DESCRIPTION, scimDocOperation, scimErrorSchema } from './scim.docs';

export { scimDocOperation, scimOperationId } from './scim.docs';

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM token of a /scim/v2 request: its merchant group. */
    scim?: ScimCaller;
  }
}

/**
 * The SCIM 2.0 face (`/scim/v2`, issue 51, decision 065): an encapsulated scope with its own
 * authentication (a SCIM bearer token, looked up on every request — no portal session: the
 * portal's auth hook leaves URLs outside /api/ alone, and every route says `auth: 'public'` to it),
 * its own media type (application/scim+json, read and written), its own error format and 404. The
 * routes are thin: the services own their transactions.
 */
export function scimFace(app: FastifyInstance, deps: Deps): void {
  void app.register(
    async (f) => {
      f.addContentTypeParser(['application/scim+json'], { parseAs: 'string', bodyLimit: 1024 * 1024 }, f.getDefaultJsonParser('error', 'error'));
      // The face's own OpenAPI document (/scim/v2/docs, /scim/v2/docs/json): a second @fastify/swagger
      // in this scope, as the /v1 and back-office faces have — SCIM's bearer token, media type and
      // error format, none of the portal document's envelope or X-Token.
      const docs = deps.config.apiDocs ?? 'public';
      await f.register(swagger, {
        openapi: {
          openapi: '3.0.3',
          info: { title: 'SCIM 2.0 provisioning', version: '2.0.0', description: SCIM_DOC_DESCRIPTION, license: { name: 'Proprietary', url: `${deps.config.publicUrl}/scim/v2/docs` } },
          servers: [{ url: deps.config.publicUrl, description: 'This portal' }],
          tags: [
            { name: 'scim-discovery', description: 'What this service provider supports (RFC 7644 §4)' },
            { name: 'scim-users', description: 'Users (RFC 7643 §4.1)' },
            { name: 'scim-groups', description: 'Groups (RFC 7643 §4.2): their names map to named roles' },
          ],
          components: { securitySchemes: { scimToken: { type: 'http', scheme: 'bearer', bearerFormat: 'SCIM token from Team → Provisioning' } } },
          security: [{ scimToken: [] }],
        },
        transform: (arg) => scimDocOperation(jsonSchemaTransform(arg), ([] as string[]).concat(arg.route.method)[0]),
      });
      const isDocs = (url: string) => url === '/scim/v2/docs' || url.startsWith('/scim/v2/docs/') || url.startsWith('/scim/v2/docs?');
      f.addHook('onRequest', async (req, reply) => {
        if (isDocs(req.url)) {
          // API_DOCS (issue 47: every document follows it): 'auth' — a valid SCIM token, or a signed-in
          // portal user (X-Token). Answered here: the document's routes are outside this scope's error handler.
          if (docs !== 'auth') return;
          const token = req.headers['x-token'];
          try {
            if (typeof token === 'string' && token && !req.headers.authorization) await resolveSession(deps, token);
            else req.scim = await authenticateScim(deps, req.headers.authorization);
          } catch (err) {
            if (!(err instanceof ScimError) && !(err instanceof AppError)) throw err;
            return sendScimError(reply, pickLanguage(req.headers['accept-language']), err instanceof ScimError ? err : new ScimError(401, 'scimTokenInvalid'));
          }
          return;
        }
        req.scim = await authenticateScim(deps, req.headers.authorization);
      });
      // Every answer in SCIM's media type (the document's own JSON apart).
      f.addHook('onSend', async (req, reply, payload) => {
        if (!isDocs(req.url) && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.type(SCIM_MEDIA);
        return payload;
      });
      if (docs !== 'off') await f.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });
      f.setErrorHandler((err: FastifyError, req, reply) => {
        const lang = req.lang ?? 'en';
        if (err instanceof ScimError) return sendScimError(reply, lang, err);
        if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err.statusCode === 400 && /JSON/i.test(err.message))) {
          return sendScimError(reply, lang, new ScimError(400, 'scimBadJson', 'invalidSyntax'));
        }
        if (err.validation) return sendScimError(reply, lang, new ScimError(400, 'scimInvalidValue', 'invalidValue', { field: err.validation[0]?.instancePath?.slice(1) || 'query' }));
        if (err.statusCode === 429) return sendScimError(reply, lang, new ScimError(429, 'scimTooMany'));
        if (err.statusCode === 413 || err.statusCode === 415) return sendScimError(reply, lang, new ScimError(err.statusCode, 'scimBadJson', 'invalidSyntax'));
        req.log.error({ err }, 'scim: unhandled error');
        return reply
          .status(500)
          .type(SCIM_MEDIA)
          .send({ schemas: [ERROR_SCHEMA], status: '500', detail: `Internal error (ref ${req.id})` });
      });
      f.setNotFoundHandler((req, reply) => sendScimError(reply, req.lang ?? 'en', scimNotFound()));

      const caller = (req: FastifyRequest) => req.scim!;
      const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
      const withEtag = <T extends { meta: { version: string; location?: string } }>(reply: FastifyReply, r: T, status = 200) => {
        reply.header('ETag', r.meta.version);
        if (status === 201 && r.meta.location) reply.header('Location', r.meta.location);
        return reply.status(status).send(r);
      };
      const config = { auth: 'public' as const, rateLimit: { max: 600, timeWindow: '1 minute' } };
      // Described in this face's own document (/scim/v2/docs) and docs/scim.md; the tag from the path.
      const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ summary, ...extra });
      const base = deps.config.publicUrl;
      const noMembers = (q: { attributes?: string; excludedAttributes?: string }) =>
        !!q.excludedAttributes?.split(',').some((a) => a.trim().toLowerCase() === 'members') || (!!q.attributes && !q.attributes.split(',').some((a) => a.trim().toLowerCase() === 'members'));

      f.get(
        '/ServiceProviderConfig',
        { config, schema: doc('SCIM: what this service provider supports (PATCH, filter, ETags; no bulk, no sort)', { response: { 200: resource, 401: scimErrorSchema } }) },
        async () => serviceProviderConfig(base),
      );
      f.get('/ResourceTypes', { config, schema: doc('SCIM: the resource types (User, Group)', { response: { 200: resource, 401: scimErrorSchema } }) }, async () => {
        const list = resourceTypes(base);
        return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: list.length, startIndex: 1, itemsPerPage: list.length, Resources: list };
      });
      f.get('/ResourceTypes/:id', { config, schema: doc('SCIM: one resource type', { params: idParams, response: { 200: resource, ...errors } }) }, async (req) => {
        const r = resourceTypes(base).find((x) => x.id === (req.params as { id: string }).id);
        if (!r) throw scimNotFound();
        return r;
      });
      f.get('/Schemas', { config, schema: doc('SCIM: the User and Group schemas', { response: { 200: resource, 401: scimErrorSchema } }) }, async () => {
        const list = schemas(base);
        return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: list.length, startIndex: 1, itemsPerPage: list.length, Resources: list };
      });
      f.get('/Schemas/:id', { config, schema: doc('SCIM: one schema, by its URN', { params: idParams.extend({ id: z.string().max(200) }), response: { 200: resource, ...errors } }) }, async (req) => {
        const r = schemas(base).find((x) => x.id === (req.params as { id: string }).id);
        if (!r) throw scimNotFound();
        return r;
      });

      // Users
      f.get(
        '/Users',
        { config, schema: doc(`SCIM: the merchant group's provisioned users (${USER_SCHEMA}), filtered and paged`, { querystring: listQuery, response: { 200: resource, ...errors } }) },
        async (req) => {
          const q = req.query as z.infer<typeof listQuery>;
          const { startIndex, count } = pageOf(q);
          return listUsers(deps, caller(req), q.filter, startIndex, count);
        },
      );
      f.post(
        '/Users',
        {
          config,
          schema: doc('SCIM: provision a user (active unless active=false; no role until one of its groups is mapped). 409 uniqueness when the name or e-mail is taken. Audited.', {
            response: { 201: resource, ...errors },
          }),
        },
        async (req, reply) => withEtag(reply, await createUser(deps, caller(req), req.body, meta(req)), 201),
      );
      f.get('/Users/:id', { config, schema: doc('SCIM: one user (ETag: meta.version)', { params: idParams, response: { 200: resource, ...errors } }) }, async (req, reply) =>
        withEtag(reply, await getUser(deps, caller(req), (req.params as { id: string }).id)),
      );
      f.put(
        '/Users/:id',
        {
          config,
          schema: doc('SCIM: replace a user (If-Match honoured; active=false disables it and ends its sessions on every server at once). Audited.', {
            params: idParams,
            response: { 200: resource, ...errors },
          }),
        },
        async (req, reply) => withEtag(reply, await replaceUser(deps, caller(req), (req.params as { id: string }).id, req.body, req.headers['if-match'], meta(req))),
      );
      f.patch(
        '/Users/:id',
        { config, schema: doc('SCIM: PATCH a user (add/replace/remove, with or without path; Entra ID and Okta forms). Audited.', { params: idParams, response: { 200: resource, ...errors } }) },
        async (req, reply) => withEtag(reply, await patchUser(deps, caller(req), (req.params as { id: string }).id, req.body, req.headers['if-match'], meta(req))),
      );
      f.delete(
        '/Users/:id',
        {
          config,
          schema: doc('SCIM: delete a user (removed as Team → Users removes one; sessions ended). Audited.', { params: idParams, response: { 204: z.null().describe('deleted'), ...errors } }),
        },
        async (req, reply) => {
          await deleteUser(deps, caller(req), (req.params as { id: string }).id, req.headers['if-match'], meta(req));
          return reply.status(204).send();
        },
      );

      // Groups
      f.get(
        '/Groups',
        { config, schema: doc(`SCIM: the merchant group's groups (${GROUP_SCHEMA}), filtered and paged`, { querystring: listQuery, response: { 200: resource, ...errors } }) },
        async (req) => {
          const q = req.query as z.infer<typeof listQuery>;
          const { startIndex, count } = pageOf(q);
          return listGroups(deps, caller(req), q.filter, startIndex, count, !noMembers(q));
        },
      );
      f.post(
        '/Groups',
        { config, schema: doc('SCIM: create a group with members; members get the role mapped to its name. Audited.', { response: { 201: resource, ...errors } }) },
        async (req, reply) => withEtag(reply, await createGroup(deps, caller(req), req.body, meta(req)), 201),
      );
      f.get(
        '/Groups/:id',
        { config, schema: doc('SCIM: one group', { params: idParams, querystring: listQuery.pick({ attributes: true, excludedAttributes: true }), response: { 200: resource, ...errors } }) },
        async (req, reply) => withEtag(reply, await getGroup(deps, caller(req), (req.params as { id: string }).id, !noMembers(req.query as z.infer<typeof listQuery>))),
      );
      f.put(
        '/Groups/:id',
        { config, schema: doc("SCIM: replace a group (name, members); the members' roles follow. Audited.", { params: idParams, response: { 200: resource, ...errors } }) },
        async (req, reply) => withEtag(reply, await changeGroup(deps, caller(req), (req.params as { id: string }).id, parseGroupBody(req.body), req.headers['if-match'], meta(req))),
      );
      f.patch(
        '/Groups/:id',
        {
          config,
          schema: doc("SCIM: PATCH a group (members add/remove/replace, displayName); the members' roles follow. Audited.", {
            params: idParams,
            response: { 200: resource, 204: z.null(), ...errors },
          }),
        },
        async (req, reply) => {
          const g = await changeGroup(deps, caller(req), (req.params as { id: string }).id, parseGroupPatch(req.body), req.headers['if-match'], meta(req));
          reply.header('ETag', etagOf(Number(/"(\d+)"/.exec(g.meta.version)![1])));
          return reply.status(200).send(g);
        },
      );
      f.delete(
        '/Groups/:id',
        { config, schema: doc("SCIM: delete a group; its members' roles follow. Audited.", { params: idParams, response: { 204: z.null().describe('deleted'), ...errors } }) },
        async (req, reply) => {
          await deleteGroup(deps, caller(req), (req.params as { id: string }).id, req.headers['if-match'], meta(req));
          return reply.status(204).send();
        },
      );
    },
    { prefix: '/scim/v2' },
  );
}
