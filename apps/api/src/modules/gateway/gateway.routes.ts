import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HomeApi } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { isDate } from '../../lib/zone';
import { listDifferences } from './recon.service';

const DifferenceSchema = z.object({
  id: z.number(),
  connectionId: z.string(),
  date: z.string(),
  kind: z.string(),
  gwTransId: z.string().nullable(),
  merId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});

/**
 * The feed reconciliation's differences for the merchant side (issue 25 §3): the transactions of
 * the caller's merchants that the gateway and the ledger disagree on, for a day. Same permission as
 * the manual reconciliation screen; scoped to the caller's merchants (control-total rows, which
 * belong to no one merchant, are for operators: `npm run reconcile`).
 */
export function gatewayRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(HomeApi.feedDifferences),
    schema: {
      tags: ['reconciliation'],
      summary:
        "Differences between the gateway's feed and the ledger for a transaction day (missing, extra, amount, status, unreported: a refund, void or charge the portal made that the gateway never reported), of the caller's merchants",
      querystring: inputOf(HomeApi.feedDifferences)(z.strictObject({ date: z.string().refine(isDate, 'a date YYYY-MM-DD'), merId: z.string().max(15).optional() })),
      response: { 200: envelope(answerOf(HomeApi.feedDifferences)(z.array(DifferenceSchema))) },
    },
    handler: async (req) => ok(await listDifferences(deps.db, req.query.date, scopeFor(req, req.query.merId))),
  });
}
