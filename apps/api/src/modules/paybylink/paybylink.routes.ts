import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PayByLinkApi,
  exportFormatSchema,
  payByLinkAddResultSchema,
  payByLinkDetailSchema,
  payByLinkFilterSchema,
  payByLinkFormSchema,
  payByLinkOrderSchema,
  payByLinkOrderStatusSchema,
  payByLinkQuerySchema,
  payByLinkRowSchema,
  textInput,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { t } from '../../lib/messages';
import { disposition, streamExport } from '../export';
import { linkBaseOf, toActivity, toOrder, toRow } from './paybylink.mapper';
import { checkPblRange } from './paybylink.range';
import { countOrders, expireDue, listEvents, listOrders, pblWhere } from './paybylink.repo';
import { closeOrder, createOrder, loadOrder, updateOrder } from './paybylink.service';
import { syncProcessing } from './paybylink.sync';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const tags = ['payByLink'];

/** Pay-by-link orders (spec §2, §3, §4, §7): list, detail, status, close, export, create, update. */
export function payByLinkRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = deps.config.platformTz;

  r.route({
    ...routeOf(PayByLinkApi.list),
    schema: {
      tags,
      summary: "The caller's pay-by-link orders, newest first",
      description: "Filters: creation date range (platform zone, at most three months), orderno, reconId, status ('02' not paid, '00' processing, 'status00' paid, '01' closed).",
      querystring: inputOf(PayByLinkApi.list)(payByLinkQuerySchema),
      response: { 200: envelope(answerOf(PayByLinkApi.list)(pageOf(payByLinkRowSchema))) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const { page, size, ...filter } = req.query;
      checkPblRange(filter.beginDate, filter.endDate);
      await expireDue(deps.db, deps.clock.now(), { scope: u.scope });
      const w = pblWhere(filter, u.scope, tz);
      let [rows, total] = await Promise.all([listOrders(deps.db.read, w, page, size), countOrders(deps.db.read, w)]);
      const pending = rows.filter((o) => o.status === '04' && o.open_status === '00');
      if (pending.length && (await Promise.all(pending.map((o) => syncProcessing(deps, o)))).some(Boolean)) rows = await listOrders(deps.db, w, page, size);
      return ok({ content: rows.map((o) => toRow(o, tz)), totalElements: total });
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.export),
    schema: { tags, summary: 'The filtered orders as an XLSX (default) or CSV file, streamed', querystring: inputOf(PayByLinkApi.export)(payByLinkFilterSchema.extend(exportFormatSchema.shape)) },
    handler: async (req, reply) => {
      const u = userOf(req);
      const { format, ...params } = req.query;
      checkPblRange(params.beginDate, params.endDate);
      await expireDue(deps.db, deps.clock.now(), { scope: u.scope });
      const out = await streamExport(deps, {
        kind: 'paybylink',
        params,
        format,
        lang: req.lang,
        tzOffset: req.tzOffset,
        scope: u.scope,
        userId: u.id,
        meta: { ip: req.ip, userAgent: req.headers['user-agent'] },
      });
      reply.header('Content-Type', out.contentType);
      reply.header('Content-Disposition', disposition(out.fileName));
      reply.header('Cache-Control', 'no-store');
      return reply.send(out.stream);
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.orderStatus),
    schema: {
      tags,
      summary: "An order's status, polled every 3 s by the QR dialog: '00' paid, '01' ended (failed, closed, expired), '04' awaiting",
      params: inputOf(PayByLinkApi.orderStatus)(z.object({ no: textInput(64, { min: 1 }) })),
      response: { 200: envelope(answerOf(PayByLinkApi.orderStatus)(payByLinkOrderStatusSchema)) },
    },
    handler: async (req) => {
      const o = await loadOrder(deps, { orderNo: req.params.no }, userOf(req).scope);
      return ok({ orderno: o.order_no, reconId: o.recon_id, status: o.status, openStatus: o.open_status, closeReason: o.close_reason });
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.close),
    schema: {
      tags,
      summary: "Close an open, unpaid order: data '00' closed; data '01' with 'Order status has changed, operation failed' when it was paid, processing or closed first",
      params: inputOf(PayByLinkApi.close)(idParam),
      response: { 200: envelope(answerOf(PayByLinkApi.close)(z.enum(['00', '01']))) },
    },
    handler: async (req) => {
      const res = await closeOrder(deps, userOf(req), req.params.id, req.ip);
      return res === '00' ? ok(res) : { code: 0, msg: t(req.lang, 'pblOrderStatusChanged'), data: res };
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.detail),
    schema: { tags, summary: 'One order with its activity timeline', params: inputOf(PayByLinkApi.detail)(idParam), response: { 200: envelope(answerOf(PayByLinkApi.detail)(payByLinkDetailSchema)) } },
    handler: async (req) => {
      const o = await loadOrder(deps, { id: req.params.id }, userOf(req).scope);
      const events = await listEvents(deps.db, o.id);
      return ok({ ...toOrder(o, tz, linkBaseOf(deps, req)), activity: events.map((e) => toActivity(e, tz)) });
    },
  });

  r.route({
    ...routeOf(PayByLinkApi.add, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'Create an order (form); returns orderNo and the pay link (payByLink); e-mails the buyer when sendEmailChecked',
      description: "Validation errors: code 400, msg the first message, data.errors [{field, rule, message}]. emailStatus 'failed' when the buyer e-mail could not be sent.",
      body: inputOf(PayByLinkApi.add)(payByLinkFormSchema),
      response: { 200: envelope(answerOf(PayByLinkApi.add)(payByLinkAddResultSchema)) },
    },
    handler: async (req) => ok(await createOrder(deps, userOf(req), req.body, { lang: req.lang, linkBase: linkBaseOf(deps, req), ip: req.ip })),
  });

  r.route({
    ...routeOf(PayByLinkApi.update),
    schema: {
      tags,
      summary: 'Update an open, unpaid order (form: id and the editable fields); 409 with "Order status has changed, operation failed" otherwise',
      body: inputOf(PayByLinkApi.update)(payByLinkFormSchema),
      response: { 200: envelope(answerOf(PayByLinkApi.update)(payByLinkOrderSchema)) },
    },
    handler: async (req) => ok(toOrder(await updateOrder(deps, userOf(req), req.body, { lang: req.lang, linkBase: linkBaseOf(deps, req), ip: req.ip }), tz, linkBaseOf(deps, req))),
  });
}
