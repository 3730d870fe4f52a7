import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cashCalendarQuerySchema, cashCalendarSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { HomeApi } from '@portal/contract';
import { cashCalendar } from './calendar.service';

/** The dashboard's cash calendar (beyond the spec; documented in docs/api.md and /api/docs). */
export function dashboardRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(HomeApi.cashCalendar),
    schema: {
      tags: ['report'],
      summary:
        'Cash calendar: per day (from today, platform zone) and settlement currency, transfers decided by the settlement run (by remit date), carried balances projected onto their next transfer, and reserve releases',
      querystring: inputOf(HomeApi.cashCalendar)(cashCalendarQuerySchema),
      response: { 200: envelope(answerOf(HomeApi.cashCalendar)(cashCalendarSchema)) },
    },
    handler: async (req) => ok(await cashCalendar(deps, scopeFor(req, req.query.merId), req.query.days)),
  });
}
