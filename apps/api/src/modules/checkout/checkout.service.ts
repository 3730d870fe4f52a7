import { Code, toDecimal, type CheckoutOrder, type CheckoutPayResult, type Language, type PayMethod } from '@portal/contract';
import { findStore } from '../store';
import { storeMethods } from '../store';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { methodsFor } from '@portal/contract';
import { addEvent, claimForPayment, expireDue, findOrder, lastOpened, settlePayment, type PblDbRow } from '../paybylink';
import { outcomeOf, syncProcessing } from '../paybylink';
import { acquirerOf, firstSendLeaseMs } from '../acquirer';
import type { OperationRequest } from '../acquirer';
import { insertOperation } from '../acquirer';
import { OperationAudit, sendOperation } from '../acquirer';
import { ingestTransaction } from '../payments';
import { audit } from '../../lib/audit';
import { orderChanged } from '../paybylink';
import { assertMerchantOpen } from '../ops';

const OPENED_EVERY_MS = 10 * 60_000;

/** The order behind a token, brought up to date (expiry, a processing payment). Unknown → 404. */
async function current(deps: Deps, token: string): Promise<PblDbRow> {
  const o = await findOrder(deps.db, { token });
  if (!o) throw notFound();
  const changed = (await expireDue(deps.db, deps.clock.now(), { id: o.id })) > 0 || (await syncProcessing(deps, o));
  return changed ? (await findOrder(deps.db, { id: o.id }))! : o;
}

async function channelsOf(deps: Deps, merId: string): Promise<string[]> {
  const { rows } = await deps.db.query<{ channels: string[] }>('SELECT channels FROM merchant WHERE mer_id = $1', [merId]);
  return rows[0]?.channels ?? [];
}

/** The methods the buyer may pay an order with: an in-store order's are its store's (enabled brands), a link's the merchant's. */
async function methodsOf(deps: Deps, o: PblDbRow): Promise<PayMethod[]> {
  if (o.store_id) {
    const s = await findStore(deps.db, o.store_id);
    return s ? storeMethods(s, o.order_currency) : [];
  }
  return methodsFor(o.order_currency, await channelsOf(deps, o.mer_id));
}

/** What the buyer's page shows. Records 'opened by the buyer' on the timeline (at most every 10 minutes). */
export async function checkoutView(deps: Deps, token: string, opts: { lang: Language; record: boolean }): Promise<CheckoutOrder> {
  const o = await current(deps, token);
  const now = deps.clock.now();
  if (opts.record && o.status === '04') {
    const last = await lastOpened(deps.db, o.id);
    if (!last || now.getTime() - new Date(last).getTime() >= OPENED_EVERY_MS) await addEvent(deps.db, o.id, 'opened', 'buyer', now, { lang: opts.lang });
  }
  let payment: CheckoutOrder['payment'] = null;
  if (o.txn_id) {
    const { rows } = await deps.db.query<{ gw_response: string | null; resp_msg: string | null; payment_brand: string | null; txn_time: Date }>(
      'SELECT gw_response, resp_msg, payment_brand, txn_time FROM txn WHERE id = $1',
      [o.txn_id],
    );
    const t = rows[0];
    if (t) payment = { result: outcomeOf(t.gw_response), respMsg: t.resp_msg, brand: t.payment_brand, time: new Date(t.txn_time).toISOString() };
  }
  const cur = o.order_currency;
  const subtotal = BigInt(o.goods_price) * BigInt(o.goods_quantity);
  return {
    orderno: o.order_no,
    merName: o.mer_name,
    reconId: o.recon_id,
    goodsName: o.goods_name,
    goodsPrice: toDecimal(o.goods_price, cur),
    goodsQuantity: o.goods_quantity,
    logFee: toDecimal(o.log_fee, cur),
    totalAmount: toDecimal(o.total_amount, cur),
    subtotal: toDecimal(subtotal, cur),
    linesAddUp: subtotal + BigInt(o.log_fee) === BigInt(o.total_amount),
    orderCurrency: cur,
    remarks: o.remarks,
    status: o.status,
    openStatus: o.open_status,
    closeReason: o.close_reason,
    expireTime: new Date(o.expires_at).toISOString(),
    methods: o.status === '04' ? await methodsOf(deps, o) : [],
    storeName: o.store_name,
    payment,
  };
}

/** Luhn check of a 12–19 digit card number. */
export function validCard(n: string): boolean {
  if (!/^\d{12,19}$/.test(n)) return false;
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * The buyer pays (decision 033): one database transaction takes the order (open, unpaid,
 * unexpired → processing), writes the purchase through ingestion as processing ('04') — so it is
 * in the merchant's transaction list at once — and records the gateway operation (idempotency
 * key: the purchase's gateway id); after COMMIT the acquirer is asked to charge (the card number
 * travels in memory only), and a new transaction records its answer: paid, failed, or still
 * processing (the acquirer job asks again). A close that raced it waits for the row and then
 * finds the order no longer open; if the close came first, this fails with 'Order status has
 * changed, operation failed'.
 */
export async function payCheckout(deps: Deps, token: string, body: { method: string; cardNumber?: string }): Promise<CheckoutPayResult> {
  const o = await current(deps, token);
  const m = (await methodsOf(deps, o)).find((x) => x.code === body.method);
  if (o.status === '04' && o.open_status === '02' && !m) throw new AppError(Code.BAD_REQUEST, 'pblMethodUnavailable', {}, 400);
  const card = body.cardNumber?.replace(/[\s-]/g, '') ?? '';
  if (m?.card && !validCard(card)) throw new AppError(Code.BAD_REQUEST, 'pblCardNumber', {}, 400, { field: 'cardNumber' });
  const now = deps.clock.now();
  const acquirer = acquirerOf(deps);
  const opId = await deps.db.tx(async (q) => {
    // A merchant the provider locked accepts no transactions (issue 26).
    await assertMerchantOpen(q, o.mer_id);
    if (!m || !(await claimForPayment(q, o.id, now))) return null;
    const r = await ingestTransaction(
      q,
      {
        merId: o.mer_id,
        orderNo: o.order_no,
        tranType: 'PURC',
        amount: o.total_amount,
        currency: o.order_currency,
        paymentSchema: m.channel,
        paymentBrand: m.code,
        gwResponse: '04',
        respMsg: 'Processing',
        txnTime: now,
        cardNumber: m.card ? card : null,
        source: 'paybylink',
        merReserve: o.recon_id || null,
        storeId: o.store_id,
        storeName: o.store_name,
        orderAmount: o.total_amount,
        orderCurrency: o.order_currency,
      },
      { platformTz: deps.config.platformTz, now },
    );
    const maskedCard = m.card ? `${card.slice(0, 6)}******${card.slice(-4)}` : null;
    const request: OperationRequest = {
      kind: 'charge',
      idempotencyKey: r.gwTransId,
      merchantId: o.mer_id,
      orderNo: o.order_no,
      amount: toDecimal(o.total_amount, o.order_currency),
      currency: o.order_currency,
      channel: m.channel,
      brand: m.code,
      maskedCard,
    };
    const id = await insertOperation(q, {
      kind: 'charge',
      acquirer: acquirer.name,
      txnId: r.id,
      orderId: o.id,
      merId: o.mer_id,
      amount: o.total_amount,
      currency: o.order_currency,
      request,
      context: {},
      now,
      nextAttemptAt: new Date(now.getTime() + firstSendLeaseMs(deps)),
    });
    await settlePayment(q, o.id, 'pending', r.id, now);
    await audit(q, {
      action: OperationAudit.charge,
      username: 'buyer',
      merId: o.mer_id,
      target: r.gwTransId,
      detail: { orderId: o.id, orderNo: o.order_no, amount: toDecimal(o.total_amount, o.order_currency), currency: o.order_currency, brand: m.code, acquirer: acquirer.name },
    });
    return id;
  });
  if (opId === null) {
    if (new Date(o.expires_at) <= now || o.close_reason === 'expired') throw new AppError(Code.CONFLICT, 'pblLinkExpired', {}, 409);
    throw orderChanged();
  }
  let res: { outcome: 'success' | 'failed' | 'pending'; respMsg: string | null } = { outcome: 'pending', respMsg: null };
  try {
    res = await sendOperation(
      deps,
      opId,
      { kind: 'buyer' },
      async (q, rec) => {
        const outcome = rec.state === 'succeeded' ? 'success' : rec.state === 'failed' ? 'failed' : 'pending';
        if (outcome === 'pending') {
          const { rows } = await q.query<{ gw_trans_id: string }>('SELECT gw_trans_id FROM txn WHERE id = (SELECT txn_id FROM acquirer_operation WHERE id = $1)', [opId]);
          await addEvent(q, o.id, 'payment', 'buyer', now, {
            result: outcome,
            gwResponse: '04',
            respMsg: rec.respMsg,
            brand: m!.code,
            channel: m!.channel,
            gwTransId: rows[0].gw_trans_id,
            card: m!.card ? `****${card.slice(-4)}` : null,
          });
        }
        return { outcome, respMsg: rec.respMsg };
      },
      m!.card ? { number: card } : undefined,
    );
  } catch {
    // The answer could not be recorded: the payment stays processing until the acquirer job settles it.
  }
  const after = (await findOrder(deps.db, { id: o.id }))!;
  return { result: res.outcome, respMsg: res.respMsg, status: after.status, openStatus: after.open_status };
}
