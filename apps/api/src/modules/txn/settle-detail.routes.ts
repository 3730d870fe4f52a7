import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TxnApi, settleBatchQuerySchema, settleBatchRowSchema, settleStatementQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { disposition } from '../export';
import { loadStatement, settleBatches, statementCsv, statementFileName, statementPdf } from './settle-detail.service';

/** /txn/settleDetail: settlement batches and each batch's statement (PDF or CSV). */
export function settleDetailRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TxnApi.settleDetail),
    schema: {
      tags: ['txn'],
      summary: 'Settlement batches (one per settlement date, merchant, business line, currency) with their settled, fee, reserve and transfer figures',
      description: 'Each batch opens its transactions with /txn/settleList?beginDate=endDate=txnSetDate; its statement with /txn/settleStatement.',
      querystring: inputOf(TxnApi.settleDetail)(settleBatchQuerySchema),
      response: { 200: envelope(answerOf(TxnApi.settleDetail)(pageOf(settleBatchRowSchema))) },
    },
    handler: async (req) => ok(await settleBatches(deps.db.read, userOf(req).scope, req.query)),
  });

  r.route({
    ...routeOf(TxnApi.settleStatement),
    schema: {
      tags: ['txn'],
      summary: "Statement of one settlement batch, PDF (in the caller's language) or CSV: its transactions and totals, equal to the transfer report row",
      querystring: inputOf(TxnApi.settleStatement)(settleStatementQuerySchema),
    },
    handler: async (req, reply) => {
      const { format, ...key } = req.query;
      const s = await loadStatement(deps.db, userOf(req).scope, key);
      if (!s) throw notFound();
      const name = statementFileName(key, req.lang, format);
      reply.header('Content-Disposition', disposition(name));
      if (format === 'csv') {
        reply.header('Content-Type', 'text/csv; charset=utf-8');
        return reply.send(statementCsv(s, req.lang, deps.config.platformTz));
      }
      reply.header('Content-Type', 'application/pdf');
      return reply.send(await statementPdf(s, req.lang, deps.config.platformTz, deps.clock.now()));
    },
  });
}
