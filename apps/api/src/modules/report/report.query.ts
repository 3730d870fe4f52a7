import type { Queryable } from '../../db/db';

/** Conditions with positional parameters: `add('x = ANY(?::text[])', v)` numbers the `?` marks. */
export class Conditions {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  add(sql: string, ...values: unknown[]): this {
    let i = 0;
    this.parts.push(sql.replace(/\?/g, () => `$${this.params.length + ++i}`));
    this.params.push(...values);
    return this;
  }
  get sql(): string {
    return this.parts.length ? this.parts.join(' AND ') : 'true';
  }
}

/**
 * One report listing: an inner SELECT whose output columns include `date` (listed newest first)
 * and `keys` (ascending), which together are unique — so paging is stable and exports can walk it
 * by keyset, whatever the size.
 */
export interface Listing {
  inner: string;
  /** The same rows for counting only (no joins, no aggregates), same parameters. */
  countInner: string;
  params: unknown[];
  date: string;
  keys: string[];
}

const orderOf = (l: Listing) => `ORDER BY x.${l.date} DESC, ${l.keys.map((k) => `x.${k}`).join(', ')}`;

/**
 * One page. ORDER BY goes on the inner query itself (by output column names): for a grouped
 * listing the planner can then sort the input and stop aggregating after the page's groups,
 * where a sort over a wrapped subquery would aggregate every group first.
 */
export async function listPage<R>(q: Queryable, l: Listing, page: number, size: number): Promise<R[]> {
  const order = `ORDER BY ${l.date} DESC, ${l.keys.join(', ')}`;
  const { rows } = await q.query<R>(`${l.inner} ${order} LIMIT ${size} OFFSET ${page * size}`, l.params);
  return rows;
}

export async function countRows(q: Queryable, l: Listing): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM (${l.countInner}) x`, l.params);
  return rows[0].n;
}

/** All rows in batches, keyset-paged in list order (memory stays flat for any export size). */
export async function* iterateRows<R extends Record<string, unknown>>(q: Queryable, l: Listing, batch = 2000): AsyncGenerator<R[]> {
  let last: R | null = null;
  for (;;) {
    const params = [...l.params];
    let keyset = '';
    if (last) {
      const n = params.length;
      params.push(last[l.date], ...l.keys.map((k) => last![k]));
      const keyCols = l.keys.map((k) => `x.${k}`).join(', ');
      const keyVals = l.keys.map((_, i) => `$${n + 2 + i}`).join(', ');
      keyset = `WHERE (x.${l.date} < $${n + 1}::date OR (x.${l.date} = $${n + 1}::date AND (${keyCols}) > (${keyVals})))`;
    }
    const { rows } = await q.query<R>(`SELECT * FROM (${l.inner}) x ${keyset} ${orderOf(l)} LIMIT ${batch}`, params);
    if (rows.length) yield rows;
    if (rows.length < batch) return;
    last = rows[rows.length - 1];
  }
}
