import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_STATUSES, JOB_STATUSES, opsRunDateParam, opsSettlementRunsQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsWorkApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { listExports, listGateways, listJobs, listSettlementRuns, rerunSettlement, retryJob } from './runs.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const tag = (name: string) => ['X-HIDDEN', name];
const s = z.string().nullable();
const n = z.number().nullable();
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const totals = z.object({ currency: z.string(), rows: z.number(), txnCount: z.number(), reconAmount: z.string(), feeAmount: z.string(), transAmount: z.string() });
const attempt = z.object({
  id: z.number(),
  state: z.enum(['running', 'done', 'skipped', 'failed']),
  trigger: z.enum(['job', 'cli', 'operator']),
  operator: s,
  startedAt: z.string(),
  endedAt: s,
  txnCount: n,
  rowCount: n,
  unconverted: n,
  error: s,
});
const runRow = z.object({
  date: z.string(),
  state: z.enum(['running', 'done', 'failed', 'pending']),
  txnCount: n,
  rowCount: n,
  finishedAt: s,
  totals: z.array(totals),
  attempts: z.array(attempt),
});
const exportRow = z.object({
  id: z.number(),
  merId: z.string(),
  merName: z.string(),
  kind: z.string(),
  format: z.string(),
  status: z.enum(EXPORT_STATUSES),
  requestedBy: z.string(),
  scheduled: z.boolean(),
  createdAt: z.string(),
  startedAt: s,
  finishedAt: s,
  sizeBytes: n,
  rowCount: n,
  attempts: z.number(),
  error: s,
});
const jobRow = z.object({
  id: z.number(),
  kind: z.string(),
  key: s,
  status: z.enum(JOB_STATUSES),
  attempts: z.number(),
  progress: z.number(),
  runAt: z.string(),
  createdAt: z.string(),
  finishedAt: s,
  error: s,
});
const gatewayRow = z.object({
  id: z.string(),
  name: z.string(),
  merchants: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
  activeKeys: z.number(),
  txnCount: z.number(),
  lastTxnAt: s,
  imports: z.number(),
  differences: z.number(),
  lastImport: z
    .object({
      id: z.number(),
      fileName: z.string(),
      status: z.string(),
      rowsRead: z.number(),
      accepted: z.number(),
      duplicate: z.number(),
      rejected: z.number(),
      controlOk: z.boolean().nullable(),
      message: s,
      startedAt: z.string(),
      finishedAt: s,
    })
    .nullable(),
});

/**
 * The runs screen's routes (issue 26, decision 045), registered by ops.routes.ts inside the ops
 * API's context (its authentication and its OpenAPI document at /api/ops/docs).
 */
export function runsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(OpsWorkApi.settlementRuns),
    schema: {
      tags: tag('runs'),
      summary: 'Settlement runs per date (newest first, at most 92 days): state, counts, totals per settlement currency (minor units), every attempt and who started it',
      querystring: inputOf(OpsWorkApi.settlementRuns)(opsSettlementRunsQuerySchema),
      response: {
        200: envelope(
          answerOf(OpsWorkApi.settlementRuns)(
            z.object({
              lastRunDate: s,
              yesterday: z.string(),
              content: z.array(runRow),
              waitingForRate: z
                .object({ total: z.number(), pairs: z.array(z.object({ pair: z.string(), count: z.number(), since: s })) })
                .describe('transactions a run left for want of an exchange rate, per pair (from>to) and since which settlement date; the next run after the rate arrives settles them'),
            }),
          ),
        ),
      },
    },
    handler: async (req) => ok(await listSettlementRuns(deps, req.query.from, req.query.to)),
  });
  r.route({
    ...routeOf(OpsWorkApi.rerun),
    schema: {
      tags: tag('runs'),
      summary:
        'Run a settlement date again, idempotently: a completed date changes nothing (recorded as skipped; late transactions go to the next run); a failed one is run now, after any earlier date left behind. One at a time per date (409). Audited.',
      params: inputOf(OpsWorkApi.rerun)(opsRunDateParam),
      response: {
        200: envelope(
          answerOf(OpsWorkApi.rerun)(z.object({ date: z.string(), skipped: z.boolean(), txnCount: z.number(), rowCount: z.number(), unconverted: z.number(), alsoRan: z.array(z.string()) })),
        ),
      },
    },
    handler: async (req) => ok(await rerunSettlement(deps, req.params.date, operatorOf(req), meta(req))),
  });
  r.route({
    ...routeOf(OpsWorkApi.exports),
    schema: {
      tags: tag('runs'),
      summary: "Merchants' exports and scheduled reports' files: queued and running first, then the newest (200)",
      querystring: inputOf(OpsWorkApi.exports)(z.object({ status: z.enum(EXPORT_STATUSES).optional() })),
      response: { 200: envelope(answerOf(OpsWorkApi.exports)(z.array(exportRow))) },
    },
    handler: async (req) => ok(await listExports(deps, req.query.status)),
  });
  r.route({
    ...routeOf(OpsWorkApi.jobs),
    schema: {
      tags: tag('runs'),
      summary: 'Durable jobs (settlement, mails, partitions…): failed first with their error, then the newest (200)',
      querystring: inputOf(OpsWorkApi.jobs)(z.object({ status: z.enum(JOB_STATUSES).optional() })),
      response: { 200: envelope(answerOf(OpsWorkApi.jobs)(z.array(jobRow))) },
    },
    handler: async (req) => ok(await listJobs(deps, req.query.status)),
  });
  r.route({
    ...routeOf(OpsWorkApi.retryJob),
    schema: {
      tags: tag('runs'),
      summary: 'Queue a failed job again: the same job (kind, payload, idempotency key) with fresh attempts. Only a failed job (409). Audited.',
      params: inputOf(OpsWorkApi.retryJob)(idParam),
      response: { 200: envelope(answerOf(OpsWorkApi.retryJob)(z.object({ id: z.number(), kind: z.string(), key: s, status: z.literal('queued') }))) },
    },
    handler: async (req) => ok(await retryJob(deps, req.params.id, operatorOf(req), meta(req))),
  });
  r.route({
    ...routeOf(OpsWorkApi.gateways),
    schema: {
      tags: tag('runs'),
      summary: 'Gateway connections: merchants, active keys, transactions, reconciliation differences and the last file import’s report',
      response: { 200: envelope(answerOf(OpsWorkApi.gateways)(z.array(gatewayRow))) },
    },
    handler: async () => ok(await listGateways(deps)),
  });
}
