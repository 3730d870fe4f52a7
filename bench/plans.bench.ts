/**
 * Generic plans (issue 30, target 2; decision 043): for each filter set of the transaction list
 * benchmark, the statements the list runs (page, bounded count) and the totals — on the
 * benchmark's PostgreSQL data, whose statistics are those of a real ledger:
 * - the partitions and indexes of the custom plan for the values, and of the generic plan once the
 *   executor has started (run-time pruning), side by side, "same" or what differs;
 * - each statement run 200 times unprepared (parse + plan + execute) and prepared with its generic
 *   plan (bind + execute), one connection each: mean and p95 in ms.
 *
 *   BENCH_SCHEMA=bench_txn_1000000_big25   the schema (default: bench_txn_<BENCH_ROWS>[_big<BENCH_BIG_SHARE>],
 *                                          made by `BENCH_DB=postgres BENCH_ROWS=… BENCH_BIG_SHARE=25
 *                                          BENCH_LIST=0 BENCH_EXPORT=0 npm run bench -- txn`)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, PREPARED, type Db, type Queryable, type QueryOptions } from '../apps/api/src/db/db';
import { planOf } from '../apps/api/test/plan-facts';
import { loadConfig } from '../apps/api/src/config';
import { DEMO } from '../apps/api/src/seed/foundation.seed';
import { totalsTxn, txnWhere } from '../apps/api/src/modules/txn/txn.repo';
import { pageWithCount } from '../apps/api/src/modules/txn/txn.service';
import { formatInZone } from '../apps/api/src/modules/txn/time';
import { check, sized } from './check';

const ROOT = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const bigShare = Number(process.env.BENCH_BIG_SHARE ?? 25);
const schema = process.env.BENCH_SCHEMA ?? `bench_txn_${rows}${bigShare ? `_big${bigShare}` : ''}`;
const log = (s: string) => console.log(s);

async function timeIt(db: Db, text: string, params: unknown[], o?: QueryOptions): Promise<{ mean: number; p95: number }> {
  for (let i = 0; i < sized(5, 1); i++) await db.query(text, params, o);
  const t: number[] = [];
  for (let i = 0; i < sized(200, 3); i++) {
    const t0 = performance.now();
    const r = await db.query(text, params, o);
    t.push(performance.now() - t0);
    check(Array.isArray(r.rows), () => `statement answered no rows array: ${text.slice(0, 80)}`);
  }
  t.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { mean: r(t.reduce((a, b) => a + b, 0) / t.length), p95: r(t[Math.floor(t.length * 0.95)]) };
}

export default async function run() {
  const db = await openPostgres(pgUrl, { searchPath: schema, max: 1 });
  const { rows: has } = await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]);
  if (!has.length) throw new Error(`schema ${schema} not found: load it first (see the head of bench/plans.bench.ts)`);
  const { rows: n } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM txn');
  log(
    `  schema ${schema}: ${n[0].n.toLocaleString('en-US')} transactions; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const platformTz = loadConfig({ NODE_ENV: 'test' }).platformTz;
  const now = Date.now();
  const at = (daysAgo: number, end = false) => formatInZone(now - daysAgo * 86_400_000, platformTz).slice(0, 10) + (end ? ' 23:59:59' : ' 00:00:00');
  const { rows: sample } = await db.query<{ order_no: string }>(`SELECT order_no FROM txn WHERE mer_id = $1 ORDER BY txn_time DESC LIMIT 1 OFFSET 100`, [DEMO.subA]);
  const scope = [DEMO.group, DEMO.subA, DEMO.subB];
  const sets: { name: string; q: Record<string, string | number> }[] = [
    { name: 'last 7 days, page 1 of 10', q: { beginDate: at(6), endDate: at(0, true), page: 0, size: 10 } },
    { name: 'one merchant, successful purchases, 30 days', q: { beginDate: at(29), endDate: at(0, true), merId: DEMO.subA, gwTranType: 'PURC', gwResponse: '00', page: 0, size: 30 } },
    { name: 'order number lookup, 90 days', q: { beginDate: at(89), endDate: at(0, true), orderNum: sample[0]?.order_no ?? 'x', page: 0, size: 10 } },
    { name: 'two brands, 90 days, page 1 of 50', q: { beginDate: at(89), endDate: at(0, true), paymentBrand: 'visa,mastercard', page: 0, size: 50 } },
    { name: 'one merchant, 90 days, page 1 of 10', q: { beginDate: at(89), endDate: at(0, true), merId: DEMO.subA, page: 0, size: 10 } },
  ];
  const out: Record<string, unknown>[] = [];
  let same = 0;
  let total = 0;
  for (const set of sets) {
    // Every statement, prepared by the code or not: the comparison is what decided which are.
    const seen: { text: string; params: unknown[]; prepared: boolean }[] = [];
    const recorder: Queryable = {
      query: (text, params, o) => {
        seen.push({ text, params: params ?? [], prepared: !!o?.prepare });
        return db.query(text, params, o);
      },
    };
    const filter = { ...set.q } as never as Parameters<typeof txnWhere>[0];
    const w = txnWhere(filter, set.q.merId ? [String(set.q.merId)] : scope, platformTz);
    await pageWithCount(recorder, w, scope, { page: 0, size: Number(set.q.size), exact: false });
    await totalsTxn(recorder, w);
    for (const [i, s] of seen.entries()) {
      const what = `${set.name} — ${['page', 'count up to the budget', 'totals'][i] ?? `statement ${i + 1}`}`;
      const [custom, generic] = await db.tx(async (q) => [await planOf(q, s.text, s.params, 'force_custom_plan'), await planOf(q, s.text, s.params, 'force_generic_plan')]);
      const ok = JSON.stringify(custom.relations) === JSON.stringify(generic.relations) && JSON.stringify(custom.indexes) === JSON.stringify(generic.indexes);
      total++;
      if (ok) same++;
      const unprepared = await timeIt(db, s.text, s.params);
      const prepared = await timeIt(db, s.text, s.params, PREPARED);
      log(
        `  ${what} [${s.prepared ? 'prepared' : 'unprepared'} in the code]: plans ${ok ? 'same partitions and indexes' : 'DIFFER'} (generic pruned ${generic.removed} at start); unprepared mean ${unprepared.mean} / p95 ${unprepared.p95} ms, prepared ${prepared.mean} / ${prepared.p95} ms`,
      );
      if (!ok) log(`      custom  ${custom.indexes.join(', ')}\n      generic ${generic.indexes.join(', ')}`);
      out.push({ set: what, preparedInCode: s.prepared, same: ok, custom, generic, unprepared, prepared });
    }
  }
  log(`  plans the same for ${same} of ${total} statements (goal: all)`);
  await db.close();
  fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench-results', 'plans.json'), JSON.stringify({ schema, rows: n[0].n, loadavg: os.loadavg(), out }, null, 2));
  return out;
}
