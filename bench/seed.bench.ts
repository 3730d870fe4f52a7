/**
 * npm run bench:seed [-- --pg-txns 1000000 --pglite-txns 200000 --days 120 --skip-pglite --skip-pg --verify --first-start]
 *
 * Prints, for PGlite and PostgreSQL, the throughput of the whole demo-data path (generate →
 * ingest → daily settlement run) beside the database's raw `INSERT … SELECT generate_series` speed
 * for rows of the same width: into a plain heap of txn's shape, and into a copy of txn with all
 * its indexes. PostgreSQL: BENCH_DATABASE_URL or postgres://root@127.0.0.1:5432/test, in a fresh
 * schema dropped afterwards. --verify checks invariants I1–I6 after generating; --first-start
 * times the first-start seed (90 days of the demo merchants) on a fresh PGlite.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { generateDemoData, seedFirstStart } from '../apps/api/src/seed/demo-data';
import { checkInvariants } from '../apps/api/src/modules/payments/settlement/invariants';
import { intArg, parseArgs, progressBar } from '../apps/api/src/cli/args';

const args = parseArgs(process.argv.slice(2));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const DAYS = intArg(args, 'days', 120, 1, 1000);
const TZ = 'Asia/Shanghai';
const NOW = new Date('2026-06-30T12:00:00Z');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Bench {
  db: Db;
  drop(): Promise<void>;
}

async function fresh(kind: 'pglite' | 'postgres', big = false): Promise<Bench> {
  if (kind === 'pglite') {
    // Large runs keep PGlite's files on disk (a temporary directory) rather than in WASM memory.
    const dir = big ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-')) : undefined;
    const db = await openPglite(dir);
    await migrate(db);
    return {
      db,
      async drop() {
        await db.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await openPostgres(PG_URL, { searchPath: schema, max: 4 });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** Rows like the generator's: same columns filled, similar text widths. */
const RAW_SELECT = (table: string, n: number) => `
  INSERT INTO ${table} (gw_trans_id, mer_id, order_no, channel_order_no, tran_type, gw_response, resp_msg, amount, amount_sign, currency,
    order_amount, order_currency, payment_schema, bus_line, payment_brand, txn_time, txn_date, mer_reserve, card_first6, card_last4, source)
  SELECT 'G20260301' || md5(g::text)::varchar(16), '100000000000001', 'D20260301-' || lpad(g::text, 7, '0'), 'CARD' || lpad(g::text, 12, '0'),
         'PURC', '00', 'Approved', 1000 + g % 50000, 1, 'HKD', 1000 + g % 50000, 'HKD', 'CARD', 'CARD', 'visa',
         timestamptz '2026-03-01' + g * interval '7 second', date '2026-03-01' + g / 12000, CASE WHEN g % 3 = 0 THEN 'cart-' || g END,
         '411111', lpad((g % 10000)::text, 4, '0'), 'generator'
    FROM generate_series(1, ${n}) g`;

async function raw(kind: 'pglite' | 'postgres', n: number) {
  const b = await fresh(kind);
  try {
    await b.db.query(`INSERT INTO merchant (mer_id, name, attribute) VALUES ('100000000000001', 'bench', 'INDEPENDENT')`);
    await b.db.exec('CREATE TABLE raw_heap (LIKE txn INCLUDING DEFAULTS); CREATE TABLE raw_indexed (LIKE txn INCLUDING ALL)');
    const out: Record<string, number> = {};
    for (const t of ['raw_heap', 'raw_indexed']) {
      const t0 = performance.now();
      await b.db.query(RAW_SELECT(t, n));
      out[t] = n / ((performance.now() - t0) / 1000);
    }
    return out;
  } finally {
    await b.drop();
  }
}

async function pipeline(kind: 'pglite' | 'postgres', target: number, verify: boolean) {
  const b = await fresh(kind, target > 300_000);
  try {
    await seedFoundation(b.db, { env: 'test' });
    const merchants = Math.max(0, Math.round(target / DAYS / 100) - 4);
    const perDay = Math.max(1, Math.round(target / ((merchants + 4) * DAYS * 1.1)));
    const bar = progressBar(`${kind} seed`);
    const s = await generateDemoData(b.db, {
      merchants,
      days: DAYS,
      perDay,
      seed: 'bench',
      platformTz: TZ,
      now: NOW,
      onProgress: (p) => bar.update(p.done, p.total, `${fmt(p.txns)} txns`),
    });
    bar.done();
    const secs = s.ms.total / 1000;
    let inv: string | undefined;
    if (verify) {
      const t0 = performance.now();
      const v = await checkInvariants(b.db);
      const bad = Object.entries(v).filter(([, rows]) => rows.length);
      inv = `${bad.length ? `VIOLATED ${bad.map(([k]) => k).join(', ')}` : 'I1–I6 hold'} (checked in ${((performance.now() - t0) / 1000).toFixed(1)} s)`;
    }
    const settled = (await b.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn WHERE settle_date IS NOT NULL')).rows[0].n;
    return { merchants: merchants + 4, perDay, txns: s.txns, settled, secs, rate: s.txns / secs, ms: s.ms, runs: s.runs.length, inv };
  } finally {
    await b.drop();
  }
}

async function firstStart() {
  const db = await openPglite();
  await migrate(db);
  const t0 = performance.now();
  await seedFoundation(db, { env: 'test' });
  const s = await seedFirstStart(db, { days: 90, platformTz: TZ, now: NOW });
  const secs = (performance.now() - t0) / 1000;
  await db.close();
  return { txns: s.txns, secs };
}

const kinds: ('pglite' | 'postgres')[] = [];
if (!args['skip-pglite']) kinds.push('pglite');
if (!args['skip-pg']) kinds.push('postgres');
console.log(`seed benchmark — ${DAYS} days, platform zone ${TZ}, ${new Date().toISOString()}`);
for (const kind of kinds) {
  const target = kind === 'postgres' ? intArg(args, 'pg-txns', 1_000_000, 1000) : intArg(args, 'pglite-txns', 200_000, 1000);
  const rawN = Math.min(target, kind === 'postgres' ? 1_000_000 : 200_000);
  const r = await raw(kind, rawN);
  const p = await pipeline(kind, target, Boolean(args.verify));
  console.log(`\n${kind}`);
  console.log(`  raw INSERT … SELECT generate_series (${fmt(rawN)} rows of txn's width):`);
  console.log(`    heap only        ${fmt(r.raw_heap).padStart(10)} rows/s`);
  console.log(`    with txn indexes ${fmt(r.raw_indexed).padStart(10)} rows/s`);
  console.log(`  generate + ingest + settle: ${fmt(p.txns)} transactions (${fmt(p.settled)} settled, ${p.runs} daily runs) for ${p.merchants} merchants over ${DAYS} days`);
  console.log(
    `    ${p.secs.toFixed(1)} s → ${fmt(p.rate).padStart(8)} transactions/s  (generate ${(p.ms.generate / 1000).toFixed(1)} s, ingest ${(p.ms.ingest / 1000).toFixed(1)} s, settle ${(p.ms.settle / 1000).toFixed(1)} s; on PostgreSQL they overlap)`,
  );
  console.log(`    ratio: ${(p.rate / r.raw_indexed).toFixed(2)}× raw with indexes, ${(p.rate / r.raw_heap).toFixed(2)}× raw heap-only`);
  if (p.inv) console.log(`    invariants: ${p.inv}`);
}
if (args['first-start']) {
  const f = await firstStart();
  console.log(`\nfirst-start seed (PGlite in memory, 90 days, 4 demo merchants): ${fmt(f.txns)} transactions in ${f.secs.toFixed(1)} s`);
}
