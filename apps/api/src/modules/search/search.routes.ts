import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SEARCH_MAX_HITS, searchQuerySchema, searchResultSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { HomeApi } from '@portal/contract';
import { search } from './search.service';

/** GET /api/search?q= — the top bar's global search (issue 13, decision 022). */
export function searchRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(HomeApi.search),
    schema: {
      tags: ['search'],
      summary: "Find a record by any of its ids (exact match) across the merchants of the caller's scope",
      description: `q (trimmed, 1–64 characters, no control characters) is compared exactly with: a transaction's merchant order number, channel order number, gateway transaction id, a refund's id; a pay-link or in-store order's order number and invoice id. Only kinds the caller's permissions show are searched (txn:detail; paybylink:detail; payinstore:list). At most ${SEARCH_MAX_HITS} hits, newest first; kind and id name the record's screen.`,
      querystring: inputOf(HomeApi.search)(searchQuerySchema),
      response: { 200: envelope(answerOf(HomeApi.search)(searchResultSchema)) },
    },
    handler: async (req) => ok(await search(deps, userOf(req), req.query.q)),
  });
}
