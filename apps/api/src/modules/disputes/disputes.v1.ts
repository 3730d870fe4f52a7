import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { keyOf, V1Error } from '../v1';
import { DISPUTE_STATES } from './disputes.machine';
import { detailSchema, disputeViewSchema, receiveFile } from './disputes.routes';
import { acceptDispute, addEvidence, assertDisputeVisible, disputeDetail, pageDisputes, saveStatement, submitDispute, type Who } from './disputes.service';
import { EVIDENCE_CATEGORIES } from './reason-codes';

const hidden = ['X-HIDDEN'];
const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const TZ = 'UTC';
const who = (req: FastifyRequest): Who => {
  const k = keyOf(req);
  return { id: k.creatorId, username: `apikey:${k.prefix}`, scope: k.scope, timeZone: TZ };
};
const encode = (id: number) => Buffer.from(`d${id}`).toString('base64url');
const decode = (c: string) => {
  const m = /^d([1-9]\d{0,15})$/.exec(Buffer.from(c, 'base64url').toString());
  if (!m) throw new V1Error(400, 'invalid_request_error', 'parameter_invalid', 'badRequest', { detail: 'cursor' }, 'cursor');
  return Number(m[1]);
};

/** `/v1/disputes` (issue 48): list (cursor paging, newest first), detail, evidence upload, statement, submit, accept. */
export function disputeV1Routes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.get('/disputes', {
    config: { v1: { permission: Perm.disputeView, tag: 'disputes' } },
    schema: {
      tags: hidden,
      operationId: 'listDisputes',
      summary: "The key's merchants' disputes, newest first; cursor paging (limit 1–100, cursor = next_cursor); filter state",
      querystring: z.strictObject({
        limit: z.coerce.number().int().min(1).max(100).default(20),
        cursor: z
          .string()
          .max(40)
          .regex(/^[A-Za-z0-9_-]+$/)
          .optional(),
        state: z.enum(DISPUTE_STATES).optional(),
      }),
      response: { 200: z.object({ data: z.array(disputeViewSchema), has_more: z.boolean(), next_cursor: z.string().nullable() }) },
    },
    handler: async (req) => {
      const out = await pageDisputes(deps, keyOf(req).scope, { cursor: req.query.cursor ? decode(req.query.cursor) : undefined, limit: req.query.limit, state: req.query.state }, TZ);
      return { data: out.data, has_more: out.hasMore, next_cursor: out.nextCursor ? encode(Number(out.nextCursor)) : null };
    },
  });
  r.get('/disputes/:id', {
    config: { v1: { permission: Perm.disputeView, tag: 'disputes' } },
    schema: { tags: hidden, operationId: 'getDispute', summary: 'One dispute with its purchase, refunds, evidence, timeline and settlement lines', params: idParams, response: { 200: detailSchema } },
    handler: async (req) => disputeDetail(deps, keyOf(req).scope, req.params.id, keyOf(req).lang, TZ),
  });
  r.post('/disputes/:id/evidence', {
    config: { v1: { permission: Perm.disputeRespond, tag: 'disputes' } },
    schema: {
      tags: hidden,
      operationId: 'addDisputeEvidence',
      summary: `Add an evidence file (multipart field "file"; query category: ${EVIDENCE_CATEGORIES.join(', ')}): PDF, JPG or PNG by content, ≤ 4.5 MB, ≤ 10 per dispute`,
      consumes: ['multipart/form-data'],
      params: idParams,
      querystring: z.strictObject({ category: z.enum(EVIDENCE_CATEGORIES as [string, ...string[]]).optional() }),
    },
    handler: async (req) => {
      await assertDisputeVisible(deps, keyOf(req).scope, req.params.id);
      return addEvidence(deps, who(req), req.params.id, { category: req.query.category ?? '', ...(await receiveFile(req)) });
    },
  });
  r.post('/disputes/:id/statement', {
    config: { v1: { permission: Perm.disputeRespond, tag: 'disputes' } },
    schema: { tags: hidden, operationId: 'saveDisputeStatement', summary: 'Save the written statement (draft)', params: idParams, body: z.strictObject({ statement: z.string().max(20_000) }) },
    handler: async (req) => {
      await saveStatement(deps, who(req), req.params.id, req.body.statement);
      return { ok: true };
    },
  });
  r.post('/disputes/:id/submit', {
    config: { v1: { permission: Perm.disputeRespond, tag: 'disputes' } },
    schema: { tags: hidden, operationId: 'submitDispute', summary: 'Submit the answer once (evidence immutable after); "sending" until the gateway confirms', params: idParams },
    handler: async (req) => submitDispute(deps, who(req), req.params.id),
  });
  r.post('/disputes/:id/accept', {
    config: { v1: { permission: Perm.disputeRespond, tag: 'disputes' } },
    schema: { tags: hidden, operationId: 'acceptDispute', summary: 'Accept the dispute', params: idParams },
    handler: async (req) => acceptDispute(deps, who(req), req.params.id),
  });
}
