import { toDecimal } from '@portal/contract';
import { toV1Transaction, type TxnDbRow } from '../txn';

/**
 * An event as it is sent (docs/webhooks.md), in the API version of the endpoint it goes to (GET
 * /v1/events: the request's version). Issue 50, decision 075 — one id form and one time format per
 * object across /v1 and the webhooks, from Portal-Version 2026-12-03:
 * - the envelope's time is `created_at`, ISO-8601 UTC (before: `created`, Unix seconds);
 * - every time inside `data` is ISO-8601 UTC with milliseconds, as the /v1 objects write them
 *   (before: PostgreSQL's JSON form, `2026-11-10T04:00:00+00:00`);
 * - a transaction.* / refund.* event's `data` is the /v1 Transaction / Refund (decision 079: one
 *   public transaction shape), made by `toV1Transaction` from the row as the event stored it;
 * - `data.id` is the object's /v1 id: a pay-by-link or in-store order's number, a settlement's
 *   `date.merchant.businessLine.currency`, an approval's number, a dispute's number (its network
 *   id moves to `gatewayDisputeId`); an order's `transactionId` is the transaction's /v1 number, as
 *   in `refund_approval.decided` (its gateway id moves to `gatewayId`).
 * Older versions get exactly the body they always got. The body is made once per delivery attempt
 * from the stored event and the endpoint's pinned version: the same bytes on every retry.
 */
export interface StoredEvent {
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  created_at: Date | string;
}

/** The first version with one id form and one time format (ISO-8601 UTC) in the events. */
export const EVENT_FORMS_VERSION = '2026-12-03';
/** The version of an endpoint made on the portal's screen (it offers no choice yet) and of events read without one. */
export const WEBHOOK_DEFAULT_VERSION = '2026-12-01';

/** Fields of an event's data that hold minor units of `data.currency`: sent as decimal strings. */
const MONEY_FIELDS = ['amount', 'fee', 'netAmount'];
/** A timestamp as PostgreSQL writes it in JSON (a date alone, e.g. a settlement date, is no time). */
const PG_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d(:?\d\d)?)$/;

function oneForm(type: string, d: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) out[k] = typeof v === 'string' && PG_TIME.test(v) ? new Date(v).toISOString() : v;
  if (type.startsWith('paylink.') || type === 'instore.paid') return { ...out, id: d._id ?? null, transactionId: d._transactionId ?? null, gatewayId: d.transactionId ?? null };
  if (type === 'settlement.transferred') return { ...out, id: `${d.settlementDate}.${d.merId}.${d.businessLine}.${d.currency}` };
  if (type === 'refund_approval.decided') return { ...out, id: d.approvalId };
  if (type.startsWith('dispute.')) return { ...out, id: d.disputeId, gatewayDisputeId: d.id };
  return out;
}

/**
 * A transaction event's row as its payload stored it (`_row`, migration 240); an event recorded
 * before, whose transaction is gone, from its first fields (what they do not hold as at creation).
 */
function rowOf(d: Record<string, unknown>): TxnDbRow & { gw_trans_id: string } {
  if (d._row && typeof d._row === 'object') return d._row as TxnDbRow & { gw_trans_id: string };
  return {
    id: Number(d._id),
    gw_trans_id: String(d.id),
    mer_id: String(d.merId),
    order_no: String(d.orderNo),
    origin_order_no: (d.originalOrderNo as string | null) ?? null,
    origin_txn_id: null,
    tran_type: String(d.type),
    gw_response: (d.gwResponse as string | null) ?? null,
    resp_msg: (d.respMsg as string | null) ?? null,
    amount: Number(d.amount),
    amount_sign: 1,
    currency: String(d.currency),
    return_amount: 0,
    payment_schema: (d.channel as string | null) ?? null,
    payment_brand: (d.brand as string | null) ?? null,
    mer_reserve: null,
    txn_time: new Date(String(d.time)),
    settle_flag: 'N',
    settle_date: null,
    settle_currency: null,
    settle_amount: null,
    settle_fee: null,
  } as unknown as TxnDbRow & { gw_trans_id: string };
}

/** A transaction.* event's data: GET /v1/transactions/{id}'s object; a refund.* event's: GET /v1/refunds/{id}'s (its purchase by id). */
function publicTransaction(type: string, d: Record<string, unknown>): Record<string, unknown> {
  const t = toV1Transaction(rowOf(d), (d.metadata as Record<string, string> | null) ?? {});
  return type.startsWith('refund.') ? { ...t, purchase: t.origin_transaction_id } : t;
}

/** The event's JSON object in `version` (an unknown or older one: the first shape). */
export function eventObject(e: StoredEvent, version: string = WEBHOOK_DEFAULT_VERSION): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e.data)) if (!k.startsWith('_') || version >= EVENT_FORMS_VERSION) data[k] = v;
  const currency = typeof data.currency === 'string' ? data.currency : null;
  if (currency) for (const f of MONEY_FIELDS) if (typeof data[f] === 'number') data[f] = toDecimal(data[f] as number, currency);
  if (version < EVENT_FORMS_VERSION) return { id: e.event_id, type: e.type, created: Math.floor(new Date(e.created_at).getTime() / 1000), merId: e.mer_id, data };
  if (e.type.startsWith('transaction.') || e.type.startsWith('refund.'))
    return { id: e.event_id, type: e.type, created_at: new Date(e.created_at).toISOString(), merId: e.mer_id, data: publicTransaction(e.type, e.data) };
  const shaped = oneForm(e.type, data);
  for (const k of Object.keys(shaped)) if (k.startsWith('_')) delete shaped[k];
  return { id: e.event_id, type: e.type, created_at: new Date(e.created_at).toISOString(), merId: e.mer_id, data: shaped };
}

/** The body sent: the event's JSON in the endpoint's version. */
export const eventBody = (e: StoredEvent, version?: string): string => JSON.stringify(eventObject(e, version));
