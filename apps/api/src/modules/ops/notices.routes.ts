import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OPS_NOTICE_TARGETS, opsNoticeSchema, type OpsRole } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { OpsMerchantsApi } from '@portal/contract';
import { operatorOf } from './ops.auth';
import { createNotice, editNotice, getNotice, listNotices, withdrawNotice } from './notices.service';

/**
 * Who writes notices (decision 044): besides the administrator, support — who answers merchants and
 * tells them of incidents and maintenance — and onboarding — who tells them of new terms and fee
 * schedules. Risk and read-only read the list only (risk's lock notices are written by the lock itself).
 */
export const NOTICE_WRITERS: readonly OpsRole[] = ['support', 'onboarding'];

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
const idParam = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
const tags = ['X-HIDDEN', 'notices'];
const s = z.string().nullable();
const noticeRow = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  level: z.enum(['info', 'important']),
  status: z.enum(['scheduled', 'published', 'withdrawn']),
  target: z.enum(OPS_NOTICE_TARGETS),
  merchants: z.array(z.string()),
  groupId: s,
  publishedAt: z.string(),
  createdBy: s,
  createdAt: s,
  withdrawnAt: s,
  withdrawnBy: s,
  attachments: z.array(z.object({ id: z.number(), fileName: z.string(), format: z.string(), sizeBytes: z.number() })),
});
/** Five files of 20 MiB at most, in base64, and the text. */
const bodyLimit = 5 * 28 * 1024 * 1024;
const inputNote =
  'JSON body; files: [{name, contentBase64}] — PDF, CSV, PNG or JPG by content, 20 MiB each, at most 5; names lose path parts, control and bidirectional characters. publishAt: "yyyy-MM-dd HH:mm:ss" in timeZone (IANA), in the future; absent: at once.';

/** The back office's notices (decision 044), registered inside the ops context (ops.routes.ts). */
export function opsNoticeRoutes(f: FastifyInstance, deps: Deps): void {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const env = () => ({ db: deps.db, dataDir: deps.config.dataDir, now: deps.clock.now() });
  r.route({
    ...routeOf(OpsMerchantsApi.notices),
    schema: {
      tags,
      summary: 'Every notice, newest publication first, with its status (scheduled / published / withdrawn), target and times',
      querystring: inputOf(OpsMerchantsApi.notices)(
        z.object({
          status: z.enum(['scheduled', 'published', 'withdrawn']).optional(),
          page: z.coerce.number().int().min(0).max(100000).default(0),
          size: z.coerce.number().int().min(1).max(100).default(20),
        }),
      ),
      response: { 200: envelope(answerOf(OpsMerchantsApi.notices)(z.object({ content: z.array(noticeRow), totalElements: z.number() }))) },
    },
    handler: async (req) => ok(await listNotices(deps.db, req.query, deps.clock.now())),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.notice),
    schema: { tags, summary: 'One notice', params: inputOf(OpsMerchantsApi.notice)(idParam), response: { 200: envelope(answerOf(OpsMerchantsApi.notice)(noticeRow)) } },
    handler: async (req) => ok(await getNotice(deps.db, req.params.id, deps.clock.now())),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.createNotice),
    bodyLimit,
    schema: {
      tags,
      summary: 'Write a notice: to every merchant, chosen merchants, or a group (the group and its sub-merchants); at once or at a future instant',
      description: inputNote,
      body: inputOf(OpsMerchantsApi.createNotice)(opsNoticeSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.createNotice)(noticeRow)) },
    },
    handler: async (req) => ok(await createNotice(env(), req.body, operatorOf(req), meta(req))),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.editNotice),
    bodyLimit,
    schema: {
      tags,
      summary: 'Edit a scheduled notice (not yet published): text, target, time; add files, drop some (removeAttachments)',
      description: inputNote,
      params: inputOf(OpsMerchantsApi.editNotice)(idParam),
      body: inputOf(OpsMerchantsApi.editNotice)(opsNoticeSchema),
      response: { 200: envelope(answerOf(OpsMerchantsApi.editNotice)(noticeRow)) },
    },
    handler: async (req) => ok(await editNotice(env(), req.params.id, req.body, operatorOf(req), meta(req))),
  });
  r.route({
    ...routeOf(OpsMerchantsApi.withdrawNotice),
    schema: {
      tags,
      summary: 'Withdraw a notice: merchants no longer see it nor its attachments (a scheduled one never appears); kept for the record',
      params: inputOf(OpsMerchantsApi.withdrawNotice)(idParam),
      response: { 200: envelope(answerOf(OpsMerchantsApi.withdrawNotice)(noticeRow)) },
    },
    handler: async (req) => ok(await withdrawNotice(env(), req.params.id, operatorOf(req), meta(req))),
  });
}
