import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code, DisputesApi, toMinor } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { AppError } from '../../lib/errors';
import { DISPUTE_KINDS, DISPUTE_STATES } from './disputes.machine';
import { EVIDENCE_CATEGORIES } from './reason-codes';
import {
  EVIDENCE_MAX_BYTES,
  STATEMENT_MAX,
  acceptDispute,
  assertDisputeVisible,
  addEvidence,
  disputeDetail,
  evidenceFile,
  listDisputes,
  removeEvidence,
  saveStatement,
  stateCounts,
  submitDispute,
  zoneOf,
} from './disputes.service';

const TAG = ['disputes'];
const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
const csv = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .max(200)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values as [T, ...T[]])))
    .optional();
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .optional();
const decimal = z
  .string()
  .regex(/^\d{1,13}(\.\d{1,3})?$/, 'a decimal amount')
  .optional();

export const disputeQuerySchema = z.strictObject({
  state: csv(DISPUTE_STATES),
  kind: csv(DISPUTE_KINDS),
  reasonCode: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,8}$/)
    .optional(),
  brand: z
    .string()
    .regex(/^[a-z0-9_]{1,32}$/)
    .optional(),
  merId: z
    .string()
    .regex(/^\d{15}$/)
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  amountMin: decimal,
  amountMax: decimal,
  deadlineBefore: date,
  beginDate: date,
  endDate: date,
  page: z.coerce.number().int().min(1).max(10_000).optional(),
  size: z.coerce.number().int().min(1).max(100).optional(),
});
export type DisputeQuery = z.infer<typeof disputeQuerySchema>;

export const disputeViewSchema = z.object({
  id: z.number(),
  gwDisputeId: z.string(),
  merId: z.string(),
  merName: z.string(),
  kind: z.enum(DISPUTE_KINDS),
  state: z.enum(DISPUTE_STATES),
  brand: z.string(),
  reasonCode: z.string(),
  reason: z.string(),
  reasonGroup: z.string(),
  amount: z.string(),
  currency: z.string(),
  debitAmount: z.string(),
  refundedBefore: z.string(),
  deadline: z.string(),
  daysLeft: z.number(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  sendState: z.string().nullable(),
  purchaseId: z.number(),
  purchaseGwTransId: z.string(),
  purchaseOrderNo: z.string(),
});
const evidenceSchema = z.object({ id: z.number(), category: z.string(), fileName: z.string(), mime: z.string(), size: z.number(), sha256: z.string(), uploadedAt: z.string(), submitted: z.boolean() });
export const detailSchema = disputeViewSchema.extend({
  reasonKnown: z.boolean(),
  evidenceHelps: z.array(z.string()),
  evidenceText: z.string(),
  statement: z.string().nullable(),
  submittedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  outcomeBy: z.string().nullable(),
  canRespond: z.boolean(),
  purchase: z.object({
    id: z.number(),
    gwTransId: z.string(),
    orderNo: z.string(),
    amount: z.string(),
    currency: z.string(),
    time: z.string(),
    returnAmount: z.string(),
    disputedAmount: z.string(),
    brand: z.string().nullable(),
    channel: z.string(),
  }),
  refunds: z.array(z.object({ id: z.number(), gwTransId: z.string(), orderNo: z.string(), amount: z.string(), currency: z.string(), gwResponse: z.string().nullable(), time: z.string() })),
  evidence: z.array(evidenceSchema),
  timeline: z.array(z.object({ at: z.string(), action: z.string(), by: z.string().nullable(), detail: z.record(z.string(), z.unknown()) })),
  settlement: z.array(
    z.object({
      id: z.number(),
      disputeId: z.number(),
      gwDisputeId: z.string(),
      kind: z.string(),
      txnId: z.number(),
      gwTransId: z.string(),
      merId: z.string(),
      busLine: z.string(),
      setCur: z.string(),
      settleDate: z.string().nullable(),
      amount: z.string(),
    }),
  ),
});
const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const countsSchema = z.object(Object.fromEntries([...DISPUTE_STATES, 'dueSoon'].map((s) => [s, z.number()])) as Record<string, z.ZodNumber>);

/** Minor units of a filter amount: in `currency` when given, else as a 2-decimal currency. */
const minorOf = (v: string | undefined, currency?: string) => (v === undefined ? undefined : toMinor(v, currency ?? 'USD'));

/** The filters of the inbox, as the service takes them. */
export function filterOf(q: DisputeQuery) {
  return {
    state: q.state,
    kind: q.kind,
    reasonCode: q.reasonCode,
    brand: q.brand,
    merId: q.merId,
    amountMin: minorOf(q.amountMin, q.currency),
    amountMax: minorOf(q.amountMax, q.currency),
    deadlineBefore: q.deadlineBefore,
    beginDate: q.beginDate,
    endDate: q.endDate,
    page: q.page,
    size: q.size,
  };
}

/**
 * The portal's disputes (issue 48): inbox, counts, detail (dispute:view); evidence, statement,
 * submit, accept (dispute:respond). Every call answers within the caller's merchants: another
 * merchant's dispute answers as absent (404).
 */
export function disputeRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(DisputesApi.list),
    schema: {
      tags: TAG,
      summary:
        "The disputes inbox: the caller's merchants' disputes, open ones first by deadline (days left in the user's zone); filters state, kind (comma-joined), reasonCode, brand, merId, amountMin/Max, deadlineBefore, opened beginDate–endDate",
      querystring: inputOf(DisputesApi.list)(disputeQuerySchema),
      response: { 200: envelope(answerOf(DisputesApi.list)(pageOf(disputeViewSchema))) },
    },
    handler: async (req) => {
      const u = userOf(req);
      return ok(await listDisputes(deps, u.scope, filterOf(req.query), req.lang, zoneOf(deps, u)));
    },
  });

  r.route({
    ...routeOf(DisputesApi.counts),
    schema: {
      tags: TAG,
      summary: "Disputes per state of the caller's merchants (the dashboard), and those needing a response within 7 days",
      response: { 200: envelope(countsSchema) },
    },
    handler: async (req) => ok(await stateCounts(deps, userOf(req).scope)),
  });

  r.route({
    ...routeOf(DisputesApi.detail),
    schema: {
      tags: TAG,
      summary: 'One dispute: the purchase and its refunds, the reason in plain words with the evidence that helps, the evidence, the timeline (audit log), the settlement lines',
      params: inputOf(DisputesApi.detail)(idParams),
      response: { 200: envelope(answerOf(DisputesApi.detail)(detailSchema)) },
    },
    handler: async (req) => {
      const u = userOf(req);
      return ok(await disputeDetail(deps, u.scope, req.params.id, req.lang, zoneOf(deps, u)));
    },
  });

  r.route({
    ...routeOf(DisputesApi.uploadEvidence, { rateLimit: { max: 60, timeWindow: '1 minute' } }),
    schema: {
      tags: TAG,
      summary: `Add an evidence file (multipart field "file"; query category: ${EVIDENCE_CATEGORIES.join(', ')}): PDF, JPG or PNG checked by content, at most 4.5 MB, at most 10 per dispute; only while the dispute needs a response`,
      consumes: ['multipart/form-data'],
      params: inputOf(DisputesApi.uploadEvidence)(idParams),
      querystring: inputOf(DisputesApi.uploadEvidence)(z.strictObject({ category: z.enum(EVIDENCE_CATEGORIES as [string, ...string[]]).optional() })),
      response: { 200: envelope(answerOf(DisputesApi.uploadEvidence)(evidenceSchema)) },
    },
    handler: async (req) => {
      await assertDisputeVisible(deps, userOf(req).scope, req.params.id);
      const file = await receiveFile(req);
      return ok(await addEvidence(deps, userOf(req), req.params.id, { category: req.query.category ?? '', ...file }, meta(req)));
    },
  });

  r.route({
    ...routeOf(DisputesApi.removeEvidence),
    schema: {
      tags: TAG,
      summary: 'Remove a draft evidence file (submitted evidence is immutable: 409)',
      params: inputOf(DisputesApi.removeEvidence)(z.strictObject({ id: idParams.shape.id, evidenceId: idParams.shape.id })),
      response: { 200: envelope(answerOf(DisputesApi.removeEvidence)(z.null())) },
    },
    handler: async (req) => {
      await removeEvidence(deps, userOf(req), req.params.id, req.params.evidenceId, meta(req));
      return ok(null);
    },
  });

  r.route({
    ...routeOf(DisputesApi.evidence),
    schema: { tags: TAG, summary: 'Download an evidence file (audited)', params: inputOf(DisputesApi.evidence)(z.strictObject({ id: idParams.shape.id, evidenceId: idParams.shape.id })) },
    handler: async (req, reply) => {
      const f = await evidenceFile(deps, userOf(req), req.params.id, req.params.evidenceId);
      reply.header('Content-Type', f.mime);
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.file_name)}`);
      reply.header('Cache-Control', 'private, no-store');
      return reply.send(Buffer.from(f.content));
    },
  });

  r.route({
    ...routeOf(DisputesApi.statement),
    schema: {
      tags: TAG,
      summary: `Save the written statement as a draft (at most ${STATEMENT_MAX} characters)`,
      params: inputOf(DisputesApi.statement)(idParams),
      body: inputOf(DisputesApi.statement)(z.strictObject({ statement: z.string().max(20_000) })),
      response: { 200: envelope(answerOf(DisputesApi.statement)(z.null())) },
    },
    handler: async (req) => {
      await saveStatement(deps, userOf(req), req.params.id, req.body.statement, meta(req));
      return ok(null);
    },
  });

  const stateAnswer = envelope(z.object({ state: z.string(), sendState: z.string().nullable() }));
  r.route({
    ...routeOf(DisputesApi.submit),
    schema: {
      tags: TAG,
      summary: 'Submit the answer once: the evidence becomes immutable, the dispute is under review, "sending" until the gateway confirms',
      params: inputOf(DisputesApi.submit)(idParams),
      response: { 200: stateAnswer },
    },
    handler: async (req) => ok(await submitDispute(deps, userOf(req), req.params.id, meta(req))),
  });

  r.route({
    ...routeOf(DisputesApi.accept),
    schema: { tags: TAG, summary: 'Accept the dispute (the debit stays; nothing more moves); sent to the gateway', params: inputOf(DisputesApi.accept)(idParams), response: { 200: stateAnswer } },
    handler: async (req) => ok(await acceptDispute(deps, userOf(req), req.params.id, meta(req))),
  });
}

/** One multipart file, at most 4.5 MB (a larger one is refused, nothing stored). */
export async function receiveFile(req: FastifyRequest): Promise<{ fileName: string; data: Buffer }> {
  const bad = () => new AppError(Code.BAD_REQUEST, 'disputeFileType', {}, 400, { field: 'file' });
  const big = () => new AppError(Code.BAD_REQUEST, 'disputeFileTooLarge', { max: '4.5' }, 400, { field: 'file' });
  if (!req.isMultipart()) throw bad();
  let part;
  try {
    part = await req.file({ limits: { fileSize: EVIDENCE_MAX_BYTES, files: 1, fields: 5 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw big();
    throw bad();
  }
  if (!part) throw bad();
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw big();
    throw bad();
  }
  if (part.file.truncated || data.length > EVIDENCE_MAX_BYTES) throw big();
  if (!data.length) throw bad();
  return { fileName: part.filename ?? 'evidence', data };
}
