import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OPS_DISPUTE_OUTCOMES, OPS_DISPUTES_READ_ROLES, OPS_DISPUTES_WRITE_ROLES } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
import { operatorOf } from '../ops';
import { detailSchema, disputeQuerySchema, disputeViewSchema, filterOf } from './disputes.routes';
import { enterOutcome, listAllDisputes, opsDisputeDetail } from './disputes.service';

// The administrator may call every ops route (ops.auth.ts).
const READ = OPS_DISPUTES_READ_ROLES;
const WRITE = OPS_DISPUTES_WRITE_ROLES;
const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The back office's disputes (issue 48): provider-wide list and detail; a risk operator enters an outcome a gateway reported by e-mail. */
export function disputeOpsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  // Hidden from the merchant document (X-HIDDEN), shown in the back office's under 'disputes'.
  const tags = ['X-HIDDEN', 'disputes'];
  r.get('/api/ops/disputes', {
    config: { opsRoles: READ },
    schema: {
      tags,
      summary: "Every merchant's disputes (the inbox's filters)",
      querystring: disputeQuerySchema,
      response: { 200: envelope(z.object({ content: z.array(disputeViewSchema), totalElements: z.number() })) },
    },
    handler: async (req) => ok(await listAllDisputes(deps, filterOf(req.query), req.lang)),
  });
  r.get('/api/ops/disputes/:id', {
    config: { opsRoles: READ },
    schema: { tags, summary: 'One dispute (any merchant)', params: idParams, response: { 200: envelope(detailSchema) } },
    handler: async (req) => ok(await opsDisputeDetail(deps, req.params.id, req.lang)),
  });
  r.post('/api/ops/disputes/:id/outcome', {
    config: { opsRoles: WRITE },
    schema: {
      tags,
      summary: 'Enter the outcome a gateway reported by e-mail (under_review, won, lost): the state machine applies, a won chargeback is credited back; audited',
      params: idParams,
      body: z.strictObject({ outcome: z.enum(OPS_DISPUTE_OUTCOMES), note: z.string().max(500).nullish() }),
      response: { 200: envelope(z.null()) },
    },
    handler: async (req) => {
      await enterOutcome(deps, operatorOf(req), req.params.id, req.body.outcome, req.body.note ?? null);
      return ok(null);
    },
  });
}
