import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BEGIN_END, Perm, RefundCode, refuseReversed, txnFilterSchema, textInput } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { sha256 } from '../../lib/crypto';
import { findDetail, listTxn, metadataOf, txnKey, txnWhere } from '../txn';
import { type TxnDbRow } from '../txn';
import { checkRange } from '../txn';
import { gwTransIdOf, refund } from '../txn';
import { keyAsUser } from '../apikey';
import { V1Error } from './v1.errors';
import { listOf, toV1Transaction, v1RefundApprovalSchema, v1RefundSchema, v1TransactionSchema, type V1RefundApproval, type V1Transaction } from './v1.schemas';
import { metadataInput, metadataToStore } from './v1.metadata';
import { expandQuery, expandsOf } from './v1.expand';
import { refundApprovalOf } from '../team';

/** The key of the request (set by the face's hook before any handler runs). */
export const keyOf = (req: FastifyRequest) => {
  if (!req.apiKey) throw new V1Error(401, 'authentication_error', 'api_key_missing', 'apiKeyMissing');
  return req.apiKey;
};

const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
// The portal screen's own fields (its time-zone selector and the range as typed) mean nothing here.
const { userName: _u, timeZone: _z, beginDateOriginal: _b, endDateOriginal: _e, ...filterShape } = txnFilterSchema.shape;
/**
 * The portal's transaction filters (same names and rules as /api/txn/list), and cursor paging.
 * Strict: a parameter this list does not know answers 400 naming it (issue 47: never ignored).
 */
export const cursorQuery = z
  .strictObject({
    ...filterShape,
    merId: filterShape.merId.describe("one of the key's merchants (its own or a sub-merchant it acts for): only that merchant's rows; another merchant's id matches nothing"),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z
      .string()
      .trim()
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional(),
  })
  .superRefine(refuseReversed(BEGIN_END));

/** The refunds' list: the transaction filters and `expand[]`. */
const refundListQuery = z.strictObject({ ...cursorQuery.shape, 'expand[]': expandQuery(['data.purchase', 'purchase']) }).superRefine(refuseReversed(BEGIN_END));

/** The key's merchants, or the one asked for when the key acts for it (else none: nothing of another's). */
export const narrowScope = (scope: string[], merId?: string | null) => (merId ? (scope.includes(merId) ? [merId] : []) : scope);

const encodeCursor = (id: number) => Buffer.from(`t${id}`).toString('base64url');
function decodeCursor(c: string): number | null {
  const m = /^t([1-9]\d{0,15})$/.exec(Buffer.from(c, 'base64url').toString());
  return m ? Number(m[1]) : null;
}

/**
 * A page newest first by (time, id): the cursor names the last row given, and the next page is
 * the rows strictly after it in that order (keyset) — a row inserted meanwhile never shifts the
 * pages, so none is given twice or skipped. A cursor of a row outside the key's scope is refused.
 */
async function page(deps: Deps, keyScope: string[], q: z.infer<typeof cursorQuery>, extra?: Partial<z.infer<typeof txnFilterSchema>>) {
  checkRange(q.beginDate, q.endDate);
  const scope = narrowScope(keyScope, q.merId);
  if (!scope.length) return { data: [], has_more: false, next_cursor: null };
  let after = null;
  if (q.cursor) {
    const id = decodeCursor(q.cursor);
    after = id === null ? null : await txnKey(deps.db.read, id, scope);
    if (!after) throw new V1Error(400, 'invalid_request_error', 'cursor_invalid', 'v1CursorInvalid', {}, 'cursor');
  }
  const w = txnWhere({ ...q, ...extra }, scope, deps.config.platformTz);
  const rows = (await listTxn(deps.db.read, w, 0, q.limit + 1, after)) as (TxnDbRow & { gw_trans_id: string })[];
  const more = rows.length > q.limit;
  const slice = rows.slice(0, q.limit);
  const meta = await metadataOf(
    deps.db.read,
    slice.map((r) => Number(r.id)),
    scope,
  );
  const data = slice.map((r) => asRefund(toV1Transaction(r, meta.get(Number(r.id)))));
  return { data, has_more: more, next_cursor: more ? encodeCursor(data[data.length - 1].id) : null };
}

async function one(deps: Deps, scope: string[], id: number, type?: string) {
  const r = await findDetail(deps.db, id, scope);
  if (!r || (type && r.tran_type !== type)) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
  const meta = await metadataOf(deps.db, [Number(r.id)], scope);
  return asRefund(toV1Transaction(r as TxnDbRow & { gw_trans_id: string }, meta.get(Number(r.id))));
}

/** A refund's purchase by id (the Refund's `purchase`; a Transaction answers without it). */
const asRefund = (t: V1Transaction) => ({ ...t, purchase: t.origin_transaction_id as number | V1Transaction | null });

const REFUND_EXPANDS = ['purchase'] as const;
/** On a list, Stripe's form `data.purchase` (each item's purchase), or the object's own `purchase`. */
const REFUND_LIST_EXPANDS = ['data.purchase', 'purchase'] as const;

/** The refunds of a page with their purchases inline: each purchase read once (a page's refunds often share one). */
async function withPurchases(deps: Deps, scope: string[], data: ReturnType<typeof asRefund>[]) {
  const ids = [...new Set(data.map((r) => r.origin_transaction_id).filter((id): id is number => id !== null))];
  const found = await Promise.all(ids.map((id) => one(deps, scope, id).catch(() => null)));
  const byId = new Map<number, V1Transaction>();
  for (const p of found) {
    if (!p) continue;
    const { purchase: _p, ...purchase } = p;
    byId.set(p.id, purchase);
  }
  return data.map((r) => (r.origin_transaction_id !== null && byId.has(r.origin_transaction_id) ? { ...r, purchase: byId.get(r.origin_transaction_id)! } : r));
}
/** A refund, its purchase inline when expand[]=purchase. */
async function refundView(deps: Deps, scope: string[], id: number, expand: Set<string>) {
  const r = await one(deps, scope, id, 'REFD');
  if (expand.has('purchase') && r.origin_transaction_id !== null) {
    const p = await one(deps, scope, r.origin_transaction_id).catch(() => null);
    if (p) {
      const { purchase: _p, ...purchase } = p;
      return { ...r, purchase };
    }
  }
  return r;
}

/**
 * A refund's four-eyes request of the key's merchants (another's answers 404). One past its expiry
 * is marked EXPIRED as it is read (the team's `refundApprovalOf`), as the portal's list does.
 */
async function refundApproval(deps: Deps, scope: string[], id: number): Promise<V1RefundApproval> {
  const row = await refundApprovalOf(deps, scope, id);
  if (!row) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
  const ok = row.status === 'APPROVED' && row.result?.code === RefundCode.OK;
  return {
    id: Number(row.id),
    status: row.status.toLowerCase() as V1RefundApproval['status'],
    transaction_id: row.txn_id === null ? null : Number(row.txn_id),
    amount: row.payload.amount,
    currency: row.summary.currency,
    created_at: new Date(row.requested_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    decided_at: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    refund_id: ok && row.result?.refundId != null ? Number(row.result.refundId) : null,
    failure_message: row.status === 'APPROVED' && row.result && !ok ? (row.result.msg ?? null) : null,
  };
}

const refundBody = z.strictObject({
  transaction_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe('the purchase to refund'),
  amount: textInput(32, { min: 1 }).describe("decimal string in the purchase's currency"),
  metadata: metadataInput.optional(),
});

const REFUND_ERRORS: Record<number, [number, string, string]> = {
  [RefundCode.NOT_REFUNDABLE]: [422, 'not_refundable', 'transaction_id'],
  [RefundCode.OVER_AMOUNT]: [422, 'amount_too_large', 'amount'],
  [RefundCode.DECLINED]: [422, 'refund_declined', 'transaction_id'],
  [RefundCode.KEY_REUSED]: [409, 'idempotency_key_reused', 'Idempotency-Key'],
};

export function v1TxnRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];

  r.get('/transactions', {
    config: { v1: { permission: Perm.txnList, tag: 'transactions' } },
    schema: {
      tags: hidden,
      operationId: 'listTransactions',
      summary: "List transactions, newest first (the portal's filters; cursor paging)",
      description:
        "Filters as on the portal's list; merId narrows to one of the key's merchants (another merchant's id matches nothing: an empty page). A parameter not listed here answers 400 (param names it).",
      querystring: cursorQuery,
      response: { 200: listOf(v1TransactionSchema, 'TransactionList') },
    },
    handler: async (req) => page(deps, keyOf(req).scope, req.query),
  });

  r.get('/transactions/:id', {
    config: { v1: { permission: Perm.txnDetail, tag: 'transactions' } },
    schema: { tags: hidden, operationId: 'getTransaction', summary: 'One transaction', params: idParams, response: { 200: v1TransactionSchema } },
    handler: async (req) => one(deps, keyOf(req).scope, req.params.id),
  });

  r.post('/refunds', {
    config: { v1: { permission: Perm.txnRefund, tag: 'refunds', errors: [409, 422], idempotent: true } },
    schema: {
      tags: hidden,
      operationId: 'createRefund',
      summary: 'Refund (part of) a purchase',
      description:
        'Needs an Idempotency-Key header. The same key with the same body answers the first result (also when the two requests arrive at once: one refund); with another body 409. 201 with the refund (status succeeded, or processing while the acquirer has not answered); a refusal answers 422 (type refund_error: not_refundable, amount_too_large, refund_declined). ' +
        "Above the merchant's four-eyes limit (or the key creator's refund cap, where the merchant has four eyes): 202 with the approval request (status pending) — nothing is refunded until a second user of the merchant approves it in the portal; the webhook event refund_approval.decided tells when it is approved (with the refund's id), rejected or expired, and GET /v1/refund-approvals/{id} reads it. There is one open request per purchase and amount: asking again (another Idempotency-Key, another key, the portal) answers 202 with the same request, never a second one. " +
        'A merchant (or its group) locked by the provider answers 403 merchant_locked.',
      body: refundBody,
      response: { 201: v1RefundSchema, 202: v1RefundApprovalSchema },
    },
    handler: async (req, reply) => {
      const key = keyOf(req);
      const idem = req.idempotency?.key ?? '';
      const gwTransId = await gwTransIdOf(deps.db, req.body.transaction_id, key.scope);
      if (gwTransId === null) throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'transaction_id');
      const now = deps.clock.now();
      const result = await refund(
        deps,
        keyAsUser(key, now),
        key.lang,
        { id: gwTransId, amount: req.body.amount, requestKey: `v1${sha256(`${key.keyId}:${idem}`).slice(0, 40)}`, metadata: metadataToStore(req.body.metadata) },
        { ip: req.ip, userAgent: req.headers['user-agent'] },
      );
      const fail = REFUND_ERRORS[result.code];
      if (fail) throw new V1Error(fail[0], fail[0] === 409 ? 'idempotency_error' : 'refund_error', fail[1], 'badRequest', {}, fail[2], result.msg);
      if (result.code === RefundCode.APPROVAL_REQUIRED && result.approvalId) {
        reply.status(202);
        return refundApproval(deps, key.scope, result.approvalId);
      }
      if (result.code === RefundCode.OVER_CAP) throw new V1Error(422, 'refund_error', 'over_refund_cap', 'badRequest', {}, 'amount', result.msg);
      if (result.code !== RefundCode.OK || !result.refundId) throw new V1Error(422, 'refund_error', 'refund_refused', 'badRequest', {}, 'transaction_id', result.msg);
      reply.status(201);
      return one(deps, key.scope, result.refundId, 'REFD');
    },
  });

  r.get('/refund-approvals/:id', {
    config: { v1: { permission: Perm.txnDetail, tag: 'refunds' } },
    schema: {
      tags: hidden,
      operationId: 'getRefundApproval',
      summary: "A refund's four-eyes approval request (as POST /v1/refunds answered it with 202): pending, approved (with refund_id), rejected or expired",
      params: idParams,
      response: { 200: v1RefundApprovalSchema },
    },
    handler: async (req) => refundApproval(deps, keyOf(req).scope, req.params.id),
  });

  r.get('/refunds', {
    config: { v1: { permission: Perm.txnList, tag: 'refunds' } },
    schema: {
      tags: hidden,
      operationId: 'listRefunds',
      summary: 'List refunds, newest first (the transaction filters; cursor paging; expand[]=data.purchase: each purchase inline)',
      description:
        "The transaction filters; merId narrows to one of the key's merchants (another merchant's id matches nothing: an empty page). expand[]=data.purchase (or expand[]=purchase) answers each refund's purchase as the Transaction itself. A parameter not listed here answers 400 (param names it).",
      querystring: refundListQuery,
      response: { 200: listOf(v1RefundSchema, 'RefundList') },
    },
    handler: async (req) => {
      const { 'expand[]': asked, ...q } = req.query;
      const expand = expandsOf(asked, REFUND_LIST_EXPANDS);
      const out = await page(deps, keyOf(req).scope, q as z.infer<typeof cursorQuery>, { gwTranType: 'REFD' });
      return expand.size ? { ...out, data: await withPurchases(deps, keyOf(req).scope, out.data) } : out;
    },
  });

  r.get('/refunds/:id', {
    config: { v1: { permission: Perm.txnDetail, tag: 'refunds' } },
    schema: {
      tags: hidden,
      operationId: 'getRefund',
      summary: 'One refund (expand[]=purchase: its purchase inline)',
      params: idParams,
      querystring: z.strictObject({ 'expand[]': expandQuery(REFUND_EXPANDS) }),
      response: { 200: v1RefundSchema },
    },
    handler: async (req) => refundView(deps, keyOf(req).scope, req.params.id, expandsOf(req.query['expand[]'], REFUND_EXPANDS)),
  });
}
