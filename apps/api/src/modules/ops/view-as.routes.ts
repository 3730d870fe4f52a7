import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsViewAsSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsWorkApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { endViewAs, listViewAs, startViewAs } from './view-as.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const tag = (name: string) => ['X-HIDDEN', name];
const merParam = z.object({ merId: z.string().regex(/^\d{15}$/, 'merchant id') });
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const viewAsRow = z.object({
  id: z.number(),
  merId: z.string(),
  merName: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  endReason: z.enum(['operator', 'expired', 'operator-session-ended', 'replaced']).nullable(),
});

/** Support "view as" (issue 26, decision 046): the support role (and the administrator). */
export function viewAsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(OpsWorkApi.viewAs),
    schema: {
      tags: tag('support'),
      summary: "Open the merchant's portal read-only for 30 minutes with a stated reason (audited in the back office and in the merchant's own log)",
      description:
        'Answers a view-as token for X-Token on the merchant API (/api/…): GET routes of an allow-list only; every change, export and download is refused (403). It ends when the operator ends it, after 30 minutes, or when the operator signs out or is disabled. Opening another ends the previous one.',
      params: inputOf(OpsWorkApi.viewAs)(merParam),
      body: inputOf(OpsWorkApi.viewAs)(opsViewAsSchema),
      response: { 200: envelope(answerOf(OpsWorkApi.viewAs)(z.object({ id: z.number(), token: z.string(), merId: z.string(), merName: z.string(), expiresAt: z.string() }))) },
    },
    handler: async (req) => ok(await startViewAs(deps, operatorOf(req), req.params.merId, req.body.reason, meta(req))),
  });
  r.route({
    ...routeOf(OpsWorkApi.endViewAs),
    schema: {
      tags: tag('support'),
      summary: 'End one of your own view-as sessions (audited on both sides)',
      params: inputOf(OpsWorkApi.endViewAs)(idParam),
      response: { 200: envelope(answerOf(OpsWorkApi.endViewAs)(z.null())) },
    },
    handler: async (req) => ok(await endViewAs(deps, operatorOf(req), req.params.id, meta(req))),
  });
  r.route({
    ...routeOf(OpsWorkApi.viewAsList),
    schema: {
      tags: tag('support'),
      summary: 'Your last 20 view-as sessions, newest first (expired ones are ended here)',
      response: { 200: envelope(answerOf(OpsWorkApi.viewAsList)(z.array(viewAsRow))) },
    },
    handler: async (req) => ok(await listViewAs(deps, operatorOf(req))),
  });
}
