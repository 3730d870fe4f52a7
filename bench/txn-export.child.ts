/**
 * One export in a process of its own (spawned by txn.bench.ts), so its peak RSS is the export's
 * and not the benchmark's: opens the bench database, writes every matching row as CSV or XLSX to a
 * file through the server's own path (`writeSourceExport`: COPY for CSV — streamed on PostgreSQL,
 * in key ranges on PGlite —, the JS writer otherwise), prints one JSON line {rows, seconds,
 * rowsPerSec, bytes, rssBeforeMB, peakRssMB, atPeak {heapTotalMB, externalMB, arrayBuffersMB}, path} —
 * what the V8 heap and the memory it tracks held at the peak (the rest of the RSS is native). CHILD_COPY_CHUNK: rows per COPY on PGlite
 * (default COPY_CHUNK_ROWS).
 *
 * CHILD_WARM=1: before "idle" is read, the process first does what a server that has served a
 * while has done — one small export of the same kind (the newest WARM_ROWS rows, written to
 * nowhere) — and waits until its RSS settles. On PGlite that first work makes V8 compile PGlite's
 * hottest WebAssembly function with its optimising compiler, which needs about 600 MB of compiler
 * memory for about 1.5 s, once per process (docs/performance.md, "target 7"); the warm figure is
 * the export's own cost, the cold one includes that compilation.
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { openPglite, openPostgres } from '../apps/api/src/db/db';
import { loadConfig } from '../apps/api/src/config';
import { systemClock } from '../apps/api/src/lib/clock';
import type { Deps } from '../apps/api/src/plugins/context';
import { txnExportSource } from '../apps/api/src/modules/txn/txn.exports';
import { writeSourceExport } from '../apps/api/src/modules/export/export.service';
import { COPY_CHUNK_ROWS } from '../apps/api/src/modules/export/export.copy';

const env = process.env;
const db = env.CHILD_PGLITE ? await openPglite(env.CHILD_PGLITE) : await openPostgres(env.CHILD_PG_URL!, { searchPath: env.CHILD_SCHEMA });
const deps = {
  config: loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: 'smtp://127.0.0.1:25',
    ACQUIRER: 'sandbox',
    ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' /* the bench measures the portal, not a gateway */,
    SEED_DEMO: 'false',
  }),
  db,
  clock: systemClock,
} as unknown as Deps;
const scope = (await db.query<{ mer_id: string }>('SELECT mer_id FROM merchant')).rows.map((r) => r.mer_id);
const filter = txnExportSource.parse({ beginDate: env.CHILD_BEGIN, endDate: env.CHILD_END });
const ctx = { deps, read: db.read, lang: 'en' as const, zone: 8, scope, userId: 0 };
const format = env.CHILD_FORMAT as 'csv' | 'xlsx';
const chunk = env.CHILD_COPY_CHUNK ? { copyChunkRows: Number(env.CHILD_COPY_CHUNK) } : {};
const WARM_ROWS = 10_000;
let warm: { rows: number; peakRssMB: number; settleMs: number } | null = null;
if (env.CHILD_WARM === '1') {
  let warmPeak = process.memoryUsage().rss;
  const sample = setInterval(() => (warmPeak = Math.max(warmPeak, process.memoryUsage().rss)), 20);
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  const newest = { ...filter, ...(await newestDay(filter)) };
  const n = await writeSourceExport(txnExportSource, ctx, newest, format, sink, undefined, chunk);
  // Settled: three readings 500 ms apart within 2 % (V8's compiler threads have let go).
  const t = performance.now();
  const readings = [process.memoryUsage().rss];
  while (performance.now() - t < 20_000) {
    await new Promise((r) => setTimeout(r, 500));
    readings.push(process.memoryUsage().rss);
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) / Math.min(...last) < 1.02) break;
  }
  clearInterval(sample);
  warm = { rows: n, peakRssMB: Math.round(warmPeak / 1048576), settleMs: Math.round(performance.now() - t) };
}
const before = process.memoryUsage().rss;
let peak = before;
let peakMem = process.memoryUsage();
const timer = setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peak) {
    peak = m.rss;
    peakMem = m;
  }
}, 20);
const t0 = performance.now();
const rows = await writeSourceExport(txnExportSource, ctx, filter, format, fs.createWriteStream(env.CHILD_FILE!, { highWaterMark: 1 << 20 }), undefined, chunk);
const seconds = (performance.now() - t0) / 1000;
const path = format === 'xlsx' ? 'js' : db.kind === 'postgres' ? 'copy' : `copy-chunks-${chunk.copyChunkRows ?? COPY_CHUNK_ROWS}`;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
const mb = (n: number) => Math.round(n / 1024 / 1024);
console.log(
  JSON.stringify({
    rows,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSec: Math.round(rows / seconds),
    bytes: fs.statSync(env.CHILD_FILE!).size,
    rssBeforeMB: mb(before),
    peakRssMB: mb(peak),
    atPeak: { heapTotalMB: mb(peakMem.heapTotal), externalMB: mb(peakMem.external), arrayBuffersMB: mb(peakMem.arrayBuffers) },
    path,
    warm,
  }),
);
fs.rmSync(env.CHILD_FILE!);
await db.close();

/** The filter narrowed to the newest day holding about WARM_ROWS rows (at least one day). */
async function newestDay(f: { beginDate?: string; endDate?: string }): Promise<{ beginDate: string }> {
  const { rows } = await db.query<{ t: string }>(
    `SELECT to_char(txn_time AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS t FROM txn
      WHERE txn_time <= $1 ORDER BY txn_time DESC LIMIT 1 OFFSET ${WARM_ROWS - 1}`,
    [new Date(Date.parse(f.endDate!.replace(' ', 'T') + '+08:00'))],
  );
  return { beginDate: rows[0]?.t ?? f.beginDate! };
}
