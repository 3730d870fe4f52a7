import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsRateHistoryQuerySchema, opsRateProposeSchema, opsRatesQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsWorkApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { decideRate, listOpsRates, opsRateHistory, proposeRate } from './rates.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const tag = ['X-HIDDEN', 'rates'];
const s = z.string().nullable();
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const reasonBody = z.object({
  reason: z
    .string()
    .trim()
    .min(3)
    .max(500)
    .refine((v) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(v), 'control characters'),
});

const rate = z.object({ date: z.string(), from: z.string(), to: z.string(), rate: z.string(), entryId: z.number(), source: z.string(), sourceRef: s, versions: z.number(), settledCount: z.number() });
const request = z.object({
  id: z.number(),
  date: z.string(),
  from: z.string(),
  to: z.string(),
  rate: z.string(),
  correction: z.boolean(),
  note: s,
  status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: s,
  decidedAt: s,
  reason: s,
  entryId: z.number().nullable(),
  currentRate: s,
  settledWithCurrent: z.number(),
});
const version = z.object({
  entryId: z.number(),
  rate: z.string(),
  source: z.string(),
  sourceRef: s,
  supersedes: z.number().nullable(),
  createdAt: z.string(),
  settledCount: z.number(),
  current: z.boolean(),
});

/** The exchange-rates screen's routes (issue 46), inside the ops API's context (registered by ops.routes.ts). */
export function ratesRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(OpsWorkApi.rates),
    schema: {
      tags: tag,
      summary: 'Exchange rates in force for the days from–to (at most 92 days; optionally one pair "USD>HKD"), newest first, and the entered rates waiting for a second operator',
      querystring: inputOf(OpsWorkApi.rates)(opsRatesQuerySchema),
      response: { 200: envelope(answerOf(OpsWorkApi.rates)(z.object({ rates: z.array(rate), pending: z.array(request) }))) },
    },
    handler: async (req) => ok(await listOpsRates(deps, req.query)),
  });
  r.route({
    ...routeOf(OpsWorkApi.rateHistory),
    schema: {
      tags: tag,
      summary: "Every version of one pair's rate of a day (the corrections, where each came from, how many settled transactions each converted) and every request made for it",
      querystring: inputOf(OpsWorkApi.rateHistory)(opsRateHistoryQuerySchema),
      response: { 200: envelope(answerOf(OpsWorkApi.rateHistory)(z.object({ date: z.string(), from: z.string(), to: z.string(), versions: z.array(version), requests: z.array(request) }))) },
    },
    handler: async (req) => ok(await opsRateHistory(deps, req.query.date, req.query.from, req.query.to)),
  });
  r.route({
    ...routeOf(OpsWorkApi.proposeRate),
    schema: {
      tags: tag,
      summary:
        'Enter a rate (four eyes: stored only when another operator approves). Another rate for a day and pair that has one must be a correction (409 otherwise); a correction never changes settled money (settledWithCurrent says how many settled transactions keep the rate in force). Audited.',
      body: inputOf(OpsWorkApi.proposeRate)(opsRateProposeSchema),
      response: { 200: envelope(answerOf(OpsWorkApi.proposeRate)(z.object({ id: z.number(), status: z.literal('PENDING'), currentRate: s, settledWithCurrent: z.number() }))) },
    },
    handler: async (req) => ok(await proposeRate(deps, req.body, operatorOf(req), meta(req))),
  });
  for (const [endpoint, decision] of [
    [OpsWorkApi.approveRate, 'APPROVED'],
    [OpsWorkApi.rejectRate, 'REJECTED'],
  ] as const) {
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: tag,
        summary: `${decision === 'APPROVED' ? 'Approve (the rate is stored as a new version)' : 'Reject'} a pending rate with a reason; the operator who entered it may not (403). Audited.`,
        params: idParam,
        body: reasonBody,
        response: {
          200: envelope(answerOf(endpoint)(z.object({ id: z.number(), status: z.enum(['APPROVED', 'REJECTED']), entryId: z.number().nullable(), msg: s, settledWithPrevious: z.number() }))),
        },
      },
      handler: async (req) => ok(await decideRate(deps, req.params.id, decision, req.body.reason, operatorOf(req), req.lang, meta(req))),
    });
  }
}
