import type { Queryable } from '../../db/db';

/** A store row with its merchant's name and channels (what the rules need). */
export interface StoreDbRow {
  store_id: string;
  mer_id: string;
  mer_name: string;
  name: string;
  address: string | null;
  brands: string[];
  static_token: string;
  enabled: boolean;
  channels: string[];
  currencies: string[];
  default_currency: string;
  cashiers: number;
}

const SELECT = `SELECT s.store_id, s.mer_id, m.name AS mer_name, s.name, s.address, s.brands, s.static_token, s.enabled AND m.enabled AND NOT m.locked AS enabled,
    m.channels, m.currencies, trim(m.default_currency) AS default_currency,
    (SELECT count(*)::int FROM cashier c WHERE c.store_id = s.store_id AND c.unbound_at IS NULL) AS cashiers
  FROM store s JOIN merchant m ON m.mer_id = s.mer_id`;

/** The stores of the caller's scope (optionally of one merchant), by merchant then id. */
export async function listStores(q: Queryable, scope: string[]): Promise<StoreDbRow[]> {
  const { rows } = await q.query<StoreDbRow>(`${SELECT} WHERE s.mer_id = ANY($1::text[]) ORDER BY s.mer_id, s.store_id`, [scope]);
  return rows;
}

/** One store by id, inside `scope` when given (outside it: null, as if it did not exist). */
export async function findStore(q: Queryable, storeId: string, scope?: string[]): Promise<StoreDbRow | null> {
  const { rows } = scope
    ? await q.query<StoreDbRow>(`${SELECT} WHERE s.store_id = $1 AND s.mer_id = ANY($2::text[])`, [storeId, scope])
    : await q.query<StoreDbRow>(`${SELECT} WHERE s.store_id = $1`, [storeId]);
  return rows[0] ?? null;
}

export async function findStoreByToken(q: Queryable, token: string): Promise<StoreDbRow | null> {
  const { rows } = await q.query<StoreDbRow>(`${SELECT} WHERE s.static_token = $1`, [token]);
  return rows[0] ?? null;
}

export interface NewStore {
  storeId?: string;
  merId: string;
  name: string;
  address?: string | null;
  brands: string[];
  token: string;
}

/** Adds a store (seed, back office); returns its id. */
export async function insertStore(q: Queryable, s: NewStore): Promise<string> {
  const { rows } = await q.query<{ store_id: string }>(
    s.storeId
      ? 'INSERT INTO store (store_id, mer_id, name, address, brands, static_token) VALUES ($6, $1, $2, $3, $4, $5) RETURNING store_id'
      : 'INSERT INTO store (mer_id, name, address, brands, static_token) VALUES ($1, $2, $3, $4, $5) RETURNING store_id',
    s.storeId ? [s.merId, s.name, s.address ?? null, s.brands, s.token, s.storeId] : [s.merId, s.name, s.address ?? null, s.brands, s.token],
  );
  return rows[0].store_id;
}
