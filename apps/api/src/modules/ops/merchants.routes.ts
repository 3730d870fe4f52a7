import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsFeeScheduleSchema, opsCreateMerchantSchema, opsLockSchema, opsMerchantFieldsSchema, opsMerchantListQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsMerchantsApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { addFeeSchedule, feeHistory, createMerchant, editMerchant, getMerchant, listMerchants, resendMainUserActivation, setLocked } from './merchants.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const tag = (name: string) => ['X-HIDDEN', name];

/** The back office's merchants (/api/ops/merchants/…): every role reads; onboarding creates and edits; risk locks (issue 26). */
export function merchantsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();

  // ——— Merchants: every role reads; onboarding creates and edits; risk locks.
  const merParam = z.object({ merId: z.string().regex(/^\d{15}$/, 'merchant id') });
  const s = z.string().nullable();
  const merchantRow = z.object({
    merId: z.string(),
    attribute: z.enum(['GROUP', 'SUB', 'INDEPENDENT']),
    parentId: s,
    parentName: s,
    locked: z.boolean(),
    lockReason: s,
    createdAt: z.string(),
    name: z.string(),
    webStoreName: s,
    corporationName: s,
    companyAddress: s,
    country: s,
    city: s,
    postcode: s,
    mcc: s,
    legalRegNo: s,
    merchantUrl: s,
    defaultCurrency: z.string(),
    settleCurrency: z.string(),
    channels: z.array(z.string()),
    currencies: z.array(z.string()),
    principalName: s,
    principalEmail: s,
    principalTel: s,
    dailyLimit: z.number().nullable(),
  });
  const feeRow = z.object({
    busLine: z.string(),
    mdrBp: z.number(),
    fixedFee: z.number(),
    cycleDays: z.number(),
    reserveBp: z.number(),
    reserveHoldDays: z.number(),
    tranThreshold: z.number(),
    tranFee: z.number(),
    transferPeriod: z.string(),
    disputeFee: z.number(),
    effectiveFrom: s,
  });
  const merchantDetail = merchantRow.extend({
    fees: z.array(feeRow),
    bankAccounts: z.array(
      z.object({
        id: z.number(),
        beneficiaryBank: z.string(),
        swiftCode: z.string(),
        accountName: z.string(),
        accountNumber: z.string(),
        country: z.string(),
        currency: z.string(),
        isDefault: z.boolean(),
      }),
    ),
    users: z.array(z.object({ username: z.string(), email: z.string(), status: z.string(), main: z.boolean() })),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.list),
    schema: {
      tags: tag('merchants'),
      summary: 'Every merchant, searched (id, name, company) and filtered (status, kind, group, channel, created)',
      querystring: inputOf(OpsMerchantsApi.list)(opsMerchantListQuerySchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.list)(z.object({ content: z.array(merchantRow), totalElements: z.number() }))) },
    },
    handler: async (req) => ok(await listMerchants(deps, req.query)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.get),
    schema: {
      tags: tag('merchants'),
      summary: 'A merchant with its fee schedules, bank accounts (numbers masked) and users',
      params: inputOf(OpsMerchantsApi.get)(merParam),
      response: { 200: envelope(answerOf(OpsMerchantsApi.get)(merchantDetail)) },
    },
    handler: async (req) => ok(await getMerchant(deps, req.params.merId)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.create),
    schema: {
      tags: tag('merchants'),
      summary: 'Create a group, sub-merchant or independent merchant: fields, channels, currencies, fee schedules (from today), bank account, main user (activation e-mail). JSON body.',
      body: inputOf(OpsMerchantsApi.create)(opsCreateMerchantSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.create)(z.object({ merId: z.string(), mainUserId: z.number().nullable(), mailed: z.boolean() }))) },
    },
    handler: async (req) => ok(await createMerchant(deps, req.body, operatorOf(req), req.lang, meta(req))),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.edit),
    schema: {
      tags: tag('merchants'),
      summary: "Edit a merchant's fields (not its kind or group). JSON body.",
      params: inputOf(OpsMerchantsApi.edit)(merParam),
      body: inputOf(OpsMerchantsApi.edit)(opsMerchantFieldsSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.edit)(z.null())) },
    },
    handler: async (req) => {
      await editMerchant(deps, req.params.merId, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.fees),
    schema: {
      tags: tag('fees'),
      summary: 'Every dated fee schedule of the merchant (newest day first): in force, past or to come',
      params: inputOf(OpsMerchantsApi.fees)(merParam),
      response: {
        200: envelope(answerOf(OpsMerchantsApi.fees)(z.array(feeRow.extend({ effectiveFrom: z.string(), enteredBy: s, enteredAt: z.string(), state: z.enum(['FUTURE', 'IN_FORCE', 'PAST']) })))),
      },
    },
    handler: async (req) => ok(await feeHistory(deps, req.params.merId)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.addFees),
    schema: {
      tags: tag('fees'),
      summary:
        'New fee schedules for some business lines from a day on (today or later, after the last settlement run); the settlement run of each day reads the schedule in force that day. JSON body.',
      params: inputOf(OpsMerchantsApi.addFees)(merParam),
      body: inputOf(OpsMerchantsApi.addFees)(opsFeeScheduleSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.addFees)(z.null())) },
    },
    handler: async (req) => {
      await addFeeSchedule(deps, req.params.merId, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.resendActivation),
    schema: {
      tags: tag('merchants'),
      summary: "E-mail a new activation link to the merchant's main user that has not activated yet",
      params: inputOf(OpsMerchantsApi.resendActivation)(merParam),
      response: { 200: envelope(answerOf(OpsMerchantsApi.resendActivation)(z.null())) },
    },
    handler: async (req) => {
      await resendMainUserActivation(deps, req.params.merId, req.lang, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.lock),
    schema: {
      tags: tag('merchants'),
      summary: 'Lock a merchant: it accepts no transactions; its users get a notice with the reason',
      params: inputOf(OpsMerchantsApi.lock)(merParam),
      body: inputOf(OpsMerchantsApi.lock)(opsLockSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.lock)(z.null())) },
    },
    handler: async (req) => {
      await setLocked(deps, req.params.merId, { reason: req.body.reason }, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(OpsMerchantsApi.unlock),
    schema: { tags: tag('merchants'), summary: 'Unlock a merchant', params: inputOf(OpsMerchantsApi.unlock)(merParam), response: { 200: envelope(answerOf(OpsMerchantsApi.unlock)(z.null())) } },
    handler: async (req) => {
      await setLocked(deps, req.params.merId, null, operatorOf(req), meta(req));
      return ok(null);
    },
  });
}
