import type { Db, Queryable } from '../db/db';
import { ingestBatch } from '../modules/payments/ingest.service';
import { settleDate, settleThrough, type RunResult } from '../modules/payments/settlement/settle.run';
import { MerchantStream } from '../modules/payments/demo/stream';
import { createMerchants, ensureAcquirers, loadGenMerchants, seedFxRates, setupMerchantTerms } from '../modules/payments/demo/setup';
import { Rng } from '../modules/payments/demo/rng';
import { addDays, datesBetween, platformDate, zonedInstant } from '../modules/payments/time';
import { DEMO } from './foundation.seed';
import { ensureMonths } from '../db/partitions';
import { withIndexesDeferred } from '../db/bulk-load';

export interface DemoOptions {
  /** New merchants to create besides the four demo merchants (0: demo merchants only). */
  merchants: number;
  days: number;
  /** Average transactions per merchant and day. */
  perDay: number;
  seed: string | number;
  platformTz: string;
  /** The generator's "now": nothing is generated after it; default the current time. */
  now?: Date;
  /** Last date generated; default the platform date of `now`. */
  end?: string;
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  date: string;
  done: number;
  total: number;
  txns: number;
  settled: number;
}

export interface DemoSummary {
  merchants: string[];
  from: string;
  to: string;
  txns: number;
  settledThrough: string | null;
  runs: RunResult[];
  fxRates: number;
  ms: { setup: number; generate: number; ingest: number; settle: number; index: number; total: number };
}

const DEMO_MERCHANTS = [DEMO.group, DEMO.subA, DEMO.subB, DEMO.other];

/** Raises each purchase's return amount by its successful or processing refunds (the refund caller's part). */
async function applyReturns(q: Queryable, returns: [string, string, number][]): Promise<void> {
  if (!returns.length) return;
  await q.query(
    `UPDATE txn p SET return_amount = p.return_amount + u.amount
       FROM (SELECT m, o, sum(a)::int8 AS amount FROM unnest($1::text[], $2::text[], $3::int8[]) AS x(m, o, a) GROUP BY m, o) u
      WHERE p.mer_id = u.m AND p.order_no = u.o`,
    [returns.map((r) => r[0]), returns.map((r) => r[1]), returns.map((r) => r[2])],
  );
}

/**
 * Generates demo data through the real paths: merchants (new ones besides the demo merchants), fee
 * schedules, bank accounts, FX rates for every day, then day by day the transactions through
 * ingestion and the settlement run of each day up to yesterday. Deterministic for a seed on a fresh
 * database. While the database settles day D, the next day is generated in JavaScript.
 */
export async function generateDemoData(db: Db, o: DemoOptions): Promise<DemoSummary> {
  const t0 = performance.now();
  const seed = String(o.seed);
  const now = o.now ?? new Date();
  const to = o.end ?? platformDate(now, o.platformTz);
  const from = addDays(to, -(o.days - 1));
  const settleTo = [to, addDays(platformDate(now, o.platformTz), -1)].sort()[0];
  const ms = { setup: 0, generate: 0, ingest: 0, settle: 0, index: 0, total: 0 };

  const { ids, fx } = await db.tx(async (q) => {
    await ensureAcquirers(q);
    const created = await createMerchants(q, o.merchants, seed, addDays(from, -30));
    const merchants = await loadGenMerchants(q, [...DEMO_MERCHANTS, ...created]);
    await setupMerchantTerms(q, merchants, seed);
    return { ids: merchants.map((m) => m.merId), fx: await seedFxRates(q, from, to, seed) };
  });
  const merchants = await loadGenMerchants(db, ids);
  const streams = merchants.map((m) => new MerchantStream(m, { seed, perDay: o.perDay, platformTz: o.platformTz, end: to, now }));
  ms.setup = performance.now() - t0;

  const dates = o.days > 0 ? datesBetween(from, to) : [];
  // The ledger's months first, each in a statement of its own: a month made inside a day's
  // ingestion would lock the ledger until that transaction ends, and on PostgreSQL that
  // transaction waits for the previous day's run, which reads the ledger (decision 028).
  if (dates.length) await ensureMonths(db, 'txn', zonedInstant(from, o.platformTz), zonedInstant(addDays(to, 1), o.platformTz));
  // Dates before the first generated one that were never run go first (runs only go forward).
  const runs: RunResult[] = dates.length ? await settleThrough(db, [addDays(from, -1), settleTo].sort()[0]) : [];
  let txns = 0;
  // On an empty ledger the indexes the load does not read are built once at the end (bulk-load.ts).
  const loaded = await withIndexesDeferred(db, async () => {
    // On PostgreSQL the run of day D (one connection) overlaps with generating and ingesting day D+1
    // (another): they touch different rows, and the refunds' return amounts are raised only after the
    // run of D has committed. PGlite has one connection: there the steps simply follow each other.
    const overlap = db.kind === 'postgres';
    let settling: Promise<unknown> = Promise.resolve();
    const generate = (date: string) => {
      const t = performance.now();
      const days = streams.map((s) => s.day(date));
      const out = { inputs: days.flatMap((d) => d.inputs), returns: days.flatMap((d) => d.returns) };
      ms.generate += performance.now() - t;
      return out;
    };
    let next = dates.length ? generate(dates[0]) : null;
    let analyzeAt = 1000;
    for (let i = 0; i < dates.length; i++) {
      const date = dates[i];
      const day = next!;
      if (!overlap) await settling;
      const t = performance.now();
      const ingesting = db.tx(async (q) => {
        // Ingested "as it happens": at the end of its day, so only genuinely backdated rows count as late.
        const asOf = new Date(Math.min(zonedInstant(addDays(date, 1), o.platformTz).getTime() - 1, now.getTime()));
        await ingestBatch(q, day.inputs, { platformTz: o.platformTz, randomHex: hexFor(seed, date), now: asOf });
        await settling;
        await applyReturns(q, day.returns);
      });
      next = i + 1 < dates.length ? generate(dates[i + 1]) : null;
      await ingesting;
      ms.ingest += performance.now() - t;
      txns += day.inputs.length;
      // Fresh tables have no statistics until autovacuum gets to them, and the run's pick then
      // scans every unsettled row per schedule (a plan for "one row"). Analysed each time the
      // ledger has doubled: a handful of times, whatever its size.
      if (txns >= analyzeAt) {
        if (!overlap) await settling;
        // A small sample (3,000 rows a table) is enough for those plans; autovacuum refines it later.
        await db.tx(async (q) => {
          await q.query('SET LOCAL default_statistics_target = 10');
          await q.query('ANALYZE txn, settle_late, merchant_fee');
        });
        analyzeAt = txns * 2;
      }
      if (date <= settleTo) {
        const ts = performance.now();
        settling = settleDate(db, date).then((r) => {
          runs.push(r);
          ms.settle += performance.now() - ts;
        });
      }
      o.onProgress?.({ date, done: i + 1, total: dates.length, txns, settled: runs.length });
    }
    await settling;
  });
  ms.index = loaded.buildMs;
  ms.total = performance.now() - t0;
  return { merchants: ids, from, to, txns, settledThrough: runs.length ? runs[runs.length - 1].date : null, runs, fxRates: fx, ms };
}

/** Deterministic gateway-id randomness per (seed, date). */
function hexFor(seed: string, date: string): () => string {
  const rng = new Rng(`${seed}:gw:${date}`);
  return () => rng.hex16();
}

/** Transactions per demo merchant and day seeded on first start (four merchants). */
const FIRST_START_PER_DAY = 300;

/**
 * First start: fee schedules, bank accounts, FX rates and `days` days of transactions for the demo
 * merchants, settled through yesterday. Fixed seed: every fresh install shows the same data shape.
 */
export function seedFirstStart(db: Db, o: { days: number; platformTz: string; now: Date }): Promise<DemoSummary> {
  return generateDemoData(db, { merchants: 0, days: o.days, perDay: FIRST_START_PER_DAY, seed: 'demo', platformTz: o.platformTz, now: o.now });
}
