import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';

/** What an incoming X-Request-Id may look like to be kept (anything else: a new id is made). */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** TRUST_PROXY (config.ts: false, a hop count or addresses) → whether the socket's peer is a trusted proxy. */
export function trustedPeer(trustProxy: false | number | string[]): (addr: string | undefined) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return (addr) => !!addr && trustProxy >= 1;
  const trust = proxyAddr.compile(trustProxy);
  return (addr) => !!addr && trust(addr, 0);
}

/**
 * Fastify's genReqId: the X-Request-Id of a request whose socket peer is a trusted proxy
 * (TRUST_PROXY) when it is well formed; otherwise a new UUID. A client's own header is never
 * believed (it could forge another request's id in the log).
 */
export function requestIdOf(trustProxy: false | number | string[]): (req: IncomingMessage) => string {
  const trusted = trustedPeer(trustProxy);
  return (req) => {
    const h = req.headers['x-request-id'];
    if (typeof h === 'string' && REQUEST_ID.test(h) && trusted(req.socket?.remoteAddress)) return h;
    return randomUUID();
  };
}

/**
 * Paths redacted from every log line (pino `redact`): credentials in headers, and any field of a
 * logged object, one or two levels down, that carries a password, a code, a token, a secret or a
 * card number. Request bodies are never logged; this stands behind that rule.
 */
const SECRET_KEYS = ['password', 'newPassword', 'oldPassword', 'verifyCode', 'totp', 'token', 'refreshToken', 'accessToken', 'secret', 'signingSecret', 'cardNo', 'cardNumber', 'pan', 'recoveryCode'];
export const REDACT_PATHS = ['req.headers["x-token"]', 'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'req.body', ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`])];

/**
 * The request id and the access log: the id is answered in `X-Request-Id` and added to every
 * error envelope (`requestId`, beside the spec's code/msg/data) so a merchant can quote it to
 * support; one JSON line per request (Fastify's own two lines are off) with the id, user,
 * merchant, route template, method, status and time. Never the URL's query, a body or a header.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // Error envelopes ({"code":N,…} with N ≠ 0) get the request id. The payload is the serialized
  // JSON here; the envelope's first key is always code (lib/envelope.ts, the error handler).
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || !payload.startsWith('{"code":') || payload.startsWith('{"code":0,')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && !type.startsWith('application/json')) return payload;
    if (!payload.endsWith('}') || payload.includes('"requestId":')) return payload;
    return `${payload.slice(0, -1)},"requestId":${JSON.stringify(req.id)}}`;
  });
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    const line = {
      userId: req.user?.id ?? null,
      merId: req.user?.merId ?? null,
      route: req.routeOptions.url ?? 'unmatched',
      method: req.method,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (status >= 500) req.log.error(line, 'request');
    else req.log.info(line, 'request');
  });
}
