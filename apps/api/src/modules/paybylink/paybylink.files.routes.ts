import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PBL_ATTACHMENT_ACCEPT,
  PBL_ATTACHMENT_MAX_BYTES,
  PBL_ATTACHMENT_TYPES,
  PBL_DEFAULT_VALID_DAYS,
  PBL_VALID_DAY_CHOICES,
  PayByLinkApi,
  payByLinkUploadResultSchema,
  payMethodSchema,
  textInput,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { notFound } from '../../lib/errors';
import { disposition } from '../export';
import { openAttachment, receiveUpload, saveAttachment } from './attachment.service';
import { methodsFor } from '@portal/contract';
import { logoSvg } from './logos';
import { tokenOfLink } from './paybylink.mapper';
import { findOrder, merchantChannels } from './paybylink.repo';
import { merchantCurrencies } from './paybylink.service';

const tags = ['payByLink'];

/** Attachments, payment-method logos and the create form's options. */
export function payByLinkFileRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(PayByLinkApi.uploadFile, { rateLimit: { max: 60, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'Upload a bill file (multipart field "file"): at most 5 MiB; xlsx, xls, csv, pdf, png, jpg, checked by content (magic bytes) and extension',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(answerOf(PayByLinkApi.uploadFile)(payByLinkUploadResultSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      return ok(await saveAttachment(deps, u, await receiveUpload(req)));
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.attachmentDownload),
    schema: { tags, summary: "Download an order's bill file (query: attachment)", querystring: inputOf(PayByLinkApi.attachmentDownload)(z.object({ attachment: textInput(100, { min: 1 }) })) },
    handler: async (req, reply) => {
      const { row, full } = await openAttachment(deps, req.query.attachment, userOf(req).scope);
      reply.header('Content-Type', row.content_type);
      reply.header('Content-Disposition', disposition(row.file_name));
      reply.header('Content-Length', row.size_bytes);
      reply.header('Cache-Control', 'private, no-store');
      return reply.send(fs.createReadStream(full));
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.qrList),
    schema: {
      tags,
      summary: "Payment channel logos for a link (form: link, orderCurrency): the methods the order's merchant offers in that currency",
      body: inputOf(PayByLinkApi.qrList)(
        z.object({
          link: textInput(500, { min: 1 }),
          orderCurrency: z
            .string()
            .trim()
            .regex(/^[A-Z]{3}$/, 'currency code')
            .optional(),
        }),
      ),
      response: { 200: envelope(answerOf(PayByLinkApi.qrList)(z.array(payMethodSchema))) },
    },
    handler: async (req) => {
      const token = tokenOfLink(req.body.link);
      const o = token ? await findOrder(deps.db, { token }, userOf(req).scope) : null;
      if (!o) throw notFound();
      return ok(methodsFor(req.body.orderCurrency ?? o.order_currency, await merchantChannels(deps.db, o.mer_id)));
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.options),
    schema: {
      tags,
      summary: "The create form's choices: the merchant's currencies (default first), link validity days, attachment rules",
      response: {
        200: envelope(
          answerOf(PayByLinkApi.options)(
            z.object({
              currencies: z.array(z.string()),
              validDays: z.array(z.number()),
              defaultValidDays: z.number(),
              attachmentMaxBytes: z.number(),
              attachmentTypes: z.array(z.string()),
              accept: z.string(),
            }),
          ),
        ),
      },
    },
    handler: async (req) =>
      ok({
        currencies: await merchantCurrencies(deps.db, userOf(req).merId),
        validDays: [...PBL_VALID_DAY_CHOICES],
        defaultValidDays: PBL_DEFAULT_VALID_DAYS,
        attachmentMaxBytes: PBL_ATTACHMENT_MAX_BYTES,
        attachmentTypes: [...PBL_ATTACHMENT_TYPES],
        accept: PBL_ATTACHMENT_ACCEPT,
      }),
  });

  r.route({
    ...routeOf(PayByLinkApi.logo),
    schema: {
      tags,
      summary: 'A payment method logo (SVG), public: the QR dialog and the hosted checkout show it',
      params: inputOf(PayByLinkApi.logo)(z.object({ file: z.string().regex(/^[a-z0-9_]{1,40}\.svg$/) })),
    },
    handler: async (req, reply) => {
      const svg = logoSvg(req.params.file.slice(0, -4));
      if (!svg) throw notFound();
      reply.header('Content-Type', 'image/svg+xml; charset=utf-8');
      reply.header('Cache-Control', 'public, max-age=86400');
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      return reply.send(svg);
    },
  });
}
