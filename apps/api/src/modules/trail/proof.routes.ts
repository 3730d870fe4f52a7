import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, TrailApi } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { safeFileName } from '../../lib/filename';
import { badZone, checkZone, proofCsv, proofFileName, proofPdf, proofWithRows } from './proof.export';
import { loadProof, loadProofRows, parseTransferId } from './proof.service';
import { proofExportQuerySchema, proofRowsQuerySchema, proofRowsSchema, proofSchema, transferIdParam } from './trail.schemas';

const keyOrMissing = (id: string) => {
  const k = parseTransferId(id);
  if (!k) throw notFound();
  return k;
};

/**
 * The payout proof (issue 49 §1): a transfer's deposit as lines that add up to the amount sent to
 * the bank, and each line's rows. Permission: the transfer report's; another merchant's transfer
 * (or a settlement row that is not a transfer) answers as absent.
 */
export function proofRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TrailApi.proof),
    schema: {
      tags: ['report'],
      summary:
        'Payout proof of one transfer: its lines (settled by brand and currency, refunds, fees, reserve held and released, manual entries, other types, transfer fee), which sum to the amount sent',
      description: "id: date.merchant.businessLine.currency (the transfer report row). Each line's rows: /api/trail/transfer/{id}/proof/rows?line=key.",
      params: inputOf(TrailApi.proof)(transferIdParam),
      response: { 200: envelope(answerOf(TrailApi.proof)(proofSchema)) },
    },
    handler: async (req) => {
      const p = await loadProof(deps.db.read, userOf(req).scope, keyOrMissing(req.params.id), req.lang);
      if (!p) throw notFound();
      return ok(p);
    },
  });

  r.route({
    ...routeOf(TrailApi.proofRows),
    schema: {
      tags: ['report'],
      summary: 'The rows behind one line of a payout proof (a 0-based page), their count and their sum (the total row, equal to the line)',
      params: inputOf(TrailApi.proofRows)(transferIdParam),
      querystring: inputOf(TrailApi.proofRows)(proofRowsQuerySchema),
      response: { 200: envelope(answerOf(TrailApi.proofRows)(proofRowsSchema)) },
    },
    handler: async (req) => {
      const p = await loadProofRows(deps.db.read, userOf(req).scope, keyOrMissing(req.params.id), req.query.line, req.query.page, req.query.size, req.lang);
      if (!p) throw notFound();
      return ok(p);
    },
  });

  r.route({
    ...routeOf(TrailApi.proofExport),
    schema: {
      tags: ['report'],
      summary: "The payout proof as a file, CSV or PDF, in the caller's language: currency and time zone stated, each line with every row beneath it and their total, then the amount sent",
      description: `PDF up to 20,000 rows (beyond: CSV). timeZone: the IANA zone of the times (default: the user's).`,
      params: inputOf(TrailApi.proofExport)(transferIdParam),
      querystring: inputOf(TrailApi.proofExport)(proofExportQuerySchema),
    },
    handler: async (req, reply) => {
      const key = keyOrMissing(req.params.id);
      const u = userOf(req);
      const zone = exportZone(req.query.timeZone, u.timeZone, req.tzOffset);
      if (!zone) throw badZone(req.lang, req.query.timeZone ?? '');
      const got = await proofWithRows(deps.db.read, u.scope, key);
      if (!got) throw notFound();
      const { format } = req.query;
      const body = format === 'csv' ? proofCsv(got.raw, got.rows, req.lang, zone, deps.config.platformTz) : await proofPdf(got.raw, got.rows, req.lang, zone, deps.config.platformTz, deps.clock.now());
      reply.header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf');
      reply.header('Content-Disposition', disposition(proofFileName(key, req.lang, format)));
      reply.header('Cache-Control', 'no-store');
      return reply.send(body);
    },
  });
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987), as the export module's. */
function disposition(raw: string): string {
  const name = safeFileName(raw) || 'download';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The zone an export's times are shown in: asked (IANA), else the user's chosen zone, else the browser's offset. */
function exportZone(asked: string | undefined, chosen: string | null | undefined, tzOffset: number): string | null {
  if (asked) return checkZone(asked) ? asked : null;
  if (chosen && checkZone(chosen)) return chosen;
  // Etc/GMT zones count west-positive: UTC+8 is Etc/GMT-8.
  return tzOffset === 0 ? 'UTC' : `Etc/GMT${tzOffset > 0 ? '-' : '+'}${Math.abs(tzOffset)}`;
}

/** /v1/transfers/{id}/proof: the same lines for merchants' systems (API key with the transfer report's permission). */
export function proofV1Routes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  r.get('/transfers/:id/proof', {
    config: { v1: { permission: Perm.reportTransfer, tag: 'settlements' } },
    schema: {
      tags: ['X-HIDDEN'],
      operationId: 'getTransferProof',
      summary: "A transfer's payout proof: the lines (signed, settlement currency) that sum to the amount sent to the bank (id: date.merchant.businessLine.currency)",
      params: transferIdParam,
      response: { 200: z.object({ data: proofSchema }) },
    },
    handler: async (req) => {
      const key = req.apiKey;
      if (!key) throw notFound();
      const p = await loadProof(deps.db.read, key.scope, keyOrMissing(req.params.id), key.lang);
      if (!p) throw notFound();
      return { data: p };
    },
  });
}
