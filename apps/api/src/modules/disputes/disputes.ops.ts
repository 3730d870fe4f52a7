import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OpsWorkApi, OPS_DISPUTE_OUTCOMES } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { operatorOf } from '../ops';
import { detailSchema, disputeQuerySchema, disputeViewSchema, filterOf } from './disputes.routes';
import { enterOutcome, listAllDisputes, opsDisputeDetail } from './disputes.service';

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The back office's disputes (issue 48): provider-wide list and detail; a risk operator enters an outcome a gateway reported by e-mail. */
export function disputeOpsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  // Hidden from the merchant document (X-HIDDEN), shown in the back office's under 'disputes'.
  const tags = ['X-HIDDEN', 'disputes'];
  r.route({
    ...routeOf(OpsWorkApi.disputes),
    schema: {
      tags,
      summary: "Every merchant's disputes (the inbox's filters)",
      querystring: inputOf(OpsWorkApi.disputes)(disputeQuerySchema),
      response: { 200: envelope(answerOf(OpsWorkApi.disputes)(z.object({ content: z.array(disputeViewSchema), totalElements: z.number() }))) },
    },
    handler: async (req) => ok(await listAllDisputes(deps, filterOf(req.query), req.lang)),
  });
  r.route({
    ...routeOf(OpsWorkApi.dispute),
    schema: { tags, summary: 'One dispute (any merchant)', params: inputOf(OpsWorkApi.dispute)(idParams), response: { 200: envelope(answerOf(OpsWorkApi.dispute)(detailSchema)) } },
    handler: async (req) => ok(await opsDisputeDetail(deps, req.params.id, req.lang)),
  });
  r.route({
    ...routeOf(OpsWorkApi.disputeOutcome),
    schema: {
      tags,
      summary: 'Enter the outcome a gateway reported by e-mail (under_review, won, lost): the state machine applies, a won chargeback is credited back; audited',
      params: inputOf(OpsWorkApi.disputeOutcome)(idParams),
      body: inputOf(OpsWorkApi.disputeOutcome)(z.strictObject({ outcome: z.enum(OPS_DISPUTE_OUTCOMES), note: z.string().max(500).nullish() })),
      response: { 200: envelope(answerOf(OpsWorkApi.disputeOutcome)(z.null())) },
    },
    handler: async (req) => {
      await enterOutcome(deps, operatorOf(req), req.params.id, req.body.outcome, req.body.note ?? null);
      return ok(null);
    },
  });
}
