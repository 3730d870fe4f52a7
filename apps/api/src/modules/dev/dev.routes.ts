import path from 'node:path';
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../plugins/context';
import { readOutbox } from '../../plugins/mail';
import { ok } from '../../lib/envelope';
import { routeOf } from '../../lib/endpoint-route';
import { DevApi } from '@portal/contract';
import { notFound } from '../../lib/errors';
import { readSmsOutbox, smsOutboxDir } from '../account';
import { inviteDemoUser, recordFailedJob } from './dev.service';
import type { JobContext } from '../../jobs/runner';
import { settlementJob } from '../payments';
import { monthlyStatementJob } from '../files';
// Issue 48.
import { disputeTick, raiseSandboxDisputes, sandboxGatewayKey, sandboxPurchase } from '../disputes';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopback(addr: string | undefined): boolean {
  if (!addr) return false;
  const a = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  if (net.isIPv4(a)) return a.split('.')[0] === '127';
  return a === '::1';
}

/**
 * The mailbox shows every sign-in code and pay link, so it answers only a caller on this machine:
 * the socket's peer and the client address (after TRUST_PROXY) are both loopback, and no
 * forwarding header says the request came from elsewhere (a local reverse proxy). Anything else
 * answers as if the page did not exist.
 */
export function localOnly(req: FastifyRequest) {
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined;
  if (forwarded || !isLoopback(req.socket.remoteAddress) || !isLoopback(req.ip)) throw notFound();
  if (!sameLocalOrigin(req.headers)) throw notFound();
}

/** A loopback host name, with or without a port. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * The browser side of "this machine only" (issue 28): a page on another site can make a browser
 * on this machine post a form to the loopback port (cross-origin form post), and a rebound DNS
 * name can reach it under a foreign Host. So the Host must name the loopback, and an Origin, when
 * sent, must be that same host (an opaque "null" origin is refused); a Sec-Fetch-Site saying
 * another site sent it is refused too.
 */
export function sameLocalOrigin(h: { host?: string; origin?: string; 'sec-fetch-site'?: string | string[] }): boolean {
  const host = h.host ?? '';
  if (!LOOPBACK_HOST.test(host)) return false;
  if (h.origin !== undefined) {
    let o: URL;
    try {
      o = new URL(h.origin);
    } catch {
      return false;
    }
    if (o.protocol !== 'http:' && o.protocol !== 'https:') return false;
    let self: URL;
    try {
      self = new URL(`${o.protocol}//${host}`);
    } catch {
      return false;
    }
    if (o.host.toLowerCase() !== self.host.toLowerCase()) return false;
  }
  const site = h['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  return true;
}

/**
 * Development only (never registered in production, and only for loopback callers): the outbox of
 * mail written to DATA_DIR/outbox.
 */
export function devRoutes(app: FastifyInstance, deps: Deps) {
  if (deps.config.env === 'production') return;
  const outbox = path.join(deps.config.dataDir, 'outbox');
  app.route({
    ...routeOf(DevApi.mailbox),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Development outbox, newest first (not in production)' },
    handler: async () => ok(await readOutbox(outbox)),
  });
  app.route({
    ...routeOf(DevApi.sms),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Development SMS outbox, newest first (not in production)' },
    handler: async () => ok(readSmsOutbox(smsOutboxDir(deps))),
  });
  // Development stand-in for user management (not in production): a new not-activated sub-user of
  // the demo store, with the activation e-mail sent through the real service. The e2e specs start
  // every account flow from here.
  app.route({
    ...routeOf(DevApi.invite),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Create a not-activated demo sub-user and e-mail its activation link (not in production)' },
    handler: async (req) => {
      const b = (req.body ?? {}) as { username?: string; email?: string };
      if (!b.username || !/^[a-z0-9-]{3,40}$/.test(b.username) || !b.email || !/^[^@\s]+@[^@\s]+$/.test(b.email)) return { code: 400, msg: 'username, email', data: null };
      await inviteDemoUser(deps, { username: b.username, email: b.email }, req.lang, { ip: req.ip, userAgent: req.headers['user-agent'] });
      return ok(null);
    },
  });
  // Development stand-in for the passing of time (not in production): runs the month-end work as if
  // the clock read `at` — the settlement run through the day before, then the monthly statements.
  // The recurring jobs themselves are not moved. The e2e specs use it to reach a month end.
  app.route({
    ...routeOf(DevApi.runJob),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Run the settlement and monthly-statement jobs as of a given instant (not in production)' },
    handler: async (req) => {
      const b = (req.body ?? {}) as { job?: string; at?: string };
      const at = typeof b.at === 'string' ? new Date(b.at) : null;
      if (b.job !== 'monthEnd' || !at || Number.isNaN(at.getTime())) return { code: 400, msg: 'job=monthEnd, at=ISO instant', data: null };
      const ctx = (): JobContext => ({
        db: deps.db,
        clock: { now: () => at },
        log: req.log,
        heartbeat: async () => undefined,
        job: { id: 0, kind: 'dev', unique_key: null, payload: {}, status: 'running', run_at: at, attempts: 1, locked_by: null, locked_at: null, progress: 0, result: null, error: null },
      });
      const settled = await settlementJob(deps.config.platformTz)(ctx());
      const statements = await monthlyStatementJob(deps.config.dataDir, deps.config.platformTz)(ctx());
      return ok({ settlement: settled?.result ?? null, statements: statements?.result ?? null });
    },
  });
  // Development only (not in production): a failed job for the back office's runs screen to show and
  // retry (e2e ops-runs.spec.ts). Kind dev.example has no handler: a retried one stays queued.
  app.route({
    ...routeOf(DevApi.failedJob),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Record a failed job of kind dev.example (not in production)' },
    handler: async () => ok({ id: await recordFailedJob(deps.db) }),
  });
  app.get(
    '/dev/mailbox',
    { config: { auth: 'public' }, schema: { summary: 'Development mailbox page (HTML; loopback callers only, never in production)' }, onRequest: async (req) => localOnly(req) },
    async (_req, reply) => {
      const items = await readOutbox(outbox);
      const sms = readSmsOutbox(smsOutboxDir(deps))
        .map((m) => `<article><header><b>SMS</b> → ${esc(m.to)} <time>${esc(m.date)}</time></header><pre>${esc(m.text)}</pre></article>`)
        .join('\n');
      const rows = items
        .map(
          (m) => `<article><header><b>${esc(m.subject)}</b> → ${esc(m.to)} <time>${esc(m.date)}</time></header>
<pre>${esc(m.text)}</pre>${m.attachments.map((a) => `<div>📎 ${esc(a.filename)} (${a.size} bytes)</div>`).join('')}</article>`,
        )
        .join('\n');
      reply.type('text/html; charset=utf-8');
      return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:12px;margin:12px 0}time{color:#888;font-size:12px}pre{white-space:pre-wrap}</style></head>
<body><h1>Development mailbox</h1><p>${items.length} message(s) in <code>${esc(outbox)}</code>, newest first. Reload to refresh.</p>${rows || '<p>No mail yet.</p>'}<h2>Text messages (SMS)</h2>${sms || '<p>No SMS yet.</p>'}</body></html>`;
    },
  );
  // Issue 48 (not in production): the sandbox raises disputes on the demo purchases on demand (every
  // kind and state, one due tomorrow), and hands a signing key of its own gateway connection so a
  // test can report disputes over the provider API (e2e disputes.spec.ts).
  app.route({
    ...routeOf(DevApi.disputes),
    onRequest: async (req) => localOnly(req),
    schema: { tags: ['dev'], summary: 'Raise sandbox disputes on demo purchases; a gateway key for dispute notifications (not in production)' },
    handler: async (req) => {
      const b = (req.body ?? {}) as { count?: number; key?: boolean; merId?: string; tick?: boolean; purchase?: string };
      const raised = typeof b.count === 'number' && b.count > 0 ? await raiseSandboxDisputes(deps, { count: Math.min(b.count, 50), merIds: b.merId ? [b.merId] : undefined }) : [];
      const key = b.key ? await sandboxGatewayKey(deps) : null;
      const tick = b.tick ? await disputeTick(deps) : null;
      // A settled purchase of merchant `purchase` without a dispute (for a test to dispute).
      const purchase = b.purchase ? await sandboxPurchase(deps, b.purchase) : null;
      return ok({ raised, key, tick, purchase });
    },
  });
}
