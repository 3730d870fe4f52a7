import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OpsWorkApi, textInput } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { ok, envelope } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';

import { decideRequireOff, listSsoMerchants, requestRequireOff, type Operator } from './sso.ops.service';

const tag = ['X-HIDDEN', 'sso'];
const merParam = z.object({ merId: z.string().regex(/^[0-9]{15}$/) });
const idParam = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
const ssoMerchant = z.object({
  merId: z.string(),
  merName: z.string(),
  kind: z.enum(['oidc', 'saml']),
  providerName: z.string(),
  enabled: z.boolean(),
  ssoRequired: z.boolean(),
  verifiedDomains: z.number(),
  ssoUsers: z.number(),
  pendingRequest: z.object({ id: z.number(), requestedBy: z.string() }).nullable(),
});

/** The ops face's routes of the SSO module (inside the back office's scope and checks). */
export function ssoOpsRoutes(app: FastifyInstance, deps: Deps, operatorOf: (req: FastifyRequest) => Operator) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
  r.route({
    ...routeOf(OpsWorkApi.ssoMerchants),
    schema: {
      tags: tag,
      summary: 'Merchant groups with an identity provider: its kind, whether SSO is required, verified domains, SSO users, a pending "SSO required off" request',
      response: { 200: envelope(answerOf(OpsWorkApi.ssoMerchants)(z.array(ssoMerchant))) },
    },
    handler: async () => ok(await listSsoMerchants(deps)),
  });
  r.route({
    ...routeOf(OpsWorkApi.ssoRequireOff),
    schema: {
      tags: tag,
      summary: 'Ask to turn "SSO required" off for a merchant locked out of its identity provider (four eyes: another operator approves). Audited',
      params: inputOf(OpsWorkApi.ssoRequireOff)(merParam),
      body: inputOf(OpsWorkApi.ssoRequireOff)(z.object({ reason: textInput(500).pipe(z.string().min(3)) })),
      response: { 200: envelope(answerOf(OpsWorkApi.ssoRequireOff)(z.object({ id: z.number() }))) },
    },
    handler: async (req) => ok(await requestRequireOff(deps, req.params.merId, req.body.reason, operatorOf(req), meta(req))),
  });
  for (const [endpoint, decision] of [
    [OpsWorkApi.approveSso, 'APPROVED'],
    [OpsWorkApi.rejectSso, 'REJECTED'],
  ] as const) {
    r.route({
      ...routeOf(endpoint),
      schema: {
        tags: tag,
        summary: `${decision === 'APPROVED' ? 'Approve (SSO no longer required)' : 'Reject'} a pending "SSO required off" request; the operator who asked may not (403). Audited`,
        params: inputOf(endpoint)(idParam),
        response: { 200: envelope(answerOf(endpoint)(z.object({ id: z.number(), status: z.enum(['APPROVED', 'REJECTED']) }))) },
      },
      handler: async (req) => ok(await decideRequireOff(deps, req.params.id, decision, operatorOf(req), meta(req))),
    });
  }
}
