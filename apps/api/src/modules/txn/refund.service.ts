import { Code, RefundCode, exponentOf, resultStateOf, toDecimal, toMinor, type Language, type RefundResult } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit, AuditAction } from '../../lib/audit';
import { t } from '../../lib/messages';
import { hasStepUp } from '../user/login.service';
import { acquirerOf } from './acquirer';
import {
  claimRequestKey,
  countChildren,
  lockPurchase,
  releaseReturn,
  reserveReturn,
  storeRequestResult,
  type PurchaseRow,
} from './refund.repo';

export interface RefundInput {
  id: string;
  amount: string;
  txnschema?: string;
  requestKey?: string;
}
interface Meta {
  ip?: string;
  userAgent?: string;
}

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
 * Refunds (part of) a purchase through the acquirer (spec §4). Needs the session's step-up grant
 * (a password re-check within 5 minutes). In one database transaction: the purchase is row-locked,
 * the request key is claimed (a repeat returns the first result), the return amount is raised by
 * one guarded UPDATE (never past the purchase amount), the REFD is recorded through ingestion, and
 * the audit entry is written.
 */
export async function refund(deps: Deps, user: SessionUser, lang: Language, input: RefundInput, meta: Meta): Promise<RefundResult> {
  const now = deps.clock.now();
  if (!hasStepUp(user.stepUpUntil, now)) throw new AppError(Code.FORBIDDEN, 'stepUpRequired', {}, 403);
  const acquirer = acquirerOf(deps);
  return deps.db.tx(async (q) => {
    const p = await lockPurchase(q, input.id, user.scope);
    if (!p) throw notFound();
    const amount = parseAmount(input.amount, p.currency);
    const refuse = async (code: number, msg: string, extra: Partial<RefundResult> = {}): Promise<RefundResult> => {
      const result: RefundResult = { code, msg, ...extra };
      if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, result);
      await writeAudit(q, user, p, amount, input, result, meta);
      return result;
    };
    if (input.requestKey) {
      const prior = await claimRequestKey(q, p.id, input.requestKey, amount, user.id);
      if (prior) {
        if (prior.amount !== amount) return { code: RefundCode.KEY_REUSED, msg: t(lang, 'refundKeyReused') };
        return prior.result;
      }
    }
    if (p.tran_type !== 'PURC' || p.gw_response !== '00' || (input.txnschema && input.txnschema !== p.payment_schema)) {
      return refuse(RefundCode.NOT_REFUNDABLE, t(lang, 'refundNotAllowed'));
    }
    const reserved = await reserveReturn(q, p.id, amount);
    if (reserved === null) {
      const max = toDecimal(p.amount - p.return_amount, p.currency);
      return refuse(RefundCode.OVER_AMOUNT, t(lang, 'refundOverAmount', { max }));
    }
    // The purchase row is locked: numbering its refunds here cannot race.
    const seq = (await countChildren(q, p.id)) + 1;
    const orderNo = p.order_no.length <= 56 ? `${p.order_no}-R${seq}` : `R${seq}-${p.gw_trans_id}`;
    const res = await acquirer.refund(q, { purchaseId: p.id, amount, orderNo });
    const r = { id: res.id, gw_response: res.gwResponse, resp_msg: res.respMsg };
    const state = resultStateOf(r.gw_response);
    let returnAmount = reserved;
    if (state === 'F') {
      returnAmount = await releaseReturn(q, p.id, amount);
      return refuse(RefundCode.DECLINED, t(lang, 'refundDeclined', { reason: r.resp_msg ?? String(r.gw_response) /* declined: a code is always there */ }), {
        refundId: r.id,
        refundOrderNo: orderNo,
        gwResponse: r.gw_response,
        returnAmount: toDecimal(returnAmount, p.currency),
      });
    }
    const result: RefundResult = {
      code: RefundCode.OK,
      msg: t(lang, state === 'S' ? 'refundSuccess' : 'refundProcessing'),
      refundId: r.id,
      refundOrderNo: orderNo,
      gwResponse: r.gw_response,
      returnAmount: toDecimal(returnAmount, p.currency),
    };
    if (input.requestKey) await storeRequestResult(q, p.id, input.requestKey, result);
    await writeAudit(q, user, p, amount, input, result, meta);
    return result;
  });
}

async function writeAudit(
  q: Parameters<typeof audit>[0],
  user: SessionUser,
  p: PurchaseRow,
  amount: number,
  input: RefundInput,
  result: RefundResult,
  meta: Meta,
) {
  await audit(q, {
    action: AuditAction.refund,
    outcome: result.code === RefundCode.OK ? 'success' : 'failure',
    userId: user.id,
    username: user.username,
    merId: p.mer_id,
    target: p.gw_trans_id,
    detail: {
      purchaseId: p.id,
      amount: toDecimal(amount, p.currency),
      currency: p.currency,
      code: result.code,
      refundId: result.refundId ?? null,
      refundOrderNo: result.refundOrderNo ?? null,
      requestKey: input.requestKey ?? null,
    },
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
}
