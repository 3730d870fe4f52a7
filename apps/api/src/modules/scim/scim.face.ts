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

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM token of a /scim/v2 request: its merchant group. */
    scim?: ScimCaller;
  }
}

/** The SCIM error answer, as the portal document describes it. */
const scimErrorSchema = z
  .object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string() })
  .describe(`The SCIM error format (RFC 7644 §3.12): schemas [${ERROR_SCHEMA}], status, scimType (400/409), detail in Accept-Language`);
/** The same, as the document's JSON schema. */
const scimErrorJson = z.toJSONSchema(scimErrorSchema, { target: 'openapi-3.0' });
const resource = z.record(z.string(), z.unknown());
const errors = { 400: scimErrorSchema, 401: scimErrorSchema, 404: scimErrorSchema, 409: scimErrorSchema, 412: scimErrorSchema };
const idParams = z.object({ id: z.string().max(64) });
const listQuery = z.object({
  filter: z.string().max(500).optional().describe('one comparison: `userName eq "…"`, `externalId eq "…"`, `id eq "…"`, `emails.value eq "…"`; groups: `displayName eq "…"`'),
  startIndex: z.string().max(10).optional().describe('1-based; default 1'),
  count: z.string().max(10).optional().describe('default 100, at most 200'),
  attributes: z.string().max(200).optional(),
  excludedAttributes: z.string().max(200).optional().describe("`members` leaves the groups' members out (Entra ID asks so)"),
});

const SCIM_DOC_DESCRIPTION = `SCIM 2.0 (RFC 7643/7644) provisioning of a merchant group's users and groups by its identity provider
(Entra ID, Okta, …). Authenticate with a SCIM token made in Team → Provisioning: \`Authorization: Bearer …\` — the token
decides the merchant group; another group's users and groups answer 404. Requests and answers are \`application/scim+json\`
(\`application/json\` is read too). Filters: one \`eq\` comparison (\`userName eq "…"\`); pages by \`startIndex\` and
\`count\`; every resource has an ETag (\`meta.version\`) and \`If-Match\` is honoured. Errors answer in the SCIM error
format \`{ schemas: [${ERROR_SCHEMA}], status, scimType?, detail }\` (detail in the token's language). See docs/scim.md.`;

type Json = Record<string, unknown>;

/** The operationId of a SCIM route: `GET /scim/v2/Users/:id` → `getScimUsersById`. */
export function scimOperationId(method: string, url: string): string {
  const words = url
    .replace(/^\/scim\/v2\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `By-${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return `${method.toLowerCase()}Scim${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (scimType invalidSyntax, invalidFilter, invalidValue, invalidPath, mutability …)',
  401: 'No SCIM token, or an unknown or revoked one',
  404: "Not found — also another merchant group's resource",
  409: 'uniqueness: the userName, e-mail or group name is taken',
  412: 'If-Match does not name the current version (ETag)',
  429: 'Too many requests (600 a minute per address)',
};

/**
 * Finishes one operation of the SCIM document: its tag and operationId from the path; answers in
 * application/scim+json; every error answer the SCIM error format; the resource a write takes
 * (read by the services, which answer 400 in the SCIM format for what they refuse); If-Match on
 * replace, patch and delete; 204 with no content.
 */
export function scimDocOperation<T extends { schema: unknown; url: string }>(out: T, method: string): T {
  const schema = { ...(out.schema as Json) } as Json & { response?: Json; headers?: Json };
  const tag = out.url.startsWith('/scim/v2/Users') ? 'scim-users' : out.url.startsWith('/scim/v2/Groups') ? 'scim-groups' : 'scim-discovery';
  const error = (s: number) => ({ ...(scimErrorJson as Json), description: ERROR_TEXT[s] ?? 'SCIM error' });
  const response: Json = {};
  for (const [code, r] of Object.entries(schema.response ?? {})) {
    if (code === '204') response[code] = { type: 'null', description: 'No content' };
    else if (code.startsWith('2')) response[code] = { ...(r as Json), description: code === '201' ? 'Created (Location and ETag headers)' : 'OK' };
  }
  for (const s of [400, 401, 404, 409, 412, 429]) {
    if (s === 404 && !out.url.includes(':')) continue;
    if ((s === 409 && method !== 'POST' && method !== 'PUT' && method !== 'PATCH') || (s === 412 && !['PUT', 'PATCH', 'DELETE'].includes(method))) continue;
    response[s] = error(s);
  }
  if (['POST', 'PUT', 'PATCH'].includes(method)) {
    schema.consumes = [SCIM_MEDIA, 'application/json'];
    schema.body = {
      type: 'object',
      additionalProperties: true,
      description:
        method === 'PATCH'
          ? 'A PatchOp: { schemas: [urn:ietf:params:scim:api:messages:2.0:PatchOp], Operations: [{ op, path?, value? }] }'
          : `The ${tag === 'scim-users' ? 'User' : 'Group'} resource (RFC 7643)`,
    };
  }
  if (['PUT', 'PATCH', 'DELETE'].includes(method)) {
    schema.headers = { type: 'object', properties: { 'if-match': { type: 'string', description: 'the ETag last read: 412 when the resource changed since' } } };
  }
  return { ...out, schema: { ...schema, tags: [tag], operationId: scimOperationId(method, out.url), produces: [SCIM_MEDIA], response } } as T;
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
