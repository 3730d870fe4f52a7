import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AsyncResource } from 'node:async_hooks';
import { runInReadScope, type ReadScope } from '../db/db';

const RESOURCE = Symbol('readScope');
type WithScope = FastifyRequest & { [RESOURCE]?: { scope: ReadScope; resource: AsyncResource } };

/**
 * Set on the response of a request that wrote, while a read replica is configured: for its
 * lifetime (the sticky window) the browser's calls read the primary, whichever API process or
 * server answers them. It only routes reads (no authority): a forged one costs primary reads.
 */
export const READ_PRIMARY_COOKIE = 'mp_read_primary';
const COOKIE_RE = new RegExp(`(?:^|;\\s*)${READ_PRIMARY_COOKIE}=1(?:;|$)`);

/**
 * Gives every request its read scope (db.ts, decision 024): the read replica routing learns there
 * whether this request wrote and, once the auth hook resolved it, which session it serves — so a
 * session's lists read the primary for a short while after its own writes. Registered before every
 * other hook. The scope is entered again before validation: parsing a body runs in stream
 * callbacks that lose the async context (the pattern of @fastify/request-context).
 *
 * With a replica (`opts.replica`) a request that wrote answers with the READ_PRIMARY_COOKIE for
 * `opts.stickyMs`, and a request carrying it reads the primary: the in-process window per session
 * does not reach other API processes (WORKERS=N) or servers; the cookie does.
 */
export function registerReadScope(app: FastifyInstance, opts: { replica: boolean; stickyMs: number; secure: boolean }): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const scope: ReadScope = { wrote: false };
    if (opts.replica && COOKIE_RE.test(req.headers.cookie ?? '')) scope.primary = true;
    runInReadScope(scope, () => {
      const resource = new AsyncResource('portal-read-scope');
      (req as WithScope)[RESOURCE] = { scope, resource };
      resource.runInAsyncScope(done, req.raw);
    });
  });
  app.addHook('preValidation', (req, _reply, done) => {
    const held = (req as WithScope)[RESOURCE];
    if (!held) return done();
    // The auth hook (onRequest) has run: the session is known from here on.
    if (req.user) held.scope.session = req.user.sessionId;
    held.resource.runInAsyncScope(done, req.raw);
  });
  if (!opts.replica || opts.stickyMs <= 0) return;
  const cookie = `${READ_PRIMARY_COOKIE}=1; Max-Age=${Math.ceil(opts.stickyMs / 1000)}; Path=/api; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
  app.addHook('onSend', async (req, reply: FastifyReply, payload) => {
    if (!(req as WithScope)[RESOURCE]?.scope.wrote) return payload;
    const prev = reply.getHeader('set-cookie');
    reply.header('set-cookie', [...(prev === undefined ? [] : Array.isArray(prev) ? prev : [String(prev)]), cookie]);
    return payload;
  });
}
