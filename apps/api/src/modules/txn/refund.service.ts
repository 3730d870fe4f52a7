import { Code, RefundCode, exponentOf, toDecimal, toMinor, type Language, type RefundResult } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { hasStepUp } from '../user';
import { acquirerOf } from '../acquirer';
import { sendOperation } from '../acquirer';
import { claimDailyCap, dailyCapUsed, insertApproval, refundLimitFor, releaseDailyCap, roleCapsOf } from '../team';
import { formatInZone } from './time';
import { notifyApprovers } from '../team';
import { assertMerchantOpen } from '../ops';
import { claimRequestKey, countChildren, lockPurchase, reserveReturn, storeRequestResult, storeRefundMetadata, type PurchaseRow } from './refund.repo';
import { openRefundApproval, recordRefundOperation, RefundApprovalAudit, writeAudit, type Meta, type RefundInput } from './refund.record';

export type { RefundInput } from './refund.record';

function parseAmount(amount: string, currency: string): number {
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch {
    minor = 0;
  }
  if (minor <= 0) throw new AppError(Code.BAD_REQUEST, 'refundAmountInvalid', { d: exponentOf(currency) }, 400);
  return minor;
}

/**
 * Refunds (part of) a purchase through the acquirer (spec §4; decision 033). Needs the session's
 * step-up grant (a password re-check within 5 minutes). Three steps, no network call while a
 * transaction or row lock is held:
 * 1. one database transaction: the purchase is row-locked, the request key is claimed (a repeat
 *    returns the stored reply), the return amount is raised by one guarded UPDATE (never past the
 *    purchase amount: I5), the REFD is written through ingestion as processing ('04') and the
 *    gateway operation is recorded with the REFD's gateway id as its idempotency key — COMMIT;
 * 2. the acquirer is asked (sandbox: at once; HTTP: signed request, timeout, retries, same key);
 * 3. a new transaction records the answer: success → '00'; a definite failure → '01' and the
 *    reservation released; no answer or "processing" → stays '04', shown as processing, and the
 *    acquirer job asks again with backoff (operations.service.ts) until it is decided.
 */
export async function refund(deps: Deps, user: SessionUser, lang: Language, input: RefundInput, meta: Meta, opts: { approvalId?: number } = {}): Promise<RefundResult> {
  const now = deps.clock.now();
  if (!hasStepUp(user.stepUpUntil, now)) throw new AppError(Code.FORBIDDEN, 'stepUpRequired', {}, 403);
  const acquirer = acquirerOf(deps);
  let approval: number | null = null;
  const first = await deps.db.tx(async (q): Promise<{ done: RefundResult } | { opId: number; pending: RefundResult; p: PurchaseRow; amount: number }> => {
    const p = await lockPurchase(q, input.id, user.scope);
    if (!p) throw notFound();
    const amount = parseAmount(input.amount, p.currency);
    const refuse = async (code: number, msg: string, extra: Partial<RefundResult> = {}) => {
      const result: RefundResult = { code, msg, ...extra };
      if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, result);
      await writeAudit(q, user, p, amount, input, result, meta);
      return { done: result };
    };
    if (input.requestKey) {
      const prior = await claimRequestKey(q, p.id, input.requestKey, amount, user.id);
      if (prior) {
        if (prior.amount !== amount) return { done: { code: RefundCode.KEY_REUSED, msg: t(lang, 'refundKeyReused') } };
        return { done: prior.result };
      }
    }
    // A merchant (or its group) locked by risk takes no money movement (issue 47): refused — the
    // transaction rolls back, the request key with it — before a refund is reserved or an approval asked.
    await assertMerchantOpen(q, p.mer_id);
    if (p.tran_type !== 'PURC' || p.gw_response !== '00' || (input.txnschema && input.txnschema !== p.payment_schema)) {
      return refuse(RefundCode.NOT_REFUNDABLE, t(lang, 'refundNotAllowed'));
    }
    // Four eyes (issue 28): above the merchant's limit for the currency, the refund waits for a
    // second user's approval, which runs it through this same service (opts.approvalId).
    const limit = opts.approvalId === undefined ? await refundLimitFor(q, p.mer_id, p.currency) : null;
    const askApproval = async (why: Record<string, unknown>) => {
      // One open request per purchase and amount (issue 47): a second ask — a retry with a new
      // Idempotency-Key, another key, the portal's button — joins the open one instead of queueing
      // a second refund. The purchase's row lock (above) serialises the asks, so two at once find
      // the same request.
      const open = await openRefundApproval(q, p, toDecimal(amount, p.currency), now);
      let id: number;
      if (open !== null) {
        id = open;
        await audit(q, {
          action: RefundApprovalAudit.joined,
          userId: user.id,
          username: user.username,
          merId: p.mer_id,
          target: `approval #${id}`,
          detail: { approvalId: id, gwTransId: p.gw_trans_id, amount: toDecimal(amount, p.currency), currency: p.currency, requestKey: input.requestKey ?? null },
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
      } else {
        id = approval = await insertApproval(q, {
          merId: p.mer_id,
          kind: 'refund',
          permission: 'txn:detail:refund',
          user,
          now,
          ip: meta.ip,
          userAgent: meta.userAgent,
          payload: {
            id: p.gw_trans_id,
            amount: toDecimal(amount, p.currency),
            txnschema: input.txnschema ?? null,
            ...(input.metadata && Object.keys(input.metadata).length ? { metadata: input.metadata } : {}),
          },
          summary: { gwTransId: p.gw_trans_id, orderNo: p.order_no, amount: toDecimal(amount, p.currency), currency: p.currency, ...why },
        });
      }
      const result: RefundResult = { code: RefundCode.APPROVAL_REQUIRED, msg: t(lang, 'refundNeedsApproval', { id }), approvalId: id };
      if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, result);
      return { done: result };
    };
    if (limit !== null && amount > limit) return askApproval({ limit: toDecimal(limit, p.currency) });
    // Limits inside a role (issue 28): the holder's caps per refund and per day for the currency; the
    // day's total is claimed by one guarded upsert, so parallel refunds never pass it together. Over a
    // cap: to four eyes when the merchant has it on for the currency, else refused.
    const caps = opts.approvalId === undefined ? await roleCapsOf(q, user.id, p.currency) : null;
    let capped: string | null = null;
    let claimedDay = false;
    if (caps?.perRefund != null && amount > caps.perRefund) {
      capped = t(lang, 'refundOverCapPerRefund', { cap: toDecimal(caps.perRefund, p.currency), currency: p.currency });
    } else if (caps?.perDay != null) {
      const day = formatInZone(now, deps.config.platformTz).slice(0, 10);
      claimedDay = amount <= caps.perDay && (await claimDailyCap(q, user.id, p.currency, day, amount, caps.perDay));
      if (!claimedDay) {
        const used = await dailyCapUsed(q, user.id, p.currency, day);
        capped = t(lang, 'refundOverCapPerDay', { cap: toDecimal(caps.perDay, p.currency), currency: p.currency, left: toDecimal(Math.max(0, caps.perDay - used), p.currency) });
      }
    }
    if (capped !== null) {
      if (limit !== null) return askApproval({ cap: capped });
      return refuse(RefundCode.OVER_CAP, capped);
    }
    const reserved = await reserveReturn(q, p.id, amount);
    if (reserved === null) {
      // Not refunded: the day's claim is given back in the same transaction.
      if (claimedDay) await releaseDailyCap(q, user.id, p.currency, formatInZone(now, deps.config.platformTz).slice(0, 10), amount);
      // Issue 48: the disputed part of an open chargeback is not refundable (no double loss).
      if (p.disputed_amount > 0 && amount <= p.amount - p.return_amount) {
        const left = toDecimal(Math.max(0, p.amount - p.return_amount - p.disputed_amount), p.currency);
        return refuse(RefundCode.OVER_AMOUNT, t(lang, 'refundDisputed', { disputed: `${toDecimal(p.disputed_amount, p.currency)} ${p.currency}`, max: left }));
      }
      const max = toDecimal(p.amount - p.return_amount, p.currency);
      return refuse(RefundCode.OVER_AMOUNT, t(lang, 'refundOverAmount', { max }));
    }
    // The purchase row is locked: numbering its refunds here cannot race.
    const seq = (await countChildren(q, p.id)) + 1;
    const orderNo = p.order_no.length <= 56 ? `${p.order_no}-R${seq}` : `R${seq}-${p.gw_trans_id}`;
    const opId = await recordRefundOperation(q, deps, { p, amount, orderNo, user, lang, requestKey: input.requestKey ?? null, now, acquirer: acquirer.name });
    // In this transaction, before the acquirer answers: the refund's final webhook event carries it.
    if (input.metadata && Object.keys(input.metadata).length) await storeRefundMetadata(q, opId.txnId, p.mer_id, input.metadata);
    const pending: RefundResult = {
      code: RefundCode.OK,
      msg: t(lang, 'refundProcessing'),
      refundId: opId.txnId,
      refundOrderNo: orderNo,
      gwResponse: '04',
      returnAmount: toDecimal(reserved, p.currency),
    };
    if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, pending);
    return { opId: opId.id, pending, p, amount };
  });
  if ('done' in first) {
    if (approval !== null) await notifyApprovers(deps, approval, lang);
    return first.done;
  }
  const { p, amount, pending } = first;
  const actor = { kind: 'user' as const, userId: user.id, username: user.username };
  try {
    return await sendOperation(deps, first.opId, actor, async (q, rec) => {
      const { rows } = await q.query<{ return_amount: number }>('SELECT return_amount FROM txn WHERE id = $1', [p.id]);
      const returnAmount = toDecimal(rows[0].return_amount, p.currency);
      const base = { refundId: pending.refundId, refundOrderNo: pending.refundOrderNo, returnAmount };
      const result: RefundResult =
        rec.state === 'succeeded'
          ? { code: RefundCode.OK, msg: t(lang, 'refundSuccess'), ...base, gwResponse: rec.gwResponse }
          : rec.state === 'failed'
            ? { code: RefundCode.DECLINED, msg: t(lang, 'refundDeclined', { reason: rec.respMsg ?? String(rec.gwResponse) }), ...base, gwResponse: rec.gwResponse }
            : { ...pending, returnAmount };
      if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, result);
      await writeAudit(q, user, p, amount, input, result, meta);
      return result;
    });
  } catch {
    // The answer could not be recorded (database trouble): the refund stays processing, and the
    // acquirer job settles it once its lease runs out.
    return pending;
  }
}
