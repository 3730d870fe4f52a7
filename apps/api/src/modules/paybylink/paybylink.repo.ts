import type { PayByLinkFilter } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { zonedToUtc } from '../../lib/zone';

/** A pay_by_link_order row with its merchant name, attachment and creator e-mail. */
export interface PblDbRow {
  id: number;
  mer_id: string;
  mer_name: string;
  order_no: string;
  token: string;
  recon_id: string;
  prod_category: string;
  order_currency: string;
  total_amount: number;
  goods_name: string;
  goods_price: number;
  goods_quantity: number;
  log_fee: number;
  remarks: string | null;
  buyer_email: string | null;
  send_email: boolean;
  attachment_id: number | null;
  file_key: string | null;
  file_name: string | null;
  status: string;
  open_status: string;
  close_reason: 'merchant' | 'expired' | 'failed' | null;
  email_status: 'sent' | 'failed' | null;
  expires_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
  txn_id: number | null;
  created_by: number | null;
  user_email: string | null;
  created_at: Date;
  /** In-store orders (prod_category 'payinstore'): the store. */
  store_id: string | null;
  store_name: string | null;
  /** The brand of the order's payment, when there is one. */
  payment_brand: string | null;
  /** /v1 metadata (issue 50): string keys and values. */
  metadata: Record<string, string>;
}

const SELECT = `SELECT o.id, o.mer_id, m.name AS mer_name, o.order_no, o.token, o.recon_id, o.prod_category, trim(o.order_currency) AS order_currency,
    o.total_amount, o.goods_name, o.goods_price, o.goods_quantity, o.log_fee, o.remarks, o.buyer_email, o.send_email, o.attachment_id,
    a.file_key, a.file_name, o.status, o.open_status, o.close_reason, o.email_status, o.expires_at, o.paid_at, o.closed_at, o.txn_id,
    o.created_by, u.email AS user_email, o.created_at, o.store_id, st.name AS store_name, tx.payment_brand, o.metadata
  FROM pay_by_link_order o
  JOIN merchant m ON m.mer_id = o.mer_id
  LEFT JOIN store st ON st.store_id = o.store_id
  LEFT JOIN txn tx ON tx.id = o.txn_id
  LEFT JOIN pay_by_link_attachment a ON a.id = o.attachment_id
  LEFT JOIN app_user u ON u.id = o.created_by`;

export interface Where {
  sql: string;
  params: unknown[];
}

/** The list filter of spec §3 over the caller's scope; dates are platform-zone wall times. */
export function pblWhere(f: PayByLinkFilter, scope: string[], tz: string): Where {
  // In-store orders have their own list (/payInStore/list).
  return orderWhere(f, scope, tz, false, f.reconId ? ['o.recon_id', f.reconId] : null);
}

/**
 * The order-list filter shared by pay-by-link and pay-in-store: scope, the order's kind, creation
 * time range (date or date-time, platform zone), order number, status, and one list-specific
 * equality (`extra`: invoice id, or store).
 */
export function orderWhere(
  f: { beginDate?: string; endDate?: string; orderno?: string; status?: string },
  scope: string[],
  tz: string,
  inStore: boolean,
  extra: [column: string, value: string] | null,
): Where {
  const params: unknown[] = [scope];
  const parts = ['o.mer_id = ANY($1::text[])', inStore ? "o.prod_category = 'payinstore'" : "o.prod_category <> 'payinstore'"];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (f.beginDate) add('o.created_at >= ?', zonedToUtc(f.beginDate.length === 10 ? `${f.beginDate} 00:00:00` : f.beginDate, tz));
  if (f.endDate) {
    const end = f.endDate.length === 10 ? new Date(zonedToUtc(`${f.endDate} 00:00:00`, tz).getTime() + 86_400_000) : new Date(zonedToUtc(f.endDate, tz).getTime() + 1000);
    add('o.created_at < ?', end);
  }
  if (extra) add(`${extra[0]} = ?`, extra[1]);
  if (f.orderno) add('o.order_no = ?', f.orderno);
  switch (f.status) {
    case '02':
      parts.push(`o.status = '04' AND o.open_status = '02'`);
      break;
    case '00':
      parts.push(`o.status = '04' AND o.open_status = '00'`);
      break;
    case 'status00':
      parts.push(`o.status = '00'`);
      break;
    case '01':
      parts.push(`o.status = '01'`);
      break;
  }
  return { sql: parts.join(' AND '), params };
}

export async function listOrders(q: Queryable, w: Where, page: number, size: number): Promise<PblDbRow[]> {
  const n = w.params.length;
  const { rows } = await q.query<PblDbRow>(`${SELECT} WHERE ${w.sql} ORDER BY o.created_at DESC, o.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [...w.params, size, page * size]);
  return rows;
}

export async function countOrders(q: Queryable, w: Where): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM pay_by_link_order o WHERE ${w.sql}`, w.params);
  return rows[0].n;
}

/** Keyset pages of the filtered orders, newest first (exports: memory stays flat). */
export async function* iterateOrders(q: Queryable, w: Where, batch = 1000): AsyncIterable<PblDbRow[]> {
  let after: { t: Date; id: number } | null = null;
  const n = w.params.length;
  for (;;) {
    const keyset: string = after ? ` AND (o.created_at, o.id) < ($${n + 2}, $${n + 3})` : '';
    const params: unknown[] = after ? [...w.params, batch, after.t, after.id] : [...w.params, batch];
    const { rows }: { rows: PblDbRow[] } = await q.query<PblDbRow>(`${SELECT} WHERE ${w.sql}${keyset} ORDER BY o.created_at DESC, o.id DESC LIMIT $${n + 1}`, params);
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { t: last.created_at, id: last.id };
  }
}

export async function findOrder(q: Queryable, by: { id?: number; orderNo?: string; token?: string }, scope?: string[]): Promise<PblDbRow | null> {
  const params: unknown[] = [];
  const parts: string[] = [];
  if (by.id !== undefined) parts.push(`o.id = $${params.push(by.id)}`);
  if (by.orderNo !== undefined) parts.push(`o.order_no = $${params.push(by.orderNo)}`);
  if (by.token !== undefined) parts.push(`o.token = $${params.push(by.token)}`);
  if (scope) parts.push(`o.mer_id = ANY($${params.push(scope)}::text[])`);
  if (!parts.length) return null;
  const { rows } = await q.query<PblDbRow>(`${SELECT} WHERE ${parts.join(' AND ')}`, params);
  return rows[0] ?? null;
}

export interface NewOrder {
  merId: string;
  token: string;
  reconId: string;
  currency: string;
  totalAmount: number;
  goodsName: string;
  goodsPrice: number;
  goodsQuantity: number;
  logFee: number;
  remarks: string | null;
  buyerEmail: string | null;
  sendEmail: boolean;
  attachmentId: number | null;
  expiresAt: Date;
  createdBy: number;
  now: Date;
  datePrefix: string;
  metadata?: Record<string, string>;
}

/** Inserts an order; the order number is PBL + the platform date + a sequence number. */
export async function insertOrder(q: Queryable, o: NewOrder): Promise<{ id: number; orderNo: string }> {
  const { rows } = await q.query<{ id: number; order_no: string }>(
    `INSERT INTO pay_by_link_order (mer_id, order_no, token, recon_id, order_currency, total_amount, goods_name, goods_price, goods_quantity,
        log_fee, remarks, buyer_email, send_email, attachment_id, expires_at, created_by, created_at, updated_at, metadata)
     VALUES ($1, 'PBL' || $2 || lpad(nextval('pay_by_link_order_no_seq')::text, 6, '0'), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18)
     RETURNING id, order_no`,
    [
      o.merId,
      o.datePrefix,
      o.token,
      o.reconId,
      o.currency,
      o.totalAmount,
      o.goodsName,
      o.goodsPrice,
      o.goodsQuantity,
      o.logFee,
      o.remarks,
      o.buyerEmail,
      o.sendEmail,
      o.attachmentId,
      o.expiresAt,
      o.createdBy,
      o.now,
      JSON.stringify(o.metadata ?? {}),
    ],
  );
  return { id: rows[0].id, orderNo: rows[0].order_no };
}

/** Changes the editable fields, only while the order is open and unpaid. False when it no longer is. */
export async function updateOpenOrder(
  q: Queryable,
  id: number,
  v: { totalAmount: number; goodsPrice: number; goodsQuantity: number; logFee: number; sendEmail: boolean; attachmentId: number | null; expiresAt: Date; now: Date; metadata?: Record<string, string> },
): Promise<boolean> {
  const r = await q.query(
    `UPDATE pay_by_link_order SET total_amount = $2, goods_price = $3, goods_quantity = $4, log_fee = $5, send_email = $6, attachment_id = $7,
        expires_at = $8, updated_at = $9, metadata = coalesce($10::jsonb, metadata)
      WHERE id = $1 AND status = '04' AND open_status = '02' AND prod_category = 'paybylink' AND expires_at > $9`,
    [id, v.totalAmount, v.goodsPrice, v.goodsQuantity, v.logFee, v.sendEmail, v.attachmentId, v.expiresAt, v.now, v.metadata ? JSON.stringify(v.metadata) : null],
  );
  return r.rowCount === 1;
}

/** Closes an open, unpaid order. False when a payment (or another close) got there first. */
export async function closeOpenOrder(q: Queryable, id: number, now: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE pay_by_link_order SET status = '01', open_status = '01', close_reason = 'merchant', closed_at = $2, updated_at = $2
      WHERE id = $1 AND status = '04' AND open_status = '02' AND prod_category = 'paybylink'`,
    [id, now],
  );
  return r.rowCount === 1;
}

/** Takes an open, unexpired order for a payment (it shows as processing until the result is in). */
export async function claimForPayment(q: Queryable, id: number, now: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE pay_by_link_order SET open_status = '00', updated_at = $2
      WHERE id = $1 AND status = '04' AND open_status = '02' AND expires_at > $2`,
    [id, now],
  );
  return r.rowCount === 1;
}

/** Records the acquirer's answer on a processing order: paid, failed (ends it) or still pending. */
export async function settlePayment(q: Queryable, id: number, outcome: 'success' | 'failed' | 'pending', txnId: number | null, now: Date): Promise<boolean> {
  const set =
    outcome === 'success'
      ? `status = '00', open_status = '02', paid_at = $3`
      : outcome === 'failed'
        ? `status = '01', open_status = '01', close_reason = 'failed', closed_at = $3`
        : `open_status = '00'`;
  const r = await q.query(`UPDATE pay_by_link_order SET ${set}, txn_id = coalesce($2, txn_id), updated_at = $3 WHERE id = $1 AND status = '04' AND open_status = '00'`, [id, txnId, now]);
  return r.rowCount === 1;
}

/** Ends the open orders whose link expired (in `scope`, or the one `id`), with an 'expired' event each. */
export async function expireDue(q: Queryable, now: Date, by: { scope?: string[]; id?: number }): Promise<number> {
  const cond = by.id !== undefined ? 'id = $2' : 'mer_id = ANY($2::text[])';
  const r = await q.query<{ n: number }>(
    `WITH e AS (
       UPDATE pay_by_link_order SET status = '01', open_status = '01', close_reason = 'expired', closed_at = expires_at, updated_at = $1
        WHERE status = '04' AND open_status = '02' AND expires_at <= $1 AND ${cond}
       RETURNING id, expires_at),
     ev AS (INSERT INTO pay_by_link_event (order_id, at, kind, actor) SELECT id, expires_at, 'expired', 'system' FROM e RETURNING 1)
     SELECT count(*)::int AS n FROM ev`,
    [now, by.id ?? by.scope ?? []],
  );
  return r.rows[0]?.n ?? 0;
}

export async function setEmailStatus(q: Queryable, id: number, status: 'sent' | 'failed', now: Date): Promise<void> {
  await q.query('UPDATE pay_by_link_order SET email_status = $2, updated_at = $3 WHERE id = $1', [id, status, now]);
}

export type EventKind = 'created' | 'updated' | 'emailed' | 'emailFailed' | 'opened' | 'payment' | 'closed' | 'expired';

export async function addEvent(q: Queryable, orderId: number, kind: EventKind, actor: string | null, at: Date, detail: Record<string, unknown> = {}): Promise<void> {
  await q.query('INSERT INTO pay_by_link_event (order_id, at, kind, actor, detail) VALUES ($1, $2, $3, $4, $5)', [orderId, at, kind, actor, JSON.stringify(detail)]);
}

export interface EventRow {
  at: Date;
  kind: EventKind;
  actor: string | null;
  detail: Record<string, unknown>;
}
export async function listEvents(q: Queryable, orderId: number): Promise<EventRow[]> {
  const { rows } = await q.query<EventRow>('SELECT at, kind, actor, detail FROM pay_by_link_event WHERE order_id = $1 ORDER BY at, id', [orderId]);
  return rows;
}

/** When the buyer last opened the link (the 'opened' event is written at most every 10 minutes). */
export async function lastOpened(q: Queryable, orderId: number): Promise<Date | null> {
  const { rows } = await q.query<{ at: Date }>(`SELECT max(at) AS at FROM pay_by_link_event WHERE order_id = $1 AND kind = 'opened'`, [orderId]);
  return rows[0]?.at ?? null;
}

/** The channels a merchant has enabled (the methods a link of it offers). */
export async function merchantChannels(q: Queryable, merId: string): Promise<string[]> {
  const { rows } = await q.query<{ channels: string[] }>('SELECT channels FROM merchant WHERE mer_id = $1', [merId]);
  return rows[0]?.channels ?? [];
}

/** An order's /v1 metadata (issue 50). */
export async function setOrderMetadata(q: Queryable, id: number, metadata: Record<string, string>, now: Date): Promise<void> {
  await q.query('UPDATE pay_by_link_order SET metadata = $2, updated_at = $3 WHERE id = $1', [id, JSON.stringify(metadata), now]);
}
