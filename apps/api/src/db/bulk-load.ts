/**
 * A fresh ledger's bulk load (the demo generator on an empty ledger: first start, `npm run seed`
 * on a new database, the seed benchmark). The ledger's secondary indexes that the load's own
 * statements do not read are set aside before and built once after — one sort per index instead of
 * an entry per insert and per settlement update (issue 16, target 7). Each index's definition is
 * kept in `deferred_index` in the same transaction that drops it, so a crash mid-load leaves a
 * record that `rebuildDeferredIndexes` (run at every start) builds from. Uniqueness never depends
 * on a set-aside index: the global keys are txn_key's, and the primary key stays.
 */
import type { Db, Queryable } from './db';

/** What the load reads: the primary key (id look-ups, the late queue), the settlement run's pick
 * and its S → T range, and the (merchant, order number) look-ups of refunds and return amounts. */
export const LOAD_KEEPS = ['txn_pkey', 'txn_to_settle_idx', 'txn_settled_idx', 'txn_mer_order_idx'];

interface IndexDef {
  name: string;
  def: string;
}

/** The ledger's own (parent) indexes, but those the load keeps and constraints' indexes. */
async function setAsideable(q: Queryable): Promise<IndexDef[]> {
  const { rows } = await q.query<IndexDef>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'txn'::regclass AND NOT i.indisprimary AND NOT i.indisunique
        AND NOT c.relname = ANY($1::text[])
      ORDER BY c.relname`,
    [LOAD_KEEPS],
  );
  return rows;
}

/** A partitioned index's definition reads `ON ONLY txn`, which would build no partition's index. */
const onAll = (def: string) => def.replace(/ ON ONLY /, ' ON ');

/**
 * Runs `load` with the set-asideable indexes dropped when the ledger is empty (otherwise `load`
 * runs with every index: a database in use keeps its indexes), then builds them again, also when
 * `load` fails. Returns `load`'s result and what was deferred.
 */
export async function withIndexesDeferred<T>(db: Db, load: () => Promise<T>): Promise<{ result: T; deferred: string[]; buildMs: number }> {
  const deferred = await db.tx(async (q) => {
    // Lock the ledger for the check and the drops: no row arrives between them.
    await q.query('LOCK TABLE txn IN SHARE ROW EXCLUSIVE MODE');
    const { rows } = await q.query('SELECT 1 FROM txn_key LIMIT 1');
    if (rows.length) return [];
    const defs = await setAsideable(q);
    for (const d of defs) {
      await q.query('INSERT INTO deferred_index (name, def) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [d.name, onAll(d.def)]);
      await q.query(`DROP INDEX ${quoteIdent(d.name)}`);
    }
    return defs.map((d) => d.name);
  });
  let buildMs = 0;
  let result: T;
  try {
    result = await load();
  } finally {
    const t = performance.now();
    await rebuildDeferredIndexes(db);
    buildMs = Math.round(performance.now() - t);
  }
  return { result, deferred, buildMs };
}

/** Builds every index recorded in `deferred_index` and clears its record, one at a time. Returns their names. */
export async function rebuildDeferredIndexes(db: Db): Promise<string[]> {
  const { rows } = await db.query<IndexDef>('SELECT name, def FROM deferred_index ORDER BY name');
  for (const d of rows) {
    await db.tx(async (q) => {
      const { rows: exists } = await q.query("SELECT 1 FROM pg_class WHERE relname = $1 AND relkind IN ('i', 'I') AND pg_table_is_visible(oid)", [d.name]);
      if (!exists.length) await q.query(d.def);
      await q.query('DELETE FROM deferred_index WHERE name = $1', [d.name]);
    });
  }
  return rows.map((r) => r.name);
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected index name ${name}`);
  return name;
}
