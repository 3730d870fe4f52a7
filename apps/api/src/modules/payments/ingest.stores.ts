import type { Queryable } from '../../db/db';
import type { TxnRow } from './ingest.types';
import { invalid } from './ingest.validate';

/**
 * Stores come from the store table (migration 011): a row naming a store must give its id, the
 * store must belong to the row's merchant, and the stored name is the table's (whatever the caller
 * sent). One query per call, whatever the number of rows.
 */
export async function resolveStores(q: Queryable, rows: TxnRow[]): Promise<void> {
  const ids = new Set<string>();
  for (const r of rows) {
    if (r.store_id !== null) ids.add(r.store_id);
    else if (r.store_name !== null) throw invalid('payStoreIdRequired', {}, 'storeId');
  }
  if (!ids.size) return;
  const { rows: stores } = await q.query<{ store_id: string; mer_id: string; name: string }>('SELECT store_id, mer_id, name FROM store WHERE store_id = ANY($1::text[])', [[...ids]]);
  const byId = new Map(stores.map((s) => [s.store_id, s]));
  for (const r of rows) {
    if (r.store_id === null) continue;
    const s = byId.get(r.store_id);
    if (!s || s.mer_id !== r.mer_id) throw invalid('payStoreUnknown', { storeId: r.store_id, merId: r.mer_id }, 'storeId');
    r.store_name = s.name;
  }
}
