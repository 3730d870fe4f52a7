import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { Code } from '@portal/contract';
import type { Deps } from './plugins/context';
import { registerAuth } from './plugins/auth';
import { registerSecurityHeaders } from './plugins/security-headers';
import { AppError } from './lib/errors';
import { t } from './lib/messages';
import { userRoutes } from './modules/user/user.routes';
import { merchantRoutes } from './modules/merchant/merchant.routes';
import { noticeRoutes } from './modules/notice/notice.routes';
import { devRoutes } from './modules/dev/dev.routes';
import { registerModules } from './modules/registry';

export const CSP_DIRECTIVES = {
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

/** Builds the whole API (and the SPA it serves). Dependencies come in; nothing listens here. */
export async function buildApp(deps: Deps, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger
      ? {
          level: deps.config.logLevel,
          redact: ['req.headers["x-token"]', 'req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.refreshToken'],
        }
      : false,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(formbody);
  // Uploads (logistics import, statements, attachments): 5 MiB per file (spec §9), one file per request.
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 20 } });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Merchant portal API',
        version: '1.0.0',
        description:
          'Envelope {code,msg,data}; code 0 success, 3 access token expired (refresh once), -1/50012/50014 logged out. Lists: data = {content,totalElements}, page 0-based. Form posts are application/x-www-form-urlencoded. Headers: Accept-Language (zh, en, ko, ja), X-Token, X-Timezone-Offset (hours). See docs/api.md.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });

  registerAuth(app, deps);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) {
      return reply.status(err.httpStatus).send({ code: err.code, msg: t(lang, err.key, err.params), data: err.data ?? null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const detail = err.validation.map((v) => `${v.instancePath.replace(/^\//, '') || (v.params as { issue?: { path?: string[] } })?.issue?.path?.join('.') || 'input'}: ${v.message}`).join('; ');
      return reply.status(400).send({ code: Code.BAD_REQUEST, msg: t(lang, 'badRequest', { detail }), data: null });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ code: Code.TOO_MANY, msg: t(lang, 'tooMany'), data: null });
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: status, msg: t(lang, 'badRequest', { detail: err.message }), data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: Code.SERVER_ERROR, msg: t(lang, 'serverError'), data: null });
  });

  userRoutes(app, deps);
  merchantRoutes(app, deps);
  noticeRoutes(app, deps);
  registerModules(app, deps);
  if (deps.config.env !== 'production') devRoutes(app, deps);

  // The built SPA: files as they are, every other GET outside /api → index.html (client routing).
  const dist = deps.config.webDist;
  const hasWeb = fs.existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        res.header('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && hasWeb && !req.url.startsWith('/api/')) {
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(req.url.startsWith('/pay/') && fs.existsSync(path.join(dist, 'pay.html')) ? 'pay.html' : 'index.html');
    }
    return reply.status(404).send({ code: Code.NOT_FOUND, msg: t(req.lang ?? 'en', 'notFound'), data: null });
  });
  return app;
}
