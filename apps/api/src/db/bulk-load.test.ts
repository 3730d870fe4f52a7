/**
 * The bulk load's deferred indexes (db/bulk-load.ts), on both engines: set aside only on an empty
 * ledger, built again with the same definitions after the load (also when it fails), and built at
 * the next start when a crash left them recorded; the demo generator through it keeps invariants.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../test/helpers';
import type { Db } from './db';
import { LOAD_KEEPS, rebuildDeferredIndexes, withIndexesDeferred } from './bulk-load';
import { seedFoundation } from '../seed/foundation.seed';
import { generateDemoData } from '../seed/demo-data';
import { checkInvariants } from '../modules/payments/settlement/invariants';

/** Every index of the ledger and its months: name → definition. */
async function indexes(db: Db): Promise<Map<string, string>> {
  const { rows } = await db.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'txn'::regclass OR i.indrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'txn'::regclass)`,
  );
  return new Map(rows.map((r) => [r.name, r.def]));
}
const parentNames = async (db: Db) => (await db.query<{ n: string }>(`SELECT indexrelid::regclass::text AS n FROM pg_index WHERE indrelid = 'txn'::regclass ORDER BY 1`)).rows.map((r) => r.n);

describe.each(DB_KINDS)('bulk load with deferred indexes (%s)', (kind) => {
  let db: (Db & { drop(): Promise<void> }) | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it('an empty ledger loads without the indexes the load does not read, and gets every one back, the same', async () => {
    db = await freshDb(kind);
    await seedFoundation(db, { env: 'test' });
    const before = await indexes(db);
    let during: string[] = [];
    const out = await withIndexesDeferred(db, async () => {
      during = await parentNames(db!);
      return 42;
    });
    expect(out.result).toBe(42);
    expect(out.deferred).toEqual(expect.arrayContaining(['txn_time_idx', 'txn_mer_time_idx', 'txn_gw_trans_idx']));
    expect(during.sort()).toEqual([...LOAD_KEEPS].sort());
    expect(await indexes(db)).toEqual(before);
    expect((await db.query('SELECT * FROM deferred_index')).rows).toEqual([]);
  });

  it('the demo generator through it: months made during the load get every index, invariants hold', async () => {
    db = await freshDb(kind);
    await seedFoundation(db, { env: 'test' });
    const s = await generateDemoData(db, { seed: 3, merchants: 1, days: 40, perDay: 6, platformTz: 'Asia/Shanghai', now: new Date('2021-03-20T08:00:00Z') });
    expect(s.txns).toBeGreaterThan(500);
    expect(s.ms.index).toBeGreaterThanOrEqual(0);
    // Every month has the parent's twelve indexes, built (valid).
    const { rows } = await db.query<{ month: string; n: number }>(
      `SELECT c.relname AS month, count(*) FILTER (WHERE i.indisvalid)::int AS n
         FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid JOIN pg_index i ON i.indrelid = c.oid
        WHERE h.inhparent = 'txn'::regclass GROUP BY c.relname`,
    );
    const parents = (await parentNames(db)).length;
    expect(parents).toBeGreaterThanOrEqual(12);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.n, r.month).toBe(parents);
    expect(await checkInvariants(db)).toEqual({ I1: [], I2: [], I3: [], I4: [], I5: [], I6: [], I8: [] });
    // A second load onto the ledger in use defers nothing.
    const again = await withIndexesDeferred(db, async () => (await parentNames(db!)).length);
    expect(again.deferred).toEqual([]);
    expect(again.result).toBe(parents);
  });

  it('a failing load still gets its indexes back; a crash leaves a record that the next start builds from', async () => {
    db = await freshDb(kind);
    await seedFoundation(db, { env: 'test' });
    const before = await indexes(db);
    await expect(
      withIndexesDeferred(db, async () => {
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(await indexes(db)).toEqual(before);
    // A crash: the record is written and the index dropped, the process ends before the rebuild.
    const {
      rows: [def],
    } = await db.query<{ def: string }>(`SELECT pg_get_indexdef('txn_time_idx'::regclass) AS def`);
    await db.tx(async (q) => {
      await q.query('INSERT INTO deferred_index (name, def) VALUES ($1, $2)', ['txn_time_idx', def.def.replace(' ON ONLY ', ' ON ')]);
      await q.query('DROP INDEX txn_time_idx');
    });
    expect(await parentNames(db)).not.toContain('txn_time_idx');
    expect(await rebuildDeferredIndexes(db)).toEqual(['txn_time_idx']);
    expect(await indexes(db)).toEqual(before);
    expect(await rebuildDeferredIndexes(db)).toEqual([]);
  });
});
