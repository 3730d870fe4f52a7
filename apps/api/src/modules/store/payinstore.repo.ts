import type { PayInStoreFilter } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { orderWhere, type Where } from '../paybylink';

/** The in-store list filter (spec §2: time range, store, status, order number) over the caller's scope. */
export function pisWhere(f: PayInStoreFilter, scope: string[], tz: string): Where {
  return orderWhere(f, scope, tz, true, f.storeId ? ['o.store_id', f.storeId] : null);
}

export interface NewInStoreOrder {
  merId: string;
  storeId: string;
  token: string;
  currency: string;
  totalAmount: number;
  goodsName: string;
  expiresAt: Date;
  createdBy: number | null;
  now: Date;
  datePrefix: string;
  metadata?: Record<string, string>;
}

/** Inserts an in-store order; the order number is PIS + the platform date + a sequence number. */
export async function insertInStoreOrder(q: Queryable, o: NewInStoreOrder): Promise<{ id: number; orderNo: string }> {
  const { rows } = await q.query<{ id: number; order_no: string }>(
    `INSERT INTO pay_by_link_order (mer_id, order_no, token, recon_id, prod_category, store_id, order_currency, total_amount, goods_name, goods_price,
        goods_quantity, log_fee, expires_at, created_by, created_at, updated_at, metadata)
     VALUES ($1, 'PIS' || $2 || lpad(nextval('pay_in_store_order_no_seq')::text, 6, '0'), $3, '', 'payinstore', $4, $5, $6, $7, $6, 1, 0, $8, $9, $10, $10, $11)
     RETURNING id, order_no`,
    [o.merId, o.datePrefix, o.token, o.storeId, o.currency, o.totalAmount, o.goodsName, o.expiresAt, o.createdBy, o.now, JSON.stringify(o.metadata ?? {})],
  );
  return { id: rows[0].id, orderNo: rows[0].order_no };
}
