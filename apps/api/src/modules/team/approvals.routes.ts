import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APPROVAL_KINDS, APPROVAL_STATUSES, TeamApi, approvalDecisionSchema, approvalListQuerySchema, fourEyesPolicySchema, policyQuerySchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { decide, getPolicy, listApprovals, savePolicy } from './approvals.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const policyCore = z.object({
  refundLimits: z.record(z.string(), z.string()).describe('currency → amount above which a refund needs approval'),
  permissionRaise: z.boolean(),
  bankChange: z.boolean().describe('bank-account change requests wait for a second user holding merchant:bank:change (decision 049)'),
  expiryHours: z.number(),
  approverCooldownDays: z.number().describe('a user created or raised within this many days cannot approve requests of the user who created or raised it (issue 47)'),
});
const policySchema = policyCore.extend({
  merId: z.string(),
  groupFloor: policyCore.nullable().describe("a sub-merchant's: its group's policy, the floor it can only tighten"),
});
const grantSchema = z.object({ by: z.string(), how: z.enum(['created', 'raised', 'approved']), time: z.string() });
const approvalRowSchema = z.object({
  id: z.number(),
  merId: z.string(),
  kind: z.enum(APPROVAL_KINDS),
  status: z.enum(APPROVAL_STATUSES),
  summary: z.record(z.string(), z.unknown()),
  requestedBy: z.string(),
  requestTime: z.string(),
  expireTime: z.string(),
  decidedBy: z.string().nullable(),
  decideTime: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  canDecide: z.boolean(),
  deciderGrants: z.array(grantSchema).describe('who created or raised the user that decided it (issue 47), newest first'),
  yourGrant: grantSchema.nullable().describe('set when you may not approve it: its requester created or raised you within the cool-down'),
});

/** Four eyes (issue 28, decision 041): the merchant's policy and its approvals list. */
export function approvalRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TeamApi.approvalPolicy),
    schema: {
      tags: ['team'],
      summary: "A merchant's four-eyes policy (its own, else its group's); main users only",
      querystring: inputOf(TeamApi.approvalPolicy)(policyQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.approvalPolicy)(policySchema)) },
    },
    handler: async (req) => ok(await getPolicy(deps, userOf(req), req.query.merId)),
  });

  r.route({
    ...routeOf(TeamApi.saveApprovalPolicy),
    schema: {
      tags: ['team'],
      summary:
        'Set a merchant\'s four-eyes policy: refundLimits ("USD:1000.00,EUR:500"), permissionRaise, bankChange (absent: false), expiryHours (1–720), approverCooldownDays (0–365, absent: unchanged). Administrators of the merchant only; audited with before and after',
      description:
        "Tightening applies at once. Loosening any rule (a limit raised or removed, a switch turned off, a longer expiry, a shorter cool-down) waits for a second administrator: code 1234 with the request id, carried out by its approval (issue 47). A sub-merchant only tightens its group's policy: asking for less answers 400.",
      body: inputOf(TeamApi.saveApprovalPolicy)(fourEyesPolicySchema),
      response: { 200: envelope(answerOf(TeamApi.saveApprovalPolicy)(policySchema)) },
    },
    handler: async (req) => ok(await savePolicy(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.approvals),
    schema: {
      tags: ['team'],
      summary: "Approval requests of the caller's scope that it may decide (holds their permission) or asked itself; newest first. Expired ones are marked as such",
      querystring: inputOf(TeamApi.approvals)(approvalListQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.approvals)(pageOf(approvalRowSchema))) },
    },
    handler: async (req) => {
      const { page, size, ...f } = req.query;
      return ok(await listApprovals(deps, userOf(req), f, page, size));
    },
  });

  for (const [endpoint, approve] of [
    [TeamApi.approve, true],
    [TeamApi.reject, false],
  ] as const) {
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: ['team'],
        summary: approve
          ? 'Approve a request: it is carried out at once, as you (a refund needs your password re-check), exactly once however many approve at the same time'
          : 'Reject a request (note: optional reason)',
        description:
          'Not your own, nor one whose requester created or raised you within the cool-down (code 1233); already decided (1231); expired (1232); without its permission: 403; outside your scope: 404. Audited.',
        body: inputOf(endpoint)(approvalDecisionSchema),
        response: { 200: envelope(answerOf(endpoint)(approvalRowSchema)) },
      },
      handler: async (req) => ok(await decide(deps, userOf(req), req.body.id, approve, req.body.note, req.lang, meta(req))),
    });
  }
}
