/** Test helpers of the webhook suites (not used by the app): a loopback receiver and endpoint set-up. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestCtx } from '../../../test/helpers';
import type { SessionUser } from '../../plugins/context';
import { createEndpoint } from './webhook.service';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; merId: string; data: Record<string, unknown> };
}

/** An HTTP receiver on 127.0.0.1 answering each request with the next status of `statuses` (the last one repeats). */
export async function startReceiver(statuses: number[] = [200]) {
  const got: Received[] = [];
  let plan = [...statuses];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      got.push({ headers: req.headers, body, event: JSON.parse(body) });
      const status = plan.length > 1 ? plan.shift()! : plan[0];
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `nope ${'x'.repeat(3000)}` : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    got,
    answer(next: number[]) {
      plan = [...next];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The demo administrator as a session user with the given scope (for service-level set-up). */
export async function demoUser(ctx: TestCtx, scope: string[]): Promise<SessionUser> {
  const { rows } = await ctx.db.query<{ id: number; username: string; email: string; mer_id: string }>("SELECT id, username, email, mer_id FROM app_user WHERE username = 'demo'");
  const u = rows[0];
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    merId: u.mer_id,
    merName: '',
    userType: 'MAIN',
    userAdmin: true,
    permissions: ['developer:manage'],
    sessionId: 0,
    scope,
    stepUpUntil: null,
  };
}

export async function addEndpoint(ctx: TestCtx, merId: string, url: string, events: string[]) {
  return createEndpoint(ctx.deps, await demoUser(ctx, [merId]), 'en', { merId, url, events: events as never, description: '' }, {});
}
