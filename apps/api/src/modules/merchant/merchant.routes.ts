import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BRANDS, MerchantApi, SessionApi } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, routeOf } from '../../lib/endpoint-route';
import { merchantDetailRoutes } from './merchant.detail.routes';
import { merchantsOfScope } from './merchant.repo';

const merchantInfoSchema = z.object({
  subMerIdList: z.array(z.string()),
  subMerIdAndNameList: z.array(z.object({ mid: z.string(), name: z.string() })),
  channelList: z.array(z.string()),
  currencyList: z.array(z.string()),
  contractor: z.number(),
});

export function merchantRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(SessionApi.merchantInfo),
    schema: {
      tags: ['merchant'],
      summary: 'Merchant info of the signed-in user: the merchants it may see, channels, currencies, contractor',
      description:
        "Path chosen by us (the spec leaves it unnamed). subMerIdList holds the caller's own merchant first, then a group's sub-merchants; currencyList starts with the merchant's default currency.",
      response: { 200: envelope(answerOf(SessionApi.merchantInfo)(merchantInfoSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      const rows = await merchantsOfScope(deps.db, u.scope, u.merId);
      const own = rows.find((m) => m.mer_id === u.merId)!;
      const channels = [...new Set(rows.flatMap((m) => m.channels))];
      const currencies = [own.default_currency.trim(), ...new Set(rows.flatMap((m) => m.currencies))].filter((c, i, a) => a.indexOf(c) === i);
      return ok({
        subMerIdList: rows.map((m) => m.mer_id),
        subMerIdAndNameList: rows.map((m) => ({ mid: m.mer_id, name: m.name })),
        channelList: channels,
        currencyList: currencies,
        contractor: own.contractor,
      });
    },
  });

  r.route({
    ...routeOf(MerchantApi.subBrandCodes),
    schema: { tags: ['merchant'], summary: 'Payment brand codes', response: { 200: envelope(answerOf(MerchantApi.subBrandCodes)(z.array(z.string()))) } },
    handler: async () => ok(BRANDS.map((b) => b.code)),
  });

  r.route({
    ...routeOf(MerchantApi.chargeCodes),
    schema: {
      tags: ['merchant'],
      summary: "Payment brand table: code → display name (the spec's charge service, served here)",
      response: { 200: envelope(answerOf(MerchantApi.chargeCodes)(z.array(z.object({ code: z.string(), name: z.string(), category: z.string(), region: z.string() })))) },
    },
    handler: async () => ok([...BRANDS]),
  });

  merchantDetailRoutes(app, deps);
}
