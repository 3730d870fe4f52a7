import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TeamApi, roleIdSchema, roleSaveSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { listRoles, removeRole, saveRole } from './roles.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const roleRowSchema = z.object({
  id: z.number(),
  merId: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.string()),
  refundCaps: z.record(z.string(), z.object({ perRefund: z.string().nullable(), perDay: z.string().nullable() })).describe('refund caps of the holders by currency'),
  users: z.number().describe('users holding the role'),
  updateTime: z.string(),
});

/** Named custom roles of the merchant (issue 28, decision 041): list, add or change, remove. Main users only. */
export function roleRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TeamApi.roles),
    schema: {
      tags: ['team'],
      summary: "The named roles of the caller's merchant scope, each with its permissions and how many users hold it",
      response: { 200: envelope(answerOf(TeamApi.roles)(z.array(roleRowSchema))) },
    },
    handler: async (req) => ok(await listRoles(deps, userOf(req))),
  });

  r.route({
    ...routeOf(TeamApi.saveRole),
    schema: {
      tags: ['team'],
      summary:
        'Add a named role (no roleId) or change one: name, description, permissions, refundCaps ("CUR:perRefund:perDay", either may be empty). A change applies to every user holding the role at once, on every server',
      description:
        'Permissions: only ones you hold and none reserved to administrators (code 1202). A name already used by a live role of the merchant: code 1221. A role held by a user who reaches a merchant outside your scope: 403. While users hold it, more permissions (permission-raise rule on) or refund caps raised or removed (always) wait for a second administrator: code 1234. Audited with before and after.',
      body: inputOf(TeamApi.saveRole)(roleSaveSchema),
      response: { 200: envelope(answerOf(TeamApi.saveRole)(roleRowSchema)) },
    },
    handler: async (req) => ok(await saveRole(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.removeRole),
    schema: {
      tags: ['team'],
      summary: 'Remove a named role no user holds (code 1222 while users hold it)',
      body: inputOf(TeamApi.removeRole)(roleIdSchema),
      response: { 200: envelope(answerOf(TeamApi.removeRole)(z.null())) },
    },
    handler: async (req) => {
      await removeRole(deps, userOf(req), req.body.roleId, meta(req));
      return ok(null);
    },
  });
}
