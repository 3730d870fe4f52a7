import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CURRENCIES,
  PayInStoreApi,
  payInStoreAddResultSchema,
  payInStoreAddSchema,
  payInStoreDetailSchema,
  payInStoreOrderNoParamsSchema,
  payInStoreQuerySchema,
  payInStoreRowSchema,
  payInStoreStatusSchema,
  payMethodSchema,
  storeSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { formatInZone } from '../../lib/zone';
import { linkBaseOf, payLink, toActivity } from '../paybylink';
import { checkPblRange } from '../paybylink';
import { countOrders, expireDue, listEvents, listOrders } from '../paybylink';
import { syncProcessing } from '../paybylink';
import { listStores } from './store.repo';
import { pisWhere } from './payinstore.repo';
import { createInStoreOrder, loadInStoreOrder, logoList, storeInScope, toPisRow, toStore } from './payinstore.service';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const tags = ['payInStore'];
const time = (d: Date | null, tz: string) => (d ? formatInZone(d, tz) : null);

/** Pay in store (spec §2, §7 /payInStore*): stores, orders list and detail, create with a dynamic QR, logos, status. */
export function payInStoreRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = deps.config.platformTz;

  r.route({
    ...routeOf(PayInStoreApi.stores),
    schema: {
      tags,
      summary: "The stores of the caller's merchants: id, name, address, enabled brands, the methods they can take, static QR link",
      description: "enabled false: the store can take no payment method (no brand enabled, or the merchant lacks the brands' channels) — 'You have not enabled this function, please contact sales'.",
      response: { 200: envelope(answerOf(PayInStoreApi.stores)(z.array(storeSchema))) },
    },
    handler: async (req) => {
      const base = linkBaseOf(deps, req);
      return ok((await listStores(deps.db, userOf(req).scope)).map((s) => toStore(s, base)));
    },
  });

  r.route({
    ...routeOf(PayInStoreApi.list),
    schema: {
      tags,
      summary: "The caller's in-store orders, newest first",
      description: "Filters: creation time range (platform zone, at most three months), storeId, orderno, status ('02' not paid, '00' processing, 'status00' paid, '01' closed).",
      querystring: inputOf(PayInStoreApi.list)(payInStoreQuerySchema),
      response: { 200: envelope(answerOf(PayInStoreApi.list)(pageOf(payInStoreRowSchema))) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const { page, size, ...filter } = req.query;
      checkPblRange(filter.beginDate, filter.endDate);
      await expireDue(deps.db, deps.clock.now(), { scope: u.scope });
      const w = pisWhere(filter, u.scope, tz);
      let [rows, total] = await Promise.all([listOrders(deps.db.read, w, page, size), countOrders(deps.db.read, w)]);
      const pending = rows.filter((o) => o.status === '04' && o.open_status === '00');
      if (pending.length && (await Promise.all(pending.map((o) => syncProcessing(deps, o)))).some(Boolean)) rows = await listOrders(deps.db, w, page, size);
      return ok({ content: rows.map((o) => toPisRow(o, tz)), totalElements: total });
    },
  });

  r.route({
    ...routeOf(PayInStoreApi.logoList),
    schema: {
      tags,
      summary: 'The payment-brand logos shown under the QR: the methods the store can take (in orderCurrency when given), 5 per row on screen',
      querystring: inputOf(PayInStoreApi.logoList)(z.object({ storeId: z.string().trim().min(1).max(20), orderCurrency: z.enum(CURRENCIES as unknown as [string, ...string[]]).optional() })),
      response: { 200: envelope(answerOf(PayInStoreApi.logoList)(z.array(payMethodSchema))) },
    },
    handler: async (req) => ok(logoList(await storeInScope(deps, req.query.storeId, userOf(req).scope), req.query.orderCurrency)),
  });

  r.route({
    ...routeOf(PayInStoreApi.orderStatus),
    schema: {
      tags,
      summary: "An in-store order's status, polled every 3 s by the QR dialog: '00' paid, '01' ended (failed, expired), '04' awaiting",
      params: inputOf(PayInStoreApi.orderStatus)(payInStoreOrderNoParamsSchema),
      response: { 200: envelope(answerOf(PayInStoreApi.orderStatus)(payInStoreStatusSchema)) },
    },
    handler: async (req) => {
      const o = await loadInStoreOrder(deps, { orderNo: req.params.no }, userOf(req).scope);
      return ok({ orderno: o.order_no, status: o.status, openStatus: o.open_status, closeReason: o.close_reason });
    },
  });

  r.route({
    ...routeOf(PayInStoreApi.detail),
    schema: {
      tags,
      summary: 'One in-store order with its payment link and activity',
      params: inputOf(PayInStoreApi.detail)(idParam),
      response: { 200: envelope(answerOf(PayInStoreApi.detail)(payInStoreDetailSchema)) },
    },
    handler: async (req) => {
      const o = await loadInStoreOrder(deps, { id: req.params.id }, userOf(req).scope);
      const events = await listEvents(deps.db, o.id);
      return ok({
        ...toPisRow(o, tz),
        link: payLink(linkBaseOf(deps, req), o.token),
        expireTime: formatInZone(o.expires_at, tz),
        paidTime: time(o.paid_at, tz),
        closeTime: time(o.closed_at, tz),
        closeReason: o.close_reason,
        txnId: o.txn_id,
        createdBy: o.created_by === null ? null : (events.find((e) => e.kind === 'created')?.actor ?? null),
        activity: events.map((e) => toActivity(e, tz)),
      });
    },
  });

  r.route({
    ...routeOf(PayInStoreApi.add, { rateLimit: { max: 120, timeWindow: '1 minute' } }),
    schema: {
      tags,
      summary: 'Create an in-store order (params / form: storeId, orderCurrency, totalAmount, goodsName); returns the order number and the link its dynamic QR shows (valid 30 minutes)',
      description:
        "Validation errors: code 400, data.errors [{field, rule, message}]. A store that can take no payment method: code 1401 'You have not enabled this function, please contact sales'. Another merchant's store: 404.",
      querystring: inputOf(PayInStoreApi.add)(payInStoreAddSchema),
      body: inputOf(PayInStoreApi.add)(payInStoreAddSchema.nullish()),
      response: { 200: envelope(answerOf(PayInStoreApi.add)(payInStoreAddResultSchema)) },
    },
    handler: async (req) => ok(await createInStoreOrder(deps, userOf(req), { ...req.query, ...req.body }, { lang: req.lang, linkBase: linkBaseOf(deps, req), ip: req.ip })),
  });
}
