import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BANK_DOC_MAX_BYTES,
  Code,
  MerchantApi,
  bankChangeFieldsSchema,
  bankRequestSchema,
  depositDetailSchema,
  merIdQuerySchema,
  merIdSchema,
  merchantBankListSchema,
  merchantDetailSchema,
  merchantFeeRowSchema,
  merchantListQuerySchema,
  merchantListRowSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { assertInScope, userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { t } from '../../lib/messages';
import { sniffFileType } from '../paybylink';
import { depositDetail, listMerchants, merchantBanks, merchantDetail, merchantFees } from './merchant.repo';
import { bankRequests, submitBankRequest } from './bank-request.service';
import { safeFileName } from '../../lib/filename';

const idParam = z.object({ id: merIdSchema });

/** Reads the bank change form: text fields and one `document` (PDF/PNG/JPG by content, ≤ 5 MiB). */
async function readBankForm(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError(Code.BAD_REQUEST, 'bankDocMissing', {}, 400);
  const fields: Record<string, string> = {};
  let doc: { name: string; buf: Buffer; ext: string } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: BANK_DOC_MAX_BYTES, files: 1, fields: 20, fieldSize: 1000 } })) {
      if (part.type === 'file') {
        const buf = await part.toBuffer();
        const kind = sniffFileType(buf);
        if (kind !== 'pdf' && kind !== 'png' && kind !== 'jpg') throw new AppError(Code.BAD_REQUEST, 'bankDocMissing', {}, 400);
        const name = [...safeFileName(part.filename).replace(/[/\\]/g, '_')].slice(0, 120).join('') || `document.${kind}`;
        doc = { name, buf, ext: kind };
      } else fields[part.fieldname] = String(part.value ?? '');
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Code.BAD_REQUEST, 'bankDocTooLarge', {}, 400);
    // A malformed multipart body (truncated, too many parts) is bad input, not a server fault.
    throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'multipart' }, 400);
  }
  const parsed = bankChangeFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0].path[0] ?? '');
    throw new AppError(Code.BAD_REQUEST, 'bankField', { field }, 400);
  }
  if (!doc) throw new AppError(Code.BAD_REQUEST, 'bankDocMissing', {}, 400);
  return { fields: parsed.data, doc };
}

/** /merchant/list, /merchant/{id}, fee schedule, bank accounts (+ change request), deposit. */
export function merchantDetailRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = deps.config.platformTz;

  for (const endpoint of [MerchantApi.list, MerchantApi.listRoot])
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: ['merchant'],
        summary:
          (endpoint === MerchantApi.listRoot ? 'Spec §7 "GET /merchant (params)": the same as /merchant/list. ' : '') +
          "The caller's merchant and, for a group, its sub-merchants: attribute, status, currencies, daily limit, approval",
        description: 'keyword matches the merchant id or name (part of it); attribute GROUP, SUB or INDEPENDENT. Own merchant first.',
        querystring: inputOf(endpoint)(merchantListQuerySchema),
        response: { 200: envelope(answerOf(endpoint)(pageOf(merchantListRowSchema))) },
      },
      handler: async (req) => {
        const u = userOf(req);
        return ok(await listMerchants(deps.db, u.scope, u.merId, req.query, tz));
      },
    });

  r.route({
    ...routeOf(MerchantApi.fees),
    schema: {
      tags: ['merchant'],
      summary: 'Fee schedule of a merchant per business line: channels, MDR rate (%), fixed fee, cycle, reserve, effective dates',
      querystring: inputOf(MerchantApi.fees)(merIdQuerySchema),
      response: { 200: envelope(answerOf(MerchantApi.fees)(z.object({ content: z.array(merchantFeeRowSchema), totalElements: z.number() }))) },
    },
    handler: async (req) => {
      assertInScope(req, req.query.merId);
      const rows = await merchantFees(deps.db, req.query.merId);
      return ok({ content: rows, totalElements: rows.length });
    },
  });

  r.route({
    ...routeOf(MerchantApi.banks),
    schema: {
      tags: ['merchant'],
      summary: 'Bank accounts of a merchant (account number masked to the last 4) and its change requests',
      querystring: inputOf(MerchantApi.banks)(merIdQuerySchema),
      response: { 200: envelope(answerOf(MerchantApi.banks)(merchantBankListSchema)) },
    },
    handler: async (req) => {
      assertInScope(req, req.query.merId);
      const rows = await merchantBanks(deps.db, req.query.merId);
      return ok({ content: rows, totalElements: rows.length, requests: await bankRequests(deps.db, req.query.merId, tz) });
    },
  });

  r.route({
    ...routeOf(MerchantApi.bankChangeRequest),
    schema: {
      tags: ['merchant'],
      summary:
        "Ask to change (accountId) or add a bank account: multipart fields of the new details and a `document` (PDF/PNG/JPG ≤ 5 MiB). Pending until the provider approves; under the merchant's four eyes on bank changes (decision 049) it first waits (status MERCHANT_APPROVAL, approvalId) for a second user holding merchant:bank:change.",
      consumes: ['multipart/form-data'],
      response: { 200: envelope(answerOf(MerchantApi.bankChangeRequest)(bankRequestSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      if (u.userType !== 'MAIN') throw forbidden();
      const { fields, doc } = await readBankForm(req);
      if (!u.scope.includes(fields.merId)) throw notFound();
      const res = await submitBankRequest(deps, u, fields, doc, { ip: req.ip, userAgent: req.headers['user-agent'] }, req.lang);
      return { code: 0, msg: t(req.lang, res.status === 'MERCHANT_APPROVAL' ? 'bankRequestAwaitsApproval' : 'bankRequestSubmitted'), data: res };
    },
  });

  r.route({
    ...routeOf(MerchantApi.deposit),
    schema: {
      tags: ['merchant'],
      summary: "Reserve (deposit) of a merchant: rate and hold days, held, released, balance per business line; next releases (the reserve report's rows)",
      params: inputOf(MerchantApi.deposit)(idParam),
      response: { 200: envelope(answerOf(MerchantApi.deposit)(depositDetailSchema)) },
    },
    handler: async (req) => {
      assertInScope(req, req.params.id);
      return ok(await depositDetail(deps.db, req.params.id));
    },
  });

  r.route({
    ...routeOf(MerchantApi.detail),
    schema: {
      tags: ['merchant'],
      summary: "Business information of a merchant of the caller's scope (another merchant answers 404)",
      params: inputOf(MerchantApi.detail)(idParam),
      response: { 200: envelope(answerOf(MerchantApi.detail)(merchantDetailSchema)) },
    },
    handler: async (req) => {
      const d = await merchantDetail(deps.db, userOf(req).scope, req.params.id, tz);
      if (!d) throw notFound();
      return ok(d);
    },
  });
}
