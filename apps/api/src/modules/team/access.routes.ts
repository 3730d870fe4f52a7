import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REVIEW_DECISIONS,
  TeamApi,
  USER_STATUSES,
  accessPolicyQuerySchema,
  accessPolicySchema,
  reviewCompleteSchema,
  reviewDecideSchema,
  reviewHistoryQuerySchema,
  reviewIdSchema,
  reviewQuerySchema,
} from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { completeReview, decideReview, getAccessPolicy, reviewDetail, reviewHistory, reviewState, saveAccessPolicy } from './access.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const policyOut = z.object({ merId: z.string(), inactiveDays: z.number(), source: z.enum(['own', 'group', 'default']) });
const grants = {
  role: z.string().nullable(),
  roleName: z.string().nullable(),
  permissions: z.array(z.string()),
  merIds: z.array(z.string()),
  lastLoginTime: z.string().nullable(),
  accessEndsOn: z.string().nullable(),
};
const reviewUser = z.object({
  userId: z.number(),
  userName: z.string(),
  email: z.string(),
  ...grants,
  status: z.enum(USER_STATUSES),
  inactiveDays: z.number(),
  self: z.boolean(),
  manageable: z.boolean().describe('its whole scope lies within yours: it may be disabled or removed here'),
  decision: z.enum(REVIEW_DECISIONS).nullable(),
  decidedBy: z.string().nullable(),
  decideTime: z.string().nullable(),
});
const reviewStateOut = z.object({
  merId: z.string(),
  quarter: z.string(),
  due: z.boolean(),
  lastCompleteTime: z.string().nullable(),
  open: z.object({ id: z.number(), startedBy: z.string(), startTime: z.string() }).nullable(),
  inactiveDays: z.number(),
  users: z.array(reviewUser),
});
const reviewRecord = z.object({
  id: z.number(),
  merId: z.string(),
  quarter: z.string(),
  startedBy: z.string(),
  startTime: z.string(),
  completedBy: z.string().nullable(),
  completeTime: z.string().nullable(),
  confirmed: z.number(),
  disabled: z.number(),
  removed: z.number(),
});
const reviewItem = z.object({ userId: z.number(), userName: z.string(), decision: z.enum(REVIEW_DECISIONS), decidedBy: z.string(), decideTime: z.string(), ...grants });

/** Access that expires (issue 28 item 3, decision 048): the inactivity limit and the quarterly access review. */
export function accessRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(TeamApi.accessPolicy),
    schema: {
      tags: ['team'],
      summary: "A merchant's inactivity limit in days (its own, else its group's, else 90); main users only",
      querystring: inputOf(TeamApi.accessPolicy)(accessPolicyQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.accessPolicy)(policyOut)) },
    },
    handler: async (req) => ok(await getAccessPolicy(deps, userOf(req), req.query.merId)),
  });

  r.route({
    ...routeOf(TeamApi.saveAccessPolicy),
    schema: {
      tags: ['team'],
      summary: "Set a merchant's inactivity limit: inactiveDays (14–90, PCI DSS 8.2.6). Users not signed in for that long are disabled by the daily job, warned by e-mail a week before. Audited",
      description: 'Fewer days apply at once; more days wait for a second administrator (code 1234, issue 47). A sub-merchant cannot set more days than its group (400).',
      body: inputOf(TeamApi.saveAccessPolicy)(accessPolicySchema),
      response: { 200: envelope(answerOf(TeamApi.saveAccessPolicy)(policyOut)) },
    },
    handler: async (req) => ok(await saveAccessPolicy(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.review),
    schema: {
      tags: ['team'],
      summary:
        "The access review of a merchant (default: yours): each user's role, permissions, merchants, last sign-in and access end, the open review's decisions, and whether this quarter's review is due",
      querystring: inputOf(TeamApi.review)(reviewQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.review)(reviewStateOut)) },
    },
    handler: async (req) => ok(await reviewState(deps, userOf(req), req.query.merId)),
  });

  r.route({
    ...routeOf(TeamApi.reviewDecide),
    schema: {
      tags: ['team'],
      summary: 'Decide on one user in the review (the first decision opens it): CONFIRM, or revoke — DISABLE / REMOVE through the team rules',
      description: 'Not yourself (code 1203), not the last administrator (1204), not a user reaching merchants outside your scope (403); another merchant or its user: 404. Audited.',
      body: inputOf(TeamApi.reviewDecide)(reviewDecideSchema),
      response: { 200: envelope(answerOf(TeamApi.reviewDecide)(reviewStateOut)) },
    },
    handler: async (req) => ok(await decideReview(deps, userOf(req), req.body, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.reviewComplete),
    schema: {
      tags: ['team'],
      summary: 'Complete the open review once every user has a decision (code 409 with the count otherwise); recorded and audited',
      body: inputOf(TeamApi.reviewComplete)(reviewCompleteSchema),
      response: { 200: envelope(answerOf(TeamApi.reviewComplete)(reviewRecord)) },
    },
    handler: async (req) => ok(await completeReview(deps, userOf(req), req.body.merId, meta(req))),
  });

  r.route({
    ...routeOf(TeamApi.reviewHistory),
    schema: {
      tags: ['team'],
      summary: "A merchant's access reviews, newest first: who started and completed each, and its decisions counted",
      querystring: inputOf(TeamApi.reviewHistory)(reviewHistoryQuerySchema),
      response: { 200: envelope(answerOf(TeamApi.reviewHistory)(pageOf(reviewRecord))) },
    },
    handler: async (req) => ok(await reviewHistory(deps, userOf(req), req.query.merId, req.query.page, req.query.size)),
  });

  r.route({
    ...routeOf(TeamApi.reviewRecord),
    schema: {
      tags: ['team'],
      summary: 'One access review: each decision, who took it and when, and what the user had then',
      params: inputOf(TeamApi.reviewRecord)(reviewIdSchema),
      response: { 200: envelope(answerOf(TeamApi.reviewRecord)(z.object({ review: reviewRecord, items: z.array(reviewItem) }))) },
    },
    handler: async (req) => ok(await reviewDetail(deps, userOf(req), req.params.id)),
  });
}
