import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet would set, worked out once. Every one of them is static for us (the CSP has
 * no nonces), and @fastify/helmet rebuilds helmet's middleware — parsing the CSP directives — on
 * every request, which was 6 % of a small API call's CPU time.
 */
function helmetHeaders(opts: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(opts)({} as never, res as never, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** Sets the security headers on every reply (API, SPA files, errors, 404s). */
export function registerSecurityHeaders(app: FastifyInstance, opts: HelmetOptions): void {
  const headers = helmetHeaders(opts);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * `Cache-Control: no-store` on every JSON answer of the APIs — the portal's /api, the merchant API
 * /v1, the provider API /provider — unless the route set its own (issue 47): they are a signed-in
 * caller's data (an API key's secret in the key-creation answer, tokens in a sign-in's), which no
 * browser, proxy or CDN may keep. Errors included (they can name the caller's records).
 */
export function registerNoStoreJson(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const url = req.url;
    if ((url.startsWith('/api/') || url.startsWith('/v1/') || url.startsWith('/provider/')) && !reply.hasHeader('cache-control')) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('application/json') || type.includes('+json')) reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}
