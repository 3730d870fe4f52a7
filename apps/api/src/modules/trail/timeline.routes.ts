import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TrailApi } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { findOrders, loadTimeline } from './timeline.service';
import { orderHitSchema, orderSearchQuerySchema, timelineQuerySchema, timelineSchema } from './trail.schemas';

/** One timeline per buyer order (issue 49 §3): find the orders of a reference, open one's timeline. */
export function timelineRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TrailApi.orderSearch),
    schema: {
      tags: ['txn'],
      summary: 'The buyer orders a reference names: order number, gateway id, channel order number, pay-by-link or in-store order, buyer e-mail, or card last 4 + amount + date',
      querystring: inputOf(TrailApi.orderSearch)(orderSearchQuerySchema),
      response: { 200: envelope(answerOf(TrailApi.orderSearch)(z.object({ content: z.array(orderHitSchema) }))) },
    },
    handler: async (req) => ok({ content: await findOrders(deps.db.read, userOf(req).scope, req.query) }),
  });

  r.route({
    ...routeOf(TrailApi.orderTimeline),
    schema: {
      tags: ['txn'],
      summary:
        "One buyer order's timeline: every attempt (online, pay-by-link, in-store), refunds, logistics, the settlement day, the transfer that paid it, and who did what (audit log), in time order",
      querystring: inputOf(TrailApi.orderTimeline)(timelineQuerySchema),
      response: { 200: envelope(answerOf(TrailApi.orderTimeline)(timelineSchema)) },
    },
    handler: async (req) => {
      const t = await loadTimeline(deps.db.read, userOf(req).scope, req.query.merId, req.query.no, deps.config.platformTz);
      if (!t) throw notFound();
      return ok(t);
    },
  });
}
