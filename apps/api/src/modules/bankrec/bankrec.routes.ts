import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BankrecApi,
  Code,
  bankBulkConfirmSchema,
  bankCsvMappingOutSchema,
  bankCsvMappingSaveSchema,
  bankImportResultSchema,
  bankManualMatchSchema,
  bankMatchIdSchema,
  bankMatchSchema,
  bankMatchingQuerySchema,
  bankMatchingSchema,
  bankMerQuerySchema,
  bankStatementQuerySchema,
  bankStatementRowSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import { rangeTooLong, reversedRange } from '../../lib/validation';
import { STATEMENT_MAX_BYTES } from './parse/types';
import { confirmMatches, getCsvMappingFor, importStatementFile, listStatementRows, manualMatch, matchingView, runMatching, saveCsvMappingFor, undoMatch } from './bankrec.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const zoneOf = (req: FastifyRequest) => userOf(req).timeZone ?? req.tzOffset;

/** The multipart upload: the statement file (≤ 32 MiB) and the fields merId, acceptUnbalanced. */
async function readUpload(req: FastifyRequest): Promise<{ name: string; buf: Buffer; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError(Code.BAD_REQUEST, 'bankUploadMissing', {}, 400);
  const fields: Record<string, string> = {};
  let file: { name: string; buf: Buffer } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 5 } })) {
      if (part.type === 'file') file = { name: part.filename || 'statement', buf: await part.toBuffer() };
      else fields[part.fieldname] = String(part.value ?? '');
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Code.BAD_REQUEST, 'bankFileTooLarge', { max: `${STATEMENT_MAX_BYTES / 1024 / 1024} MiB` }, 400);
    throw err;
  }
  if (!file || !file.buf.length) throw new AppError(Code.BAD_REQUEST, 'bankUploadMissing', {}, 400);
  return { ...file, fields };
}

const uploadFields = z.strictObject({
  merId: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{15}$/)
      .optional(),
  ),
  acceptUnbalanced: z.enum(['true', 'false']).default('false'),
});

/** Bank statements (issue 49 §2): upload, the statement list, the matching screen, confirm / undo. */
export function bankrecRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['bankrec'];

  r.route({
    ...routeOf(BankrecApi.statements),
    schema: {
      tags,
      summary: "Imported bank statements of the caller's merchants (or merId), newest first",
      querystring: inputOf(BankrecApi.statements)(bankStatementQuerySchema),
      response: { 200: envelope(answerOf(BankrecApi.statements)(pageOf(bankStatementRowSchema))) },
    },
    handler: async (req) => ok(await listStatementRows(deps, userOf(req), req.query, zoneOf(req))),
  });

  r.route({
    ...routeOf(BankrecApi.upload, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'Upload a bank statement (multipart: file — camt.053 .001.02–.13, MT940, or CSV read with the saved mapping; ≤ 32 MiB, UTF-8; fields merId, acceptUnbalanced)',
      description:
        'Refused (400, naming the line or element): an unknown version, another encoding, a DOCTYPE (entities), a malformed file, balances that do not add up (unless acceptUnbalanced=true: kept on the statement, audited). The same statement again adds nothing; entries already on an overlapping statement are not added again. The matcher runs after the import. Audited.',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(answerOf(BankrecApi.upload)(bankImportResultSchema)) },
    },
    handler: async (req) => {
      const up = await readUpload(req);
      const f = uploadFields.safeParse(up.fields);
      if (!f.success) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'merId / acceptUnbalanced' }, 400);
      return ok(await importStatementFile(deps, userOf(req), { merId: f.data.merId, fileName: up.name, buf: up.buf, acceptUnbalanced: f.data.acceptUnbalanced === 'true', lang: req.lang }, meta(req)));
    },
  });

  r.route({
    ...routeOf(BankrecApi.csvMapping),
    schema: {
      tags,
      summary: "The merchant's saved CSV column mapping (null before one is saved)",
      querystring: inputOf(BankrecApi.csvMapping)(bankMerQuerySchema),
      response: { 200: envelope(answerOf(BankrecApi.csvMapping)(bankCsvMappingOutSchema.nullable())) },
    },
    handler: async (req) => ok(await getCsvMappingFor(deps, userOf(req), req.query.merId)),
  });

  r.route({
    ...routeOf(BankrecApi.saveCsvMapping),
    schema: {
      tags,
      summary: "Save the merchant's CSV column mapping (header names, decimal mark, date layout, delimiter, account). Audited.",
      body: inputOf(BankrecApi.saveCsvMapping)(bankCsvMappingSaveSchema),
      response: { 200: envelope(answerOf(BankrecApi.saveCsvMapping)(bankCsvMappingOutSchema)) },
    },
    handler: async (req) => ok(await saveCsvMappingFor(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(BankrecApi.matching),
    schema: {
      tags,
      summary: 'Matches (proposed, confirmed), unmatched credits and transfers without a credit between two dates (at most 366 days), each miss with why its nearest counterpart failed',
      querystring: inputOf(BankrecApi.matching)(bankMatchingQuerySchema),
      response: { 200: envelope(answerOf(BankrecApi.matching)(bankMatchingSchema)) },
    },
    handler: async (req) => {
      const q = req.query;
      if (q.beginDate > q.endDate) throw reversedRange();
      if (Date.parse(q.endDate) - Date.parse(q.beginDate) > 366 * 86_400_000) throw rangeTooLong();
      return ok(await matchingView(deps, userOf(req), q, req.lang, zoneOf(req)));
    },
  });

  r.route({
    ...routeOf(BankrecApi.confirmMany),
    schema: {
      tags,
      summary: 'Confirm proposed matches in bulk (all or none; each audited)',
      body: inputOf(BankrecApi.confirmMany)(bankBulkConfirmSchema),
      response: { 200: envelope(answerOf(BankrecApi.confirmMany)(z.array(bankMatchSchema))) },
    },
    handler: async (req) => ok(await confirmMatches(deps, userOf(req), req.body.ids, zoneOf(req), meta(req))),
  });

  r.route({
    ...routeOf(BankrecApi.confirm),
    schema: { tags, summary: 'Confirm a proposed match. Audited.', params: inputOf(BankrecApi.confirm)(bankMatchIdSchema), response: { 200: envelope(answerOf(BankrecApi.confirm)(bankMatchSchema)) } },
    handler: async (req) => ok((await confirmMatches(deps, userOf(req), [req.params.id], zoneOf(req), meta(req)))[0]),
  });

  r.route({
    ...routeOf(BankrecApi.undo),
    schema: {
      tags,
      summary: 'Undo a match: a confirmed one goes back to proposed; a proposed one is dismissed (not proposed again). Audited.',
      params: inputOf(BankrecApi.undo)(bankMatchIdSchema),
      response: { 200: envelope(answerOf(BankrecApi.undo)(bankMatchSchema.nullable())) },
    },
    handler: async (req) => ok(await undoMatch(deps, userOf(req), req.params.id, zoneOf(req), meta(req))),
  });

  r.route({
    ...routeOf(BankrecApi.match),
    schema: {
      tags,
      summary: 'Match by hand: credits (entryIds) to transfers (transferIds) of one merchant and currency, confirmed at once. Audited.',
      body: inputOf(BankrecApi.match)(bankManualMatchSchema),
      response: { 200: envelope(answerOf(BankrecApi.match)(bankMatchSchema)) },
    },
    handler: async (req) => ok(await manualMatch(deps, userOf(req), req.body, zoneOf(req), meta(req))),
  });

  r.route({
    ...routeOf(BankrecApi.matchRun),
    schema: {
      tags,
      summary: 'Run the matcher again for a merchant (after new transfers): how many matches it proposed',
      body: inputOf(BankrecApi.matchRun)(bankMerQuerySchema),
      response: { 200: envelope(answerOf(BankrecApi.matchRun)(z.object({ proposed: z.number() }))) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const merId = req.body.merId ?? u.merId;
      if (!u.scope.includes(merId)) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
      return ok({ proposed: await runMatching(deps.db, merId) });
    },
  });
}
