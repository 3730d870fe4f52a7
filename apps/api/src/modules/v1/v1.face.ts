import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { pickLanguage } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { pgRateLimitStore } from '../../plugins/rate-limit-store';
import { API_VERSIONS, authenticateKey, type ApiVersion, type KeyCaller } from '../apikey';
import { AppError } from '../../lib/errors';
import { V1Error, sendV1Error, v1ErrorOf } from './v1.errors';
import { resolveSession } from '../../plugins/auth';
import { v1TxnRoutes } from './v1.txn.routes';
import { v1PayByLinkRoutes } from './v1.paybylink.routes';
import { v1InStoreRoutes } from './v1.instore.routes';
import { v1ExportRoutes } from './v1.exports.routes';
import { v1SettleRoutes } from './v1.settle.routes';
import { v1WebhookRoutes } from './v1.webhooks.routes';
import { v1StoreRoutes } from './v1.stores.routes';
import { v1Registry } from './v1.registry';
import { documentOperation, documentWebhooks, nullableEnums, type V1RouteConfig } from './v1.document';
import { idempotencyHooks } from './v1.idempotency';
import { faceRoutes, v1TagsOf, webhookEventsOf, type ModuleManifest } from '../contract';

export type { V1RouteConfig } from './v1.document';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a /v1 request (its merchants and permissions cut to its creator's). */
    apiKey?: KeyCaller;
    /** The API version this /v1 request is answered in: its Portal-Version header, else its key's. */
    apiVersion?: ApiVersion;
  }
  interface FastifyContextConfig {
    /** /v1 routes: the permission the key must carry; the operation's tag in /v1/docs. */
    v1?: V1RouteConfig;
  }
}

/**
 * Failed key authentications (401, or a key used outside its IP allow-list) a client address may
 * make per minute (issue 47). Past it the address is answered 429 with Retry-After — its keys are
 * not even looked up — until the window ends. IPv6 addresses count per /64 (one host's range).
 */
export const V1_AUTH_FAILURES_PER_MINUTE = 20;

const DESCRIPTION = `The merchant REST API. Authenticate with an API key from Developers → Keys: \`Authorization: Bearer mpk_…\`.
A key acts for the merchants it was given and with its permissions (both within its creator's). Amounts are decimal strings
in the currency's exponent; times are ISO-8601 UTC. Lists page by cursor: pass \`next_cursor\` as \`cursor\`.
Every error answers \`{ error: { type, code, message, param, request_id } }\` (message in the key's language).
Each key has a rate limit per minute, shared by every server: \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` headers, 429 past it.
A client address that fails authentication ${V1_AUTH_FAILURES_PER_MINUTE} times in a minute (unknown, revoked or expired key, or one used outside its IP allow-list) is answered 429 with \`Retry-After\` until the minute ends.
Every JSON answer carries \`Cache-Control: no-store\`.
Every POST takes a required \`Idempotency-Key\` header (8–64 letters, digits, \`-\` or \`_\`): the first answer is kept 24 hours and a repeat with the same body replays it with \`Idempotent-Replayed: true\`; with another body 409 \`idempotency_error\`.
Every answer carries \`X-Request-Id\` (also the error's \`request_id\`).
Versions are dates (\`Portal-Version\`): a key answers in the version pinned at its creation; the \`Portal-Version\` request header answers one call in another; the answer's \`Portal-Version\` header names the version it is in (changelog in docs/merchant-api.md).
Events (webhook deliveries and /v1/events) are in a version too — an endpoint's pinned at its creation (\`api_version\`), a request's for /v1/events: from 2026-12-03 they name each object by its /v1 id and write every time in ISO-8601 UTC (\`created_at\`).
A TypeScript client generated from this document, with pagination, retries that keep the Idempotency-Key and webhook verification: packages/sdk (docs/merchant-api.md).
\`metadata\` (up to 50 string keys of at most 40 characters, values of at most 500) on refunds, payment links and in-store orders; \`expand[]\` answers an object inline instead of its id where an operation lists it. See docs/merchant-api.md.`;

const WINDOW_MS = 60_000;

/** The bucket of a client address: IPv4 as it is, IPv6 by its /64. */
export function clientBucket(ip: string): string {
  const a = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (!isIPv6(a)) return a;
  const [head, tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = a.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = a.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The merchant API face (/v1, issue 31; decision 039): an encapsulated context with its own
 * authentication (API keys, looked up on every request), its own per-key rate limit (counters in
 * the database's rate_limit table: shared by every process), its own error model and its own
 * OpenAPI document (/v1/docs). The routes are thin: they call the modules' services.
 */
export async function v1Face(app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[] = []): Promise<void> {
  const zodTransform = createJsonSchemaTransform({ schemaRegistry: v1Registry });
  const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: v1Registry });
  await app.register(
    async (f) => {
      await f.register(swagger, {
        openapi: {
          openapi: '3.1.0',
          info: { title: 'Merchant API', version: '1.0.0', description: DESCRIPTION, license: { name: 'Proprietary', url: `${deps.config.publicUrl}/v1/docs` } },
          servers: [{ url: deps.config.publicUrl, description: 'This portal' }],
          tags: [
            { name: 'transactions', description: 'The ledger: purchases, refunds and other transactions' },
            { name: 'refunds', description: 'Refunds of purchases (the same refund service as the portal)' },
            { name: 'payment-links', description: 'Pay-by-link orders (the same service as the portal)' },
            { name: 'settlements', description: 'Settlement batches with their fees, reserve and transfer' },
            { name: 'exports', description: 'Export files of lists and reports: ask, poll, download' },
            { name: 'in-store-orders', description: 'In-store orders paid through a dynamic QR (the same service as the portal)' },
            // Issue 50: events to pull and webhook endpoints by API.
            { name: 'events', description: 'The events webhooks deliver, to pull (30 days kept)' },
            { name: 'webhook-endpoints', description: 'Where a merchant receives its events (key permission developer:webhooks)' },
            ...v1TagsOf(modules),
          ],
          components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'mpk_…' } } },
          security: [{ apiKey: [] }],
        },
        hiddenTag: 'X-V1-HIDDEN',
        transform: (arg) => documentOperation(zodTransform(arg), (arg.route.config as { v1?: V1RouteConfig } | undefined)?.v1),
        transformObject: (arg) => ({ ...nullableEnums(zodTransformObject(arg)), webhooks: documentWebhooks(webhookEventsOf(modules)) }),
      });
      // The store's own counters (one atomic upsert per hit), under the route name 'v1'.
      const Store = pgRateLimitStore(deps.db) as unknown as new (
        o: object,
      ) => {
        child(o: { routeInfo: { url: string } }): { incr(key: string, cb: (e: Error | null, r?: { current: number; ttl: number }) => void, windowMs: number): void };
      };
      const store = new Store({}).child({ routeInfo: { url: '/v1' } });
      const hit = (key: string) => new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (e, r) => (e ? reject(e) : resolve(r!)), WINDOW_MS));
      // Failed authentications per client address: their own counters (same table, same atomic upsert).
      const failures = (
        new Store({}) as unknown as { child(o: object): { read(key: string, cb: (e: Error | null, r?: { current: number; ttl: number }) => void, windowMs: number): void; incr: typeof store.incr } }
      ).child({ routeInfo: { url: '/v1 auth-failures' } });
      const failed = (addr: string) => new Promise<{ current: number; ttl: number }>((resolve, reject) => failures.incr(addr, (e, r) => (e ? reject(e) : resolve(r!)), WINDOW_MS));
      const failedSoFar = (addr: string) => new Promise<{ current: number; ttl: number }>((resolve, reject) => failures.read(addr, (e, r) => (e ? reject(e) : resolve(r!)), WINDOW_MS));
      const throttled = (reply: { header(k: string, v: number): unknown }, ttl: number) => {
        reply.header('Retry-After', Math.max(1, Math.ceil(ttl / 1000)));
        return new V1Error(429, 'rate_limit_error', 'rate_limited', 'tooMany');
      };

      /** The request's API key, through the throttle of failed authentications per address. */
      const keyOfRequest = async (req: FastifyRequest, reply: { header(k: string, v: number): unknown }): Promise<KeyCaller> => {
        // An address past its failed authentications is refused before its key is looked up. The count
        // is one atomic upsert per failure: of N at once, exactly the first ones up to the limit answer
        // 401, the rest 429 — however many run in parallel, on however many servers.
        const addr = clientBucket(req.ip);
        const sofar = await failedSoFar(addr);
        if (sofar.current >= V1_AUTH_FAILURES_PER_MINUTE) throw throttled(reply, sofar.ttl);
        try {
          return await authenticateKey(deps, req.headers.authorization, req.ip, req.headers['user-agent']);
        } catch (e) {
          if (e instanceof AppError && (e.httpStatus === 401 || e.key === 'apiKeyIpRefused')) {
            const n = await failed(addr);
            if (n.current > V1_AUTH_FAILURES_PER_MINUTE) throw throttled(reply, n.ttl);
          }
          throw e;
        }
      };

      // API_DOCS (issue 47: every document follows it): 'off' serves no document; 'auth' serves
      // /v1/docs to a caller with a valid API key (any permission) or a signed-in portal user (X-Token).
      // The document's routes are registered before the error handler below: answered here.
      const docs = deps.config.apiDocs ?? 'public';
      if (docs === 'auth') {
        f.addHook('onRequest', async (req, reply) => {
          if (!req.url.startsWith('/v1/docs')) return;
          req.lang = pickLanguage(req.headers['accept-language']);
          try {
            const token = req.headers['x-token'];
            if (typeof token === 'string' && token && !req.headers.authorization) await resolveSession(deps, token);
            else req.apiKey = await keyOfRequest(req, reply);
          } catch (err) {
            const { status, body } = v1ErrorOf(err, req.apiKey?.lang ?? req.lang, String(req.id));
            return reply.status(status).send(body);
          }
        });
      }
      if (docs !== 'off') await f.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });

      f.setErrorHandler((err, req, reply) => sendV1Error(err, req, reply));
      f.setNotFoundHandler((req, reply) => sendV1Error(new V1Error(404, 'not_found_error', 'route_not_found', 'v1RouteNotFound'), req, reply));

      // Before the body is read or the input checked: a caller without a valid key learns nothing
      // about the input rules; then the key's permission for this route, then its rate limit.
      f.addHook('onRequest', async (req: FastifyRequest, reply) => {
        const v1 = req.routeOptions.config?.v1;
        if (!v1 || req.is404) return;
        req.lang = pickLanguage(req.headers['accept-language']);
        const key = await keyOfRequest(req, reply);
        req.apiKey = key;
        // Portal-Version (issue 50): the header overrides the key's pinned version for this call;
        // an unknown one is refused (never silently answered in another shape). Echoed on the answer.
        const asked = req.headers['portal-version'];
        if (asked !== undefined && (typeof asked !== 'string' || !(API_VERSIONS as readonly string[]).includes(asked))) {
          throw new V1Error(400, 'invalid_request_error', 'version_invalid', 'v1VersionInvalid', { version: String(asked).slice(0, 20), versions: API_VERSIONS.join(', ') }, 'Portal-Version');
        }
        req.apiVersion = (asked as ApiVersion | undefined) ?? key.apiVersion;
        reply.header('Portal-Version', req.apiVersion);
        if (!key.permissions.includes(v1.permission)) throw new V1Error(403, 'permission_error', 'permission_missing', 'v1Forbidden', { perm: v1.permission });
        const { current, ttl } = await hit(`key:${key.keyId}`);
        const reset = Math.max(1, Math.ceil(ttl / 1000));
        reply.header('RateLimit-Limit', key.rateLimit);
        reply.header('RateLimit-Remaining', Math.max(0, key.rateLimit - current));
        reply.header('RateLimit-Reset', reset);
        reply.header('RateLimit-Policy', `${key.rateLimit};w=60`);
        if (current > key.rateLimit) {
          reply.header('Retry-After', reset);
          throw new V1Error(429, 'rate_limit_error', 'rate_limited', 'tooMany');
        }
      });
      // Idempotency-Key on the routes that declare `idempotent` (claim, wait, replay, store).
      idempotencyHooks(f, deps);
      v1TxnRoutes(f, deps);
      v1PayByLinkRoutes(f, deps);
      v1InStoreRoutes(f, deps);
      v1ExportRoutes(f, deps);
      v1SettleRoutes(f, deps);
      v1WebhookRoutes(f, deps);
      v1StoreRoutes(f, deps);
      // Other modules' /v1 routes (their manifests' `v1`).
      for (const setup of faceRoutes('v1', modules)) setup(f, deps);
    },
    { prefix: '/v1' },
  );
}
