import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDate, opsBankAccountSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsMerchantsApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { searchAudit } from './audit.service';
import { decideBankChange, editBankChange, listBankChanges } from './approvals.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const idParam = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
const tag = (name: string) => ['X-HIDDEN', name];
const s = z.string().nullable();

/** The back office's bank-account change approvals (four eyes) and the audit log across merchants (issue 26). */
export function approvalsRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();

  // ——— Approvals: bank-account change requests of every merchant (four eyes: who changed one may not decide it).
  const reasonBody = z.object({
    reason: z
      .string()
      .trim()
      .min(3)
      .max(500)
      .refine((v) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(v), 'control characters'),
  });
  const bankChangeRow = z.object({
    id: z.number(),
    merId: z.string(),
    merName: z.string(),
    status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
    beneficiaryBank: z.string(),
    swiftCode: z.string(),
    bankAddress: s,
    accountName: z.string(),
    accountNumber: z.string(),
    country: z.string(),
    currency: z.string(),
    documentName: z.string(),
    requestedBy: z.string(),
    requestedAt: z.string(),
    changedBy: s,
    decidedBy: s,
    decidedAt: s,
    reason: s,
  });
  r.route({
    ...routeOf(OpsMerchantsApi.bankChanges),
    schema: {
      tags: tag('approvals'),
      summary: 'Bank-account change requests of every merchant, pending first',
      querystring: inputOf(OpsMerchantsApi.bankChanges)(z.object({ status: z.enum(['PENDING', 'APPROVED', 'REJECTED']).optional() })),
      response: { 200: envelope(answerOf(OpsMerchantsApi.bankChanges)(z.array(bankChangeRow))) },
    },
    handler: async (req) => ok(await listBankChanges(deps, req.query.status)),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.bankChange),
    schema: {
      tags: tag('approvals'),
      summary: 'Correct a pending request (the operator who does may not decide it). JSON body.',
      params: inputOf(OpsMerchantsApi.bankChange)(idParam),
      body: inputOf(OpsMerchantsApi.bankChange)(opsBankAccountSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.bankChange)(z.null())) },
    },
    handler: async (req) => {
      await editBankChange(deps, req.params.id, req.body, operatorOf(req), meta(req));
      return ok(null);
    },
  });
  for (const [endpoint, decision] of [
    [OpsMerchantsApi.approveBankChange, 'APPROVED'],
    [OpsMerchantsApi.rejectBankChange, 'REJECTED'],
  ] as const) {
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: tag('approvals'),
        summary: `${decision === 'APPROVED' ? 'Approve' : 'Reject'} a pending request with a reason; the merchant gets a notice and the requester an e-mail`,
        params: idParam,
        body: reasonBody,
        response: { 200: envelope(answerOf(endpoint)(z.object({ id: z.number(), merId: z.string(), status: z.string(), accountId: z.number().nullable() }))) },
      },
      handler: async (req) => ok(await decideBankChange(deps, req.params.id, decision, req.body.reason, operatorOf(req), req.lang, meta(req))),
    });
  }

  // ——— The audit log across merchants (every role reads).
  r.route({
    ...routeOf(OpsMerchantsApi.audit),
    schema: {
      tags: tag('audit'),
      summary: "Audit entries of merchants' users and of operators, newest first: by merchant, action prefix, actor, platform days (at most 92)",
      querystring: inputOf(OpsMerchantsApi.audit)(
        z
          .object({
            page: z.coerce.number().int().min(0).max(100000).default(0),
            size: z.coerce.number().int().min(1).max(100).default(20),
            merId: z
              .string()
              .regex(/^\d{15}$/, 'merchant id')
              .optional(),
            action: z
              .string()
              .trim()
              .max(60)
              .regex(/^[a-z0-9_.]*$/, 'action')
              .optional(),
            actor: z
              .string()
              .trim()
              .max(128)
              .regex(/^[A-Za-z0-9_.@:-]*$/, 'actor')
              .optional(),
            operatorsOnly: z.enum(['true', 'false']).optional(),
            from: isoDate,
            to: isoDate,
          })
          .refine((v) => v.from <= v.to && Date.parse(v.to) - Date.parse(v.from) <= 92 * 86400000, { path: ['to'], message: 'from ≤ to, at most 92 days' }),
      ),
      response: {
        200: envelope(
          answerOf(OpsMerchantsApi.audit)(
            z.object({
              content: z.array(
                z.object({ id: z.number(), at: z.string(), actor: s, byOperator: z.boolean(), merId: s, action: z.string(), outcome: z.string(), target: s, detail: z.string(), ip: s }),
              ),
              totalElements: z.number(),
            }),
          ),
        ),
      },
    },
    handler: async (req) =>
      ok(await searchAudit(deps, { ...req.query, operatorsOnly: req.query.operatorsOnly === 'true', action: req.query.action || undefined, actor: req.query.actor || undefined })),
  });
}
