import { randomBytes } from 'node:crypto';
import { SETTLING_TYPES } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { TxnRow as StoredTxnRow } from './ingest.types';
import { systemClock, type Clock } from '../../lib/clock';
import { ingestTransaction } from './ingest.service';
import { invalid } from './ingest.validate';
import { platformDate } from './time';
import { queueLate } from './late';

/** The sandbox's answer for an amount (docs/sandbox.md). */
export interface Outcome {
  gwResponse: '00' | '01' | '04';
  respMsg: string;
}

export const SANDBOX_MESSAGES = {
  approved: 'Approved',
  insufficientFunds: 'Declined: insufficient funds',
  processing: 'Processing',
  declinedByIssuer: 'Declined by issuer',
} as const;

/**
 * Deterministic test amounts, by the last two digits of the amount in minor units (x.51 for a
 * 2-decimal currency, …51 for JPY/KRW): 51 → failed '01'; 04 → processing '04' that resolves to
 * '00'; 14 → processing '04' that resolves to '01'; anything else → '00'.
 */
export function sandboxOutcome(amountMinor: number): Outcome {
  const tail = amountMinor % 100;
  if (tail === 51) return { gwResponse: '01', respMsg: SANDBOX_MESSAGES.insufficientFunds };
  if (tail === 4 || tail === 14) return { gwResponse: '04', respMsg: SANDBOX_MESSAGES.processing };
  return { gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved };
}

/** What a processing transaction of this amount becomes when resolved. */
export function sandboxResolution(amountMinor: number): Outcome {
  return amountMinor % 100 === 14 ? { gwResponse: '01', respMsg: SANDBOX_MESSAGES.declinedByIssuer } : { gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved };
}

export interface PayInput {
  merId: string;
  orderNo: string;
  /** Minor units. */
  amount: number;
  currency: string;
  channel: string;
  brand?: string | null;
  cardNumber?: string | null;
  /** sandbox (default), paybylink, … */
  source?: string;
  merReserve?: string | null;
  storeName?: string | null;
  storeId?: string | null;
  backUrl?: string | null;
  frontUrl?: string | null;
  subBrandCode?: string | null;
  orderAmount?: number | null;
  orderCurrency?: string | null;
  /** PURC (default) or PAUT. */
  tranType?: 'PURC' | 'PAUT';
}

export interface AcquirerResult {
  id: number;
  gwTransId: string;
  gwResponse: string | null;
  respMsg: string | null;
}

/** The original transaction a sandbox refund or void acts on: the stored row's columns (ingest.types) plus its ledger state. */
interface Original
  extends Pick<
    StoredTxnRow,
    | 'gw_trans_id'
    | 'mer_id'
    | 'order_no'
    | 'tran_type'
    | 'gw_response'
    | 'resp_msg'
    | 'amount'
    | 'currency'
    | 'payment_schema'
    | 'payment_brand'
    | 'sub_brand_code'
    | 'mer_reserve'
    | 'store_name'
    | 'store_id'
    | 'card_first6'
    | 'card_last4'
    | 'txn_date'
    | 'origin_txn_id'
    | 'source'
  > {
  id: number;
  return_amount: number;
  settle_flag: string;
}

async function lockTxn(q: Queryable, id: number): Promise<Original> {
  const { rows } = await q.query<Original>('SELECT * FROM txn WHERE id = $1 FOR UPDATE', [id]);
  if (!rows[0]) throw invalid('payTxnNotFound', { id }, 'id');
  return { ...rows[0], currency: rows[0].currency.trim() };
}

const channelOrderNo = () => `SBX${randomBytes(8).toString('hex').toUpperCase()}`;
const card = (o: Original) => (o.card_first6 && o.card_last4 ? `${o.card_first6}******${o.card_last4}` : null);

export interface SandboxOptions {
  /** The app's Deps work as they are ({ config: { platformTz }, clock }). */
  config?: { platformTz: string };
  platformTz?: string;
  clock?: Clock;
}

/**
 * The sandbox acquirer: decides results from test amounts and records every payment, refund and
 * void through ingestion, inside the caller's transaction `q`.
 */
export function createSandboxAcquirer(opts: SandboxOptions) {
  const platformTz = opts.platformTz ?? opts.config?.platformTz ?? 'Asia/Shanghai';
  const clock = opts.clock ?? systemClock;
  const ingestOpts = {
    platformTz,
    get now() {
      return clock.now();
    },
  };

  /** A payment (PURC, or PAUT). */
  async function pay(q: Queryable, p: PayInput): Promise<AcquirerResult> {
    const out = sandboxOutcome(p.amount);
    const r = await ingestTransaction(
      q,
      {
        merId: p.merId,
        orderNo: p.orderNo,
        tranType: p.tranType ?? 'PURC',
        amount: p.amount,
        currency: p.currency,
        paymentSchema: p.channel,
        paymentBrand: p.brand,
        subBrandCode: p.subBrandCode,
        gwResponse: out.gwResponse,
        respMsg: out.respMsg,
        txnTime: clock.now(),
        channelOrderNo: channelOrderNo(),
        merReserve: p.merReserve,
        storeName: p.storeName,
        storeId: p.storeId,
        backUrl: p.backUrl,
        frontUrl: p.frontUrl,
        cardNumber: p.cardNumber,
        orderAmount: p.orderAmount,
        orderCurrency: p.orderCurrency,
        source: p.source ?? 'sandbox',
      },
      ingestOpts,
    );
    return { ...r, ...out };
  }

  /**
   * A refund (REFD) of a successful purchase, with the result the test amount decides. The caller
   * (the refund service) has already guarded the amount against the purchase's return amount and
   * owns idempotency, in the same transaction `q`; this checks only that the purchase is refundable.
   */
  async function refund(q: Queryable, r: { purchaseId: number; amount: number; orderNo: string }): Promise<AcquirerResult> {
    const o = await lockTxn(q, r.purchaseId);
    const out = sandboxOutcome(r.amount);
    const res = await ingestTransaction(
      q,
      {
        merId: o.mer_id,
        orderNo: r.orderNo,
        tranType: 'REFD',
        amount: r.amount,
        currency: o.currency,
        paymentSchema: o.payment_schema,
        paymentBrand: o.payment_brand,
        subBrandCode: o.sub_brand_code,
        gwResponse: out.gwResponse,
        respMsg: out.respMsg,
        txnTime: clock.now(),
        originTxnId: o.id,
        channelOrderNo: channelOrderNo(),
        merReserve: o.mer_reserve,
        storeName: o.store_name,
        storeId: o.store_id,
        cardNumber: card(o),
        source: 'sandbox',
      },
      ingestOpts,
    );
    return { ...res, ...out };
  }

  /** Cancels a same-day, successful, unsettled, unrefunded purchase with a VOID of its full amount. */
  async function voidTxn(q: Queryable, v: { purchaseId: number; orderNo: string }): Promise<AcquirerResult> {
    const o = await lockTxn(q, v.purchaseId);
    const now = clock.now();
    const refuse = (reason: string) => invalid('payVoidNotAllowed', { reason }, 'id');
    if (o.tran_type !== 'PURC' || o.gw_response !== '00') throw refuse('not a successful purchase');
    if (o.txn_date !== platformDate(now, platformTz)) throw refuse(`purchase date ${o.txn_date}`);
    const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn WHERE origin_txn_id = $1 AND tran_type = 'VOID' AND (gw_response IS NULL OR gw_response IN ('00', '04'))`, [
      o.id,
    ]);
    if (rows[0].n > 0) throw refuse('already voided');
    const out: Outcome = { gwResponse: '00', respMsg: SANDBOX_MESSAGES.approved };
    const res = await ingestTransaction(
      q,
      {
        merId: o.mer_id,
        orderNo: v.orderNo,
        tranType: 'VOID',
        amount: o.amount,
        currency: o.currency,
        paymentSchema: o.payment_schema,
        paymentBrand: o.payment_brand,
        subBrandCode: o.sub_brand_code,
        gwResponse: out.gwResponse,
        respMsg: out.respMsg,
        txnTime: now,
        originTxnId: o.id,
        channelOrderNo: channelOrderNo(),
        merReserve: o.mer_reserve,
        storeName: o.store_name,
        storeId: o.store_id,
        cardNumber: card(o),
        source: 'sandbox',
      },
      ingestOpts,
    );
    return { ...res, ...out };
  }

  /**
   * Asks 'the acquirer' for the final result of a processing transaction ('04' or empty) and
   * records it: amount ending in 14 → '01', anything else → '00'. A refund that fails this way gives
   * its reservation back to the purchase's return amount. Already final: returned unchanged.
   */
  async function resolvePending(q: Queryable, txnId: number): Promise<AcquirerResult & { changed: boolean }> {
    const t = await lockTxn(q, txnId);
    const base = { id: t.id, gwTransId: t.gw_trans_id };
    if (t.gw_response !== null && t.gw_response !== '' && t.gw_response !== '04') {
      return { ...base, gwResponse: t.gw_response, respMsg: t.resp_msg, changed: false };
    }
    const out = sandboxResolution(t.amount);
    await q.query('UPDATE txn SET gw_response = $2, resp_msg = $3 WHERE id = $1', [t.id, out.gwResponse, out.respMsg]);
    // Settleable from now on: the next settlement run takes it up even if its date's run is past.
    if (out.gwResponse === '00' && SETTLING_TYPES.includes(t.tran_type as never)) await queueLate(q, [t.id]);
    if (t.tran_type === 'REFD' && out.gwResponse !== '00' && t.origin_txn_id !== null) {
      await q.query('UPDATE txn SET return_amount = greatest(return_amount - $2, 0) WHERE id = $1', [t.origin_txn_id, t.amount]);
    }
    return { ...base, ...out, changed: true };
  }

  /**
   * Resolves the sandbox's processing transactions older than `before` (the background sweep). A
   * row a gateway operation stands behind (a refund or charge the portal asked for, decision 033)
   * is the acquirer job's, not the sweep's.
   */
  async function resolveDue(q: Queryable, before: Date, limit = 200): Promise<number> {
    const { rows } = await q.query<{ id: number }>(
      `SELECT id FROM txn WHERE (gw_response IS NULL OR gw_response = '04') AND txn_time < $1 AND source IN ('sandbox', 'paybylink')
         AND NOT EXISTS (SELECT 1 FROM acquirer_operation o WHERE o.txn_id = txn.id)
        ORDER BY txn_time LIMIT $2`,
      [before, limit],
    );
    for (const r of rows) await resolvePending(q, r.id);
    return rows.length;
  }

  return { pay, refund, voidTxn, resolvePending, resolveDue, outcomeOf: sandboxOutcome };
}

export type SandboxAcquirer = ReturnType<typeof createSandboxAcquirer>;
