/**
 * One timeline per buyer order (issue 49 §3): a reference — order number, gateway id, the channel's
 * order number, a pay-by-link or in-store order number or invoice id, the buyer's e-mail, or card
 * last 4 + amount + date — finds the buyer orders it belongs to; an order's timeline is the union of
 * `TIMELINE_SOURCES` in time order.
 */
import { CURRENCIES, exponentOf, toDecimal } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { TIMELINE_SOURCES, usesZone, type TimelineEventDb, type TimelineSource } from './timeline.sources';
export type { Timeline, TimelineEvent } from '@portal/contract';
import type { Timeline, TimelineEvent } from '@portal/contract';

export interface OrderHit {
  merId: string;
  orderNo: string;
  at: string | null;
  currency: string | null;
  amount: string | null;
  buyerEmail: string | null;
}

export interface OrderSearch {
  q?: string;
  last4?: string;
  amount?: string;
  date?: string;
}

/** The buyer order of a transaction: its pay-by-link / in-store order if it paid one, else its purchase's number. */
const ROOT = `coalesce((SELECT o.order_no FROM pay_by_link_order o WHERE o.txn_id = t.id LIMIT 1), t.origin_order_no, t.order_no)`;

/** The buyer orders a reference names, in the caller's merchants (at most 20). */
export async function findOrders(q: Queryable, scope: readonly string[], s: OrderSearch): Promise<OrderHit[]> {
  if (!scope.length) return [];
  const ref = s.q?.trim() || null;
  const card = s.last4 && s.amount && s.date ? s : null;
  const { rows } = await q.query<{ mer_id: string; order_no: string }>(
    `SELECT DISTINCT mer_id, order_no FROM (
       SELECT t.mer_id, ${ROOT} AS order_no FROM txn t
        WHERE $2::text IS NOT NULL AND t.mer_id = ANY($1) AND (t.order_no = $2 OR t.gw_trans_id = $2 OR t.channel_order_no = $2)
       UNION ALL
       SELECT o.mer_id, o.order_no FROM pay_by_link_order o
        WHERE $2::text IS NOT NULL AND o.mer_id = ANY($1) AND (o.order_no = $2 OR o.recon_id = $2 OR lower(o.buyer_email) = lower($2))
       UNION ALL
       SELECT t.mer_id, ${ROOT} AS order_no FROM txn t
         JOIN unnest($6::text[], $7::int[]) AS c(code, e) ON c.code = t.currency
        WHERE $3::text IS NOT NULL AND t.mer_id = ANY($1) AND t.card_last4 = $3 AND t.txn_date = $5::date AND t.amount::numeric = $4::numeric * (10::numeric ^ c.e)
     ) h ORDER BY 1, 2 LIMIT 20`,
    [scope, ref, card?.last4 ?? null, card?.amount ?? null, card?.date ?? null, CURRENCIES, CURRENCIES.map((c) => exponentOf(c))],
  );
  const out: OrderHit[] = [];
  for (const r of rows) {
    const { rows: d } = await q.query<{ at: Date | null; currency: string | null; amount: number | null; email: string | null }>(
      `SELECT coalesce(o.created_at, t.txn_time) AS at, coalesce(o.order_currency, t.currency)::text AS currency, coalesce(o.total_amount, t.amount) AS amount, o.buyer_email AS email
         FROM (SELECT 1) x
         LEFT JOIN pay_by_link_order o ON o.mer_id = $1 AND o.order_no = $2
         LEFT JOIN LATERAL (SELECT * FROM txn t WHERE t.mer_id = $1 AND t.order_no = $2 ORDER BY t.txn_time LIMIT 1) t ON true`,
      [r.mer_id, r.order_no],
    );
    const x = d[0];
    const cur = x?.currency?.trim() ?? null;
    out.push({
      merId: r.mer_id,
      orderNo: r.order_no,
      at: x?.at ? new Date(x.at).toISOString() : null,
      currency: cur,
      amount: cur && x?.amount != null ? toDecimal(x.amount, cur) : null,
      buyerEmail: x?.email ?? null,
    });
  }
  return out;
}

/**
 * An order's timeline, or null when the caller may not see the merchant or the order has no trace.
 * `platformTz`: the platform zone (config), whose midnight places a day's event (settled, transfer, bank credit).
 */
export async function loadTimeline(
  q: Queryable,
  scope: readonly string[],
  merId: string,
  orderNo: string,
  platformTz: string,
  sources: readonly TimelineSource[] = TIMELINE_SOURCES,
): Promise<Timeline | null> {
  if (!scope.includes(merId)) return null;
  const events: TimelineEvent[] = [];
  for (const s of sources) {
    const { rows } = await q.query<TimelineEventDb>(s.sql, usesZone(s) ? [merId, orderNo, platformTz] : [merId, orderNo]);
    for (const r of rows) {
      const cur = r.currency?.trim() ?? null;
      events.push({
        source: s.key,
        at: new Date(r.at).toISOString(),
        day: r.day,
        kind: r.kind,
        actor: r.actor,
        ref: r.ref,
        txnId: r.txn_id == null ? null : String(r.txn_id),
        currency: cur,
        amount: cur && r.amount != null ? toDecimal(r.amount, cur) : null,
        status: r.status?.trim() ?? null,
        transferId: r.transfer_id,
      });
    }
  }
  if (!events.length) return null;
  // Same instant (a day's midnight: the transfer and its bank credit): in the sources' order.
  const rank = new Map(sources.map((s, i) => [s.key, i]));
  events.sort((a, b) => a.at.localeCompare(b.at) || rank.get(a.source)! - rank.get(b.source)!);
  return { merId, orderNo, events };
}
