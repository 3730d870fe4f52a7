import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ROLES,
  TeamApi,
  USER_STATUSES,
  UsersApi,
  addUserSchema,
  auditFilterSchema,
  auditListQuerySchema,
  checkUserExistQuerySchema,
  exportQueuedSchema,
  generateUserNameQuerySchema,
  teamListQuerySchema,
  updateUserSchema,
  updateUserStatusSchema,
  userIdSchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { scopeFor, userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { audit } from '../../lib/audit';
import { enqueueExport } from '../export';
import { addUser, assertMainUser, checkUserExist, generateUserName, removeUser, resetPassword, teamList, TeamAudit, updateUser, updateUserStatus } from './team.service';
import { AUDIT_EXPORT_KIND, auditList } from './audit.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const teamUserRowSchema = z.object({
  id: z.number(),
  userID: z.number(),
  userName: z.string(),
  userType: z.enum(['MAIN', 'SUB']),
  role: z.enum(ROLES).nullable(),
  roleId: z.number().nullable().describe('a named role of the merchant (role CUSTOM), else null'),
  roleName: z.string().nullable(),
  merId: z.string(),
  merName: z.string(),
  merIds: z.array(z.string()),
  permissions: z.array(z.string()),
  email: z.string(),
  phone: z.string().nullable().describe('masked: the last four digits only'),
  status: z.enum(USER_STATUSES),
  twoFactor: z.boolean(),
  lastLoginTime: z.string().nullable(),
  createTime: z.string(),
  self: z.boolean(),
  accessEndsOn: z
    .string()
    .nullable()
    .describe('the last day of access (yyyy-MM-dd, platform zone); the daily job disables the user after it. Extending or removing it for a user beyond read-only is a permission raise (issue 47)'),
});
const auditRowSchema = z.object({
  id: z.number(),
  time: z.string(),
  userName: z.string().nullable(),
  merId: z.string().nullable(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  target: z.string().nullable(),
  ip: z.string().nullable(),
});

/** The /user calls of spec §7 for user management, and the audit viewer (/audit). */
export function teamRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(UsersApi.list),
    schema: {
      tags: ['team'],
      summary: "The merchant's users (and, for a group, its sub-merchants'): filters merId, status, text (user name or e-mail); main users only",
      querystring: inputOf(UsersApi.list)(teamListQuerySchema),
      response: { 200: envelope(answerOf(UsersApi.list)(pageOf(teamUserRowSchema))) },
    },
    handler: async (req) => {
      const { page, size, merId, ...f } = req.query;
      return ok(await teamList(deps, userOf(req), f, scopeFor(req, merId), page, size));
    },
  });

  r.route({
    ...routeOf(UsersApi.generateUserName),
    schema: {
      tags: ['team'],
      summary: 'Propose a free user name (from `base` when given)',
      querystring: inputOf(UsersApi.generateUserName)(generateUserNameQuerySchema),
      response: { 200: envelope(answerOf(UsersApi.generateUserName)(z.string())) },
    },
    handler: async (req) => ok(await generateUserName(deps, userOf(req), req.query.base)),
  });
  // Spec §7 lists generateUserName among the POST calls: the same, with `base` in the form.
  r.route({
    ...routeOf(UsersApi.generateUserNamePost),
    schema: {
      tags: ['team'],
      summary: 'Propose a free user name (form: `base`, optional) — the POST form of the GET above',
      body: inputOf(UsersApi.generateUserNamePost)(generateUserNameQuerySchema),
      response: { 200: envelope(answerOf(UsersApi.generateUserNamePost)(z.string())) },
    },
    handler: async (req) => ok(await generateUserName(deps, userOf(req), req.body?.base)),
  });

  r.route({
    ...routeOf(UsersApi.checkUserExist, { rateLimit: { max: 300, timeWindow: '1 minute' } }),
    schema: {
      tags: ['team'],
      summary: 'Whether a user name, e-mail or mobile number is already taken (as the add-user form is typed)',
      querystring: inputOf(UsersApi.checkUserExist)(checkUserExistQuerySchema),
      response: { 200: envelope(answerOf(UsersApi.checkUserExist)(z.object({ userName: z.boolean(), email: z.boolean(), phone: z.boolean(), exists: z.boolean() }))) },
    },
    handler: async (req) => ok(await checkUserExist(deps, userOf(req), req.query)),
  });

  r.route({
    ...routeOf(UsersApi.add),
    schema: {
      tags: ['team'],
      summary: 'Add a user: user name, e-mail, phone, merIds (comma-joined or array, in your scope), role (preset or CUSTOM with permissions). Mails the activation link.',
      description:
        "Presets are cut down to the permissions you hold; a CUSTOM role asking for one you do not hold is refused (code 1202). Taken name, e-mail or phone: code 1201. With the merchant's permission-raise rule on, a user given more than the read-only baseline (any grant that could approve a request, or administrator) waits for a second administrator: code 1234 with the request id — no user and no activation mail until it is approved (issue 47).",
      body: inputOf(UsersApi.add)(addUserSchema),
      response: { 200: envelope(answerOf(UsersApi.add)(teamUserRowSchema)) },
    },
    handler: async (req) => ok(await addUser(deps, userOf(req), req.body, req.lang, meta(req))),
  });

  r.route({
    ...routeOf(UsersApi.update),
    schema: {
      tags: ['team'],
      summary: "Edit a user: role (preset or CUSTOM with permissions) and merIds — the rules of /user/add. A permission taken away stops working on the user's sessions at once, on every server",
      description:
        'Not yourself (code 1203); not the last administrator of a merchant (code 1204); grants beyond your own are refused (code 1202); a user or merchant outside your scope answers 404 / 403. More permissions or a later (or no) access end date of a user beyond read-only (permission-raise rule on), or moving a refunder to looser refund caps (always), wait for a second administrator: code 1234. Audited with before and after.',
      body: inputOf(UsersApi.update)(updateUserSchema),
      response: { 200: envelope(answerOf(UsersApi.update)(teamUserRowSchema)) },
    },
    handler: async (req) => ok(await updateUser(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(UsersApi.updateUserStatus),
    schema: {
      tags: ['team'],
      summary: "Enable (ACTIVE) or disable (DISABLED) a user; disabling ends the user's sessions on every server at once",
      description:
        "Not yourself (code 1203), not the last administrator of a merchant (code 1204). Re-enabling a user beyond the read-only baseline gives its permissions back (issue 47): with the merchant's permission-raise rule on it waits for a second administrator (code 1234 with the request id; the user stays disabled until approved).",
      body: inputOf(UsersApi.updateUserStatus)(updateUserStatusSchema),
      response: { 200: envelope(answerOf(UsersApi.updateUserStatus)(teamUserRowSchema)) },
    },
    handler: async (req) => ok(await updateUserStatus(deps, userOf(req), req.body.userId, req.body.status, meta(req))),
  });

  r.route({
    ...routeOf(UsersApi.remove),
    schema: {
      tags: ['team'],
      summary: 'Remove a user (soft delete: audit trail kept, the name stays taken for 12 months)',
      body: inputOf(UsersApi.remove)(userIdSchema),
      response: { 200: envelope(answerOf(UsersApi.remove)(z.null())) },
    },
    handler: async (req) => {
      await removeUser(deps, userOf(req), req.body.userId, meta(req));
      return ok(null);
    },
  });

  r.route({
    ...routeOf(UsersApi.resetPassword),
    schema: {
      tags: ['team'],
      summary: 'E-mail the user a password-reset link (30 min); a user not activated yet gets a new activation link. No password is ever shown.',
      body: inputOf(UsersApi.resetPassword)(userIdSchema),
      response: { 200: envelope(answerOf(UsersApi.resetPassword)(z.object({ sent: z.enum(['reset', 'activation']) }))) },
    },
    handler: async (req) => ok(await resetPassword(deps, userOf(req), req.body.userId, req.lang, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.auditList),
    schema: {
      tags: ['team'],
      summary: "Audited events of the caller's merchant scope: beginDate/endDate (platform zone days), userName, eventType; newest first",
      querystring: inputOf(TeamApi.auditList)(auditListQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.auditList)(pageOf(auditRowSchema))) },
    },
    handler: async (req) => {
      assertMainUser(userOf(req));
      const { page, size, ...f } = req.query;
      return ok(await auditList(deps, f, userOf(req).scope, page, size));
    },
  });

  r.route({
    ...routeOf(TeamApi.auditExport),
    schema: {
      tags: ['team'],
      summary: 'Queue a CSV export of the audit log (same filters); the file appears in /report/file',
      body: inputOf(TeamApi.auditExport)(auditFilterSchema),
      response: { 200: envelope(answerOf(TeamApi.auditExport)(exportQueuedSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      assertMainUser(u);
      const row = await enqueueExport(deps, {
        userId: u.id,
        merId: u.merId,
        scope: u.scope,
        permissions: u.permissions,
        kind: AUDIT_EXPORT_KIND,
        params: req.body,
        format: 'csv',
        lang: req.lang,
        tzOffset: req.tzOffset,
      });
      await audit(deps.db, { action: TeamAudit.auditExport, userId: u.id, username: u.username, merId: u.merId, target: `export #${row.id}`, detail: req.body, ...meta(req) });
      return ok({ id: row.id, status: row.status });
    },
  });
}
