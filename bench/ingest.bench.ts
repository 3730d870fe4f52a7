/**
 * Gateway feed benchmark (issue 25), on PostgreSQL:
 *   1. API: signed batches of BENCH_INGEST_BATCH (500) transactions POSTed to /provider/v1/transactions
 *      of a real server on loopback, at 1 and 4 concurrent connections, BENCH_INGEST_BATCHES batches
 *      each → transactions/s and p95 per batch;
 *   2. raw: the same number of rows written by one multi-row INSERT per batch (VALUES of 500 rows),
 *      on the same schema and indexes, at the same concurrency → transactions/s, p95. Target: API ≥ 0.5× raw;
 *      and the floor: that INSERT into an unindexed table of txn's columns. Target: API ≥ 0.3× the floor (issue 52).
 *   3. file: a CSV of BENCH_INGEST_FILE_ROWS rows (default 200,000; the issue's figure is 1,000,000)
 *      imported through `importFile` → rows/s and peak RSS against the idle RSS (target ≤ 1.5×).
 * Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else DATABASE_URL, else this machine's
 * (postgres://root@127.0.0.1:5432/test); a throw-away schema.
 * Prints the figures; writes bench-results/ingest.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openPostgres } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createMailer } from '../apps/api/src/plugins/mail';
import { systemClock } from '../apps/api/src/lib/clock';
import { addConnection, addKey } from '../apps/api/src/modules/gateway/gateway.service';
import { sign } from '../apps/api/src/modules/gateway/gateway.crypto';
import { toIngestInput } from '../apps/api/src/modules/gateway/feed.service';
import { importFile } from '../apps/api/src/modules/gateway/import.service';
import { shapeRow } from '../apps/api/src/modules/payments/ingest.validate';
import { TXN_COLUMNS } from '../apps/api/src/modules/payments/ingest.types';
import { ensureMonthsOf } from '../apps/api/src/db/partitions';
import { pct } from './measure';
import { BENCH_PG_URL, benchPort, check, checkHttp, loadAverage, pgAnswers } from './check';

const BATCH = Number(process.env.BENCH_INGEST_BATCH ?? 500);
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 16);
const FILE_ROWS = Number(process.env.BENCH_INGEST_FILE_ROWS ?? 200_000);
const RESULTS = path.resolve(import.meta.dirname, '../bench-results');
const TZ = 'Asia/Shanghai';
const r1 = (x: number) => Math.round(x * 10) / 10;

let seq = 0;
const day = new Date();
function row(prefix: string): Record<string, unknown> {
  const n = `${prefix}${(seq++).toString(36)}`;
  return {
    gwGTransId: `GW-${n}`,
    clientid: DEMO.group,
    orderNum: `B-${n}`,
    gwTranType: 'PURC',
    gwResponse: '00',
    gwAmount: `${(seq % 9000) + 1}.25`,
    gwCurrency: 'HKD',
    paymentSchema: 'CARD',
    paymentBrand: 'visa',
    currentTime: day.toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

export default async function run() {
  const url = process.env.DATABASE_URL && !process.env.BENCH_DATABASE_URL && !process.env.TEST_DATABASE_URL ? process.env.DATABASE_URL : BENCH_PG_URL;
  const missing = await pgAnswers(url);
  if (missing) {
    console.log(`ingest bench: skipped — ${missing}`);
    return;
  }
  const schema = `bench_ingest_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(url, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await openPostgres(url, { searchPath: schema, max: 12 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  try {
    await migrate(db);
    await seedFoundation(db, { env: 'development' });
    const config = { ...loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), seedDemo: false };
    await addConnection(db, { id: 'bench', name: 'Bench gateway', merchants: [DEMO.group] }, 'bench');
    const key = await addKey(db, config, 'bench', 'bench');
    await ensureMonthsOf(db, 'txn', [Date.now()]);
    const app = await buildApp({ config, db, clock: systemClock, mailer: createMailer({ outboxDir: path.join(dataDir, 'outbox'), from: config.mailFrom }) });
    const base = await app.listen({ port: benchPort(), host: '127.0.0.1' });

    const apiBatch = async (): Promise<number> => {
      const body = JSON.stringify({ transactions: Array.from({ length: BATCH }, () => row('a')) });
      const ts = String(Math.floor(Date.now() / 1000));
      const p = '/provider/v1/transactions';
      const t0 = performance.now();
      const res = await fetch(base + p, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-gateway-key-id': key.keyId, 'x-gateway-timestamp': ts, 'x-gateway-signature': sign(key.secret, ts, 'POST', p, body) },
      });
      const text = await res.text();
      const t = performance.now() - t0;
      // Every row of the batch accepted, or the call failed.
      if (checkHttp(res.status, text, 'POST /provider/v1/transactions')) {
        const j = JSON.parse(text) as { data?: { accepted: number } };
        check(j.data?.accepted === BATCH, () => `batch not accepted: ${text.slice(0, 300)}`);
      }
      return t;
    };
    const cols = TXN_COLUMNS.map(([c]) => c);
    const rawBatch =
      (table = 'txn') =>
      async (): Promise<number> => {
        const rows = Array.from({ length: BATCH }, () => shapeRow(toIngestInput(row('r'), { platformTz: TZ }), { platformTz: TZ }));
        const params: unknown[] = [];
        const values = rows.map(
          (r) =>
            `(${TXN_COLUMNS.map(([c, type]) => {
              params.push(r[c]);
              return c === 'txn_time' ? `to_timestamp($${params.length}::float8 / 1000)` : `$${params.length}::${type}`;
            }).join(', ')})`,
        );
        const t0 = performance.now();
        const r = await db.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}`, params);
        const t = performance.now() - t0;
        check(r.rowCount === BATCH, () => `raw INSERT wrote ${r.rowCount} of ${BATCH} rows`);
        return t;
      };
    const measure = async (fn: () => Promise<number>, conc: number) => {
      const times: number[] = [];
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: conc }, async () => {
          for (let i = 0; i < BATCHES / conc; i++) times.push(await fn());
        }),
      );
      const secs = (performance.now() - t0) / 1000;
      return { txnPerSec: Math.round((times.length * BATCH) / secs), p95Ms: r1(pct(times, 95)), batches: times.length };
    };
    // The floor (issue 52): the same multi-row INSERT into a table of txn's columns with no index,
    // constraint or partition — what PostgreSQL takes at the least for these rows.
    await db.exec('CREATE TABLE txn_floor (LIKE txn INCLUDING DEFAULTS)');
    await apiBatch(); // warm-up
    await rawBatch()();
    await rawBatch('txn_floor')();
    const out: Record<string, unknown> = { batch: BATCH, batches: BATCHES };
    for (const conc of [1, 4]) {
      // Alternating sides so drift of the machine falls on all three.
      const api = await measure(apiBatch, conc);
      const raw = await measure(rawBatch(), conc);
      const floor = await measure(rawBatch('txn_floor'), conc);
      const ratio = api.txnPerSec / raw.txnPerSec;
      const ofFloor = api.txnPerSec / floor.txnPerSec;
      out[`conc${conc}`] = { api, raw, floor, ratio: r1(ratio * 100) / 100, ofFloor: r1(ofFloor * 100) / 100 };
      const goals = conc === 4 ? `  goals at 4: ≥ 0.5× raw ${ratio >= 0.5 ? 'met' : 'MISSED'}, ≥ 0.3× the floor ${ofFloor >= 0.3 ? 'met' : 'MISSED'}` : '';
      console.log(
        `conc ${conc}: API ${api.txnPerSec} txn/s (p95 ${api.p95Ms} ms per batch) · raw INSERT ${raw.txnPerSec} txn/s (p95 ${raw.p95Ms} ms) · unindexed INSERT ${floor.txnPerSec} txn/s · API/raw ${ratio.toFixed(2)} · API/floor ${ofFloor.toFixed(2)}${goals}  (load average ${loadAverage()})`,
      );
    }
    await app.close();

    // The file: written streaming, imported streaming; RSS sampled every 100 ms.
    const file = path.join(dataDir, 'day.csv');
    const w = fs.createWriteStream(file);
    const COLS = ['gwGTransId', 'clientid', 'orderNum', 'gwTranType', 'gwResponse', 'gwAmount', 'gwCurrency', 'paymentSchema', 'paymentBrand', 'currentTime'];
    w.write(COLS.join(',') + '\n');
    let sum = 0n;
    for (let i = 0; i < FILE_ROWS; i++) {
      const r = row('f');
      sum += BigInt(Math.round(Number(r.gwAmount) * 100));
      if (!w.write(COLS.map((c) => String(r[c])).join(',') + '\n')) await new Promise((res) => w.once('drain', res));
    }
    const d = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    w.end(`#TOTAL,${d},HKD,PURC,${FILE_ROWS},${sum / 100n}.${String(sum % 100n).padStart(2, '0')}\n#END,${FILE_ROWS}\n`);
    await new Promise((res) => w.on('finish', res));
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const t0 = performance.now();
    const rep = await importFile(db, file, { connectionId: 'bench', platformTz: TZ });
    check(rep.accepted === FILE_ROWS && !!rep.controlOk, () => `file import: ${rep.accepted} of ${FILE_ROWS} rows accepted, control ${rep.controlOk ? 'ok' : 'NOT ok'}`);
    const secs = (performance.now() - t0) / 1000;
    clearInterval(timer);
    out.file = {
      rows: FILE_ROWS,
      accepted: rep.accepted,
      rowsPerSec: Math.round(FILE_ROWS / secs),
      idleRssMb: Math.round(idle / 2 ** 20),
      peakRssMb: Math.round(peak / 2 ** 20),
      peakOverIdle: r1((peak / idle) * 100) / 100,
      controlOk: rep.controlOk,
    };
    console.log(
      `file: ${FILE_ROWS} rows in ${secs.toFixed(1)} s → ${Math.round(FILE_ROWS / secs)} rows/s; RSS idle ${Math.round(idle / 2 ** 20)} MiB, peak ${Math.round(peak / 2 ** 20)} MiB (${(peak / idle).toFixed(2)}×); accepted ${rep.accepted}, control ${rep.controlOk ? 'ok' : 'NOT ok'}`,
    );
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'ingest.json'), JSON.stringify(out, null, 2));
  } finally {
    await db.close();
    await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
