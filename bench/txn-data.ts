/**
 * Bench data for the transactions module: N rows written with set-based SQL (generate_series), the
 * only way to reach millions of rows in minutes on this machine. Rows follow the domain's shapes
 * (types, results, brands, currencies, refunds pointing at purchases, settled ones) over the last 90
 * days, spread over the 4 demo merchants plus `extraMerchants` independent ones, so the group user
 * reads a realistic share of the table. The demo generator (payment core) is the path for
 * realistic end-to-end data; this loader is for volume.
 */
import type { Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { ensureMonths } from '../apps/api/src/db/partitions';
import { compactDayCounts } from '../apps/api/src/jobs/day-counts.job';

const BRANDS = ['visa', 'mastercard', 'unionpay', 'alipay_cn', 'wechat_pay', 'jcb', 'amex', 'alipay_hk', 'paypay', 'kakaopay'];
const CHANNELS = ['CARD', 'CARD', 'UP', 'AP', 'WX', 'CARD', 'CARD', 'AP', 'PPRO_PAYPAY', 'CARD'];

/**
 * `bigShare` (percent, default 0): that share of the rows goes to sub-merchant A (DEMO.subA), the
 * rest spreads evenly — "one merchant holds 5M of 20M" (issue 16, target 1) is bigShare 25.
 */
export async function loadBenchData(db: Db, o: { rows: number; extraMerchants: number; batch?: number; now?: Date; log?: (s: string) => void; bigShare?: number }) {
  const log = o.log ?? (() => undefined);
  const now = o.now ?? new Date();
  // Extra independent merchants.
  await db.query(
    `INSERT INTO merchant (mer_id, name, attribute, default_currency, settle_currency, channels, currencies)
     SELECT '3' || lpad(g::text, 14, '0'), 'Bench Merchant ' || g, 'INDEPENDENT',
            (ARRAY['USD','EUR','HKD','SGD','JPY'])[1 + g % 5], 'USD', '{CARD,AP,WX}', '{USD}'
       FROM generate_series(1, $1::int) g ON CONFLICT DO NOTHING`,
    [o.extraMerchants],
  );
  const { rows: mers } = await db.query<{ mer_id: string; cur: string }>(
    `SELECT mer_id, trim(default_currency) AS cur FROM merchant WHERE mer_id = ANY($1::text[]) OR mer_id LIKE '3%' ORDER BY mer_id`,
    [[DEMO.group, DEMO.subA, DEMO.subB, DEMO.other]],
  );
  const merIds = mers.map((m) => m.mer_id);
  const curs = mers.map((m) => m.cur);
  const batch = o.batch ?? 100_000;
  const spanMs = 90 * 86_400_000;
  // Written with SQL, not through ingestion: the months first (decision 028).
  await ensureMonths(db, 'txn', new Date(now.getTime() - spanMs - 86_400_000), now);
  for (let start = 1; start <= o.rows; start += batch) {
    const end = Math.min(o.rows, start + batch - 1);
    const t0 = performance.now();
    // Purchases (and the other types) first; refunds point at the purchase 7 rows earlier.
    await db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, origin_order_no, channel_order_no, tran_type, gw_response, resp_msg, amount, currency,
                        order_amount, order_currency, return_amount, payment_schema, bus_line, payment_brand, txn_time, txn_date, mer_reserve,
                        card_first6, card_last4, source, settle_flag, settle_date, settle_currency, settle_amount, settle_fee)
       SELECT 'B' || lpad(g::text, 15, '0'), mid, 'BO' || g, NULL, 'CH' || g, typ, resp,
              CASE resp WHEN '00' THEN 'Approved' WHEN '04' THEN 'Processing' ELSE 'Declined' END,
              amt, cur, amt, cur, 0, ch, CASE WHEN ch LIKE 'PPRO%' THEN 'PPRO' ELSE ch END, br, ts,
              (ts AT TIME ZONE 'Asia/Shanghai')::date, CASE WHEN g % 50 = 0 THEN 'vip' END,
              CASE WHEN ch = 'CARD' THEN '411111' END, CASE WHEN ch = 'CARD' THEN lpad((g % 10000)::text, 4, '0') END, 'generator',
              CASE WHEN resp = '00' AND ts < $4::timestamptz - interval '2 days' THEN (CASE WHEN ts < $4::timestamptz - interval '9 days' THEN 'T' ELSE 'S' END) ELSE 'N' END,
              CASE WHEN resp = '00' AND ts < $4::timestamptz - interval '2 days' THEN (ts AT TIME ZONE 'Asia/Shanghai')::date + 1 END,
              CASE WHEN resp = '00' AND ts < $4::timestamptz - interval '2 days' THEN 'USD' END,
              CASE WHEN resp = '00' AND ts < $4::timestamptz - interval '2 days' THEN amt END,
              CASE WHEN resp = '00' AND ts < $4::timestamptz - interval '2 days' THEN amt / 40 END
         FROM (
           SELECT g, ($5::text[])[k] AS mid, ($6::text[])[k] AS cur,
                  CASE WHEN (g / 3) % 100 < 92 THEN 'PURC' WHEN (g / 3) % 100 < 94 THEN 'VOID' WHEN (g / 3) % 100 < 95 THEN 'PAUT' WHEN (g / 3) % 100 < 96 THEN 'DECL' ELSE 'PURC' END AS typ,
                  CASE WHEN g % 100 < 91 THEN '00' WHEN g % 100 < 95 THEN '04' ELSE '05' END AS resp,
                  100 + (g::int8 * 7919) % 250000 AS amt,
                  ($7::text[])[1 + ((g::int8 * 40503) % 65521) % 10] AS br, ($8::text[])[1 + ((g::int8 * 40503) % 65521) % 10] AS ch,
                  $4::timestamptz - ((g::float8 / $3::float8) * $9::float8) * interval '1 millisecond' AS ts
             FROM (SELECT g, CASE WHEN (g / 7) % 100 < $10::int THEN $11::int
                                  ELSE 1 + ((g::int8 * 2654435761) % 4294967291) % array_length($5::text[], 1) END AS k
                     FROM generate_series($1::int, $2::int) g) gk
         ) x`,
      [start, end, o.rows, now, merIds, curs, BRANDS, CHANNELS, spanMs, o.bigShare ?? 0, merIds.indexOf(DEMO.subA) + 1],
    );
    log(`  rows ${end.toLocaleString('en')} / ${o.rows.toLocaleString('en')} (${Math.round(performance.now() - t0)} ms)`);
  }
  await db.query(`ANALYZE txn`);
  // One row in 25 becomes a refund of the (older) purchase written just after it, whose return amount it raises.
  await db.query(
    `WITH r AS (
       UPDATE txn r SET tran_type = 'REFD', origin_txn_id = p.id, origin_order_no = p.order_no, amount = least(r.amount, p.amount),
              order_amount = least(r.amount, p.amount), currency = p.currency, order_currency = p.currency, mer_id = p.mer_id,
              card_first6 = p.card_first6, card_last4 = p.card_last4, payment_schema = p.payment_schema, bus_line = p.bus_line, payment_brand = p.payment_brand
         FROM txn p
        WHERE r.source = 'generator' AND r.gw_trans_id LIKE 'B%' AND substr(r.gw_trans_id, 2)::int8 % 25 = 3
          AND p.gw_trans_id = 'B' || lpad((substr(r.gw_trans_id, 2)::int8 + 1)::text, 15, '0') AND p.tran_type = 'PURC' AND p.gw_response = '00'
        RETURNING r.origin_txn_id AS pid, r.amount AS amt, r.gw_response AS resp)
     UPDATE txn p SET return_amount = r.amt FROM r WHERE p.id = r.pid AND r.resp IN ('00', '04')`,
  );
  await db.query(`VACUUM ANALYZE txn`);
  await db.query(`ANALYZE`);
  return { merchants: merIds.length };
}

/**
 * A bench database ready for the list: migrated; when it holds no rows, the demo's foundation and
 * `rows` bench rows loaded; the day counts compacted and, on PostgreSQL, the list's index-only tables
 * vacuumed (as autovacuum would). `expect` (the rows it must hold) refuses a half-loaded one.
 */
export async function prepareBenchData(db: Db, o: { rows: number; bigShare?: number; log?: (s: string) => void; expect?: boolean }): Promise<number> {
  await migrate(db);
  const { rows: c } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM txn');
  if (o.expect !== false && c[0].n !== o.rows) {
    if (c[0].n !== 0) throw new Error(`bench database holds ${c[0].n} rows, expected 0 or ${o.rows}: remove it`);
    const t0 = performance.now();
    const { rows: m } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
    if (m[0].n === 0) await seedFoundation(db, { env: 'development' });
    await loadBenchData(db, { rows: o.rows, extraMerchants: 46, log: o.log, bigShare: o.bigShare });
    o.log?.(`  loaded in ${Math.round((performance.now() - t0) / 1000)} s`);
  }
  // The load's per-day deltas into the sums the list reads (what the server's job does every minute).
  // (Also after no move: a migration may have rewritten the sums, migration 245.)
  await compactDayCounts(db);
  if (db.kind === 'postgres') {
    // The tables the list reads index-only: their visibility map set, as autovacuum would
    // (the test server runs with autovacuum off; a never-vacuumed txn_day_count read its heap).
    await db.query('VACUUM ANALYZE txn_key');
    await db.query('VACUUM ANALYZE txn_day_count');
    // Emptied by the compaction: a deep page's jump scans it (txn.jump.ts), its dead rows gone as autovacuum would.
    await db.query('VACUUM ANALYZE txn_day_delta');
  }
  return o.expect === false ? c[0].n : o.rows;
}
