import type { Queryable } from '../../db/db';
import type { AppError } from '../../lib/errors';
import type { TxnRow } from './ingest.types';
import { invalid } from './ingest.validate';

/**
 * Stores come from the store table (migration 011): a row naming a store must give its id, the
 * store must belong to the row's merchant, and the stored name is the table's (whatever the caller
 * sent). One query per call, whatever the number of rows.
 */
export async function resolveStores(q: Queryable, rows: TxnRow[]): Promise<void> {
  const bad = await checkStores(q, rows);
  for (const r of rows) {
    const e = bad.get(r);
    if (e) throw e;
  }
}

/** The same checks, row by row: the refused rows with their reason (the others are resolved). */
export async function checkStores(q: Queryable, rows: TxnRow[]): Promise<Map<TxnRow, AppError>> {
  const bad = new Map<TxnRow, AppError>();
  const ids = new Set<string>();
  for (const r of rows) {
    if (r.store_id !== null) ids.add(r.store_id);
    else if (r.store_name !== null) bad.set(r, invalid('payStoreIdRequired', {}, 'storeId'));
  }
  if (!ids.size) return bad;
  const { rows: stores } = await q.query<{ store_id: string; mer_id: string; name: string }>('SELECT store_id, mer_id, name FROM store WHERE store_id = ANY($1::text[])', [[...ids]]);
  const byId = new Map(stores.map((s) => [s.store_id, s]));
  for (const r of rows) {
    if (r.store_id === null || bad.has(r)) continue;
    const s = byId.get(r.store_id);
    if (!s || s.mer_id !== r.mer_id) bad.set(r, invalid('payStoreUnknown', { storeId: r.store_id, merId: r.mer_id }, 'storeId'));
    else r.store_name = s.name;
  }
  return bad;
}
