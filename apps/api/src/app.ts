import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Code, pickLanguage } from '@portal/contract';
import type { Deps } from './plugins/context';
import { registerAuth } from './plugins/auth';
import { registerReadScope } from './plugins/read-scope';
import { registerNoStoreJson, registerSecurityHeaders } from './plugins/security-headers';
import { pgRateLimitStore } from './plugins/rate-limit-store';
import { AppError } from './lib/errors';
import { t } from './lib/messages';
import { InvalidInput, issuesDetail, issuesOfValidation } from './lib/validation';
import { registerFaces, registerModules } from './modules/registry';
import { MODULES } from './modules/index';
import { providerFace } from './faces/provider/provider.routes';
import { portalDocTransform } from './lib/openapi';
import { registerRequestLog, REDACT_PATHS, requestIdOf } from './plugins/request-log';
import { registerMetrics } from './plugins/metrics';
import { registerHealth } from './plugins/health';
import { compressPage, ssrPages } from './plugins/ssr';

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // antd (CSS-in-JS) injects <style> elements at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Response types compressed on the fly (JSON answers, the API description). */
const COMPRESSED_TYPES = /^(application\/json|text\/html|text\/css|application\/javascript|text\/javascript)\b/;
/** A hop count as Fastify's trust function: the n addresses nearest to us are proxies. */
const hops = (n: number) => (_addr: string, i: number) => i < n;

/** Builds the whole API (and the SPA it serves). Dependencies come in; nothing listens here. */
export async function buildApp(
  deps: Deps,
  opts: {
    logger?: boolean;
    onRoute?: (route: RouteOptions) => void;
    /** Where log lines go (tests capture them); stdout when unset. */
    logStream?: { write(line: string): void };
    /** This process runs the job runner: /readyz checks that it ticks (server.ts). */
    jobRunner?: boolean;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger
      ? {
          level: deps.config.logLevel,
          redact: REDACT_PATHS,
          ...(opts.logStream ? { stream: opts.logStream } : {}),
        }
      : false,
    // Issue 27: one access-log line per request (plugins/request-log.ts) instead of Fastify's two;
    // the request id from a trusted proxy's X-Request-Id, else made here.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdOf(deps.config.trustProxy),
    // Forwarded headers are believed only from the configured proxies (TRUST_PROXY, off by default):
    // req.ip — used by the rate limits and the audit log — is the real client address.
    trustProxy: typeof deps.config.trustProxy === 'number' ? hops(deps.config.trustProxy) : deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Errors the router answers before any hook (an over-long path parameter, a malformed URL):
    // the envelope too, in the caller's language.
    frameworkErrors: (err, req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      const detail = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'path parameter too long' : 'malformed URL';
      void (reply as FastifyReply).status(status).send({ code: Code.BAD_REQUEST, msg: t(pickLanguage(req.headers['accept-language']), 'badRequest', { detail }), data: null });
    },
  });
  // Tests collect the route table here (the route-table-driven security suite).
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  // First of every request hook: the read replica routing's scope (db.read, decision 024).
  registerReadScope(app, { replica: !!deps.config.replicaUrl, stickyMs: deps.config.replicaStickyMs, secure: deps.config.publicUrl.startsWith('https:') });
  // Issue 27 (operations): request ids and the access log, the HTTP metrics, /healthz /readyz /metrics.
  registerRequestLog(app);
  registerMetrics(app, deps);
  registerHealth(app, { db: deps.db, maxReplicaLagSeconds: deps.config.readyMaxReplicaLagSeconds, jobRunner: !!opts.jobRunner });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerSecurityHeaders(app, {
    // The live-chat widget (when configured) is the one outside page the portal may frame.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: deps.config.chatWidgetUrl ? { ...CSP_DIRECTIVES, frameSrc: ["'self'", new URL(deps.config.chatWidgetUrl).origin] } : CSP_DIRECTIVES,
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  // Issue 47: no API answer in JSON is kept by a cache (the key-creation answer holds a secret).
  registerNoStoreJson(app);
  await app.register(formbody);
  // API answers above 1 KiB compressed for clients that accept it (brotli at a fast level, gzip).
  // Files of the built SPA are not compressed here: the build wrote .br/.gz copies (preCompressed below).
  // Exports (CSV, XLSX) stream as they are.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], customTypes: COMPRESSED_TYPES });
  // Uploads (logistics import, statements, attachments): 5 MiB per file (spec §9), one file per request.
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 20 } });
  // On PostgreSQL the counters live in the database, shared by every API process (WORKERS=N);
  // PGlite is one process, whose memory is enough.
  await app.register(rateLimit, { global: false, ...(deps.db.kind === 'postgres' ? { store: pgRateLimitStore(deps.db) } : {}) });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Merchant portal API',
        version: '1.0.0',
        license: { name: 'Proprietary', url: `${deps.config.publicUrl}/api/docs` },
        description:
          'Envelope {code,msg,data}; code 0 success, 3 access token expired (refresh once), -1/50012/50014 logged out. Lists: data = {content,totalElements}, page 0-based. Form posts are application/x-www-form-urlencoded. Headers: Accept-Language (zh, en, ko, ja), X-Token, X-Timezone-Offset (hours). See docs/api.md.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      security: [{ token: [] }],
      servers: [{ url: deps.config.publicUrl, description: 'This portal' }],
    },
    // Issue 31: operationIds, the error answers and OpenAPI 3.0 nullables (lib/openapi.ts).
    transform: portalDocTransform(jsonSchemaTransform),
  });
  // API_DOCS (issue 28): 'off' serves no description; 'auth' puts it behind the sign-in (auth hook).
  if (deps.config.apiDocs !== 'off') await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });

  registerAuth(app, deps);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof InvalidInput) {
      return reply.status(400).send({ code: Code.BAD_REQUEST, msg: t(lang, 'badRequest', { detail: issuesDetail(lang, err.issues) }), data: null });
    }
    if (err instanceof AppError) {
      return reply.status(err.httpStatus).send({ code: err.code, msg: t(lang, err.key, err.params), data: err.data ?? null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const detail = issuesDetail(lang, issuesOfValidation(err.validation));
      return reply.status(400).send({ code: Code.BAD_REQUEST, msg: t(lang, 'badRequest', { detail }), data: null });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ code: Code.TOO_MANY, msg: t(lang, 'tooMany'), data: null });
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: status, msg: t(lang, 'badRequest', { detail: err.message }), data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: Code.SERVER_ERROR, msg: req.id ? t(lang, 'serverErrorRef', { ref: String(req.id) }) : t(lang, 'serverError'), data: null });
  });

  // Every module from its manifest (modules/index.ts): hooks, metrics, portal routes, in the list's order.
  const modules = registerModules(app, deps, MODULES);
  // Issue 25: the provider face (/provider/v1, signed gateway requests; its document at /api/provider/docs).
  await providerFace(app, deps, modules);
  // The faces the modules host — issue 31: the merchant REST API (/v1, API keys; its document at /v1/docs).
  await registerFaces(app, deps, modules);

  // The built SPA: files as they are, every other GET outside /api → index.html (client routing).
  const dist = deps.config.webDist;
  const hasWeb = fs.existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // file.br / file.gz written by the build (apps/web/build/precompress.ts), chosen by Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, file) => {
        res.header('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // A signed-in visitor's list screens are rendered here (decision 050); null when off or not built.
  const pages = hasWeb ? ssrPages(app, dist, deps.config.ssr === 'on') : null;
  // Its 6 MB module (~55 MB of a process) loads when the portal is first used — the first request
  // that carries a session — not at start: a server no one has signed in to stays small at rest
  // (issue 52), and a signed-in user's first page load still finds it loaded (the SPA's own calls
  // carry the token long before a reload).
  app.decorate('rendererLoaded', () => pages?.loaded() ?? false);
  if (pages) {
    let warmed = false;
    app.addHook('onRequest', async (req) => {
      if (warmed || !(req.headers['x-token'] || req.headers.cookie?.includes('mp_token='))) return;
      warmed = true;
      pages.warm();
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    // (Not /dev/…: the development pages are server routes, absent in production — never the SPA shell.)
    if (req.method === 'GET' && hasWeb && !req.url.startsWith('/api/') && !req.url.startsWith('/dev/')) {
      const t0 = performance.now();
      const page = pages && !req.url.startsWith('/pay/') ? await pages.render(req) : null;
      if (page !== null) {
        // The visitor's own data: never kept by a cache, and never one visitor's page for another's.
        // Server-Timing: the render's time, for the browser's tools and the bench.
        const { body, encoding } = await compressPage(page, req.headers['accept-encoding']);
        if (encoding) reply.header('Content-Encoding', encoding);
        return reply
          .header('Cache-Control', 'private, no-store')
          .header('Vary', 'Cookie, Accept-Encoding')
          .header('Server-Timing', `ssr;dur=${(performance.now() - t0).toFixed(1)}`)
          .type('text/html; charset=utf-8')
          .send(body);
      }
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(req.url.startsWith('/pay/') && fs.existsSync(path.join(dist, 'pay.html')) ? 'pay.html' : 'index.html');
    }
    return reply.status(404).send({ code: Code.NOT_FOUND, msg: t(req.lang ?? 'en', 'notFound'), data: null });
  });
  return app;
}
