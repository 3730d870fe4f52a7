/**
 * One export in a process of its own (spawned by txn.bench.ts), so its peak RSS is the export's
 * and not the benchmark's: opens the bench database, writes every matching row as CSV or XLSX to a
 * file through the server's own path (`writeSourceExport`: COPY for CSV — streamed on PostgreSQL,
 * in key ranges on PGlite —, the JS writer otherwise), prints one JSON line {rows, seconds,
 * rowsPerSec, bytes, rssBeforeMB, peakRssMB, atPeak {heapTotalMB, externalMB, arrayBuffersMB}, path} —
 * what the V8 heap and the memory it tracks held at the peak (the rest of the RSS is native). CHILD_COPY_CHUNK: rows per COPY on PGlite
 * (default COPY_CHUNK_ROWS).
 */
import fs from 'node:fs';
import { openPglite, openPostgres } from '../apps/api/src/db/db';
import { loadConfig } from '../apps/api/src/config';
import { systemClock } from '../apps/api/src/lib/clock';
import type { Deps } from '../apps/api/src/plugins/context';
import { txnExportSource } from '../apps/api/src/modules/txn/txn.exports';
import { writeSourceExport } from '../apps/api/src/modules/export/export.service';
import { COPY_CHUNK_ROWS } from '../apps/api/src/modules/export/export.copy';

const env = process.env;
const db = env.CHILD_PGLITE ? await openPglite(env.CHILD_PGLITE) : await openPostgres(env.CHILD_PG_URL!, { searchPath: env.CHILD_SCHEMA });
const deps = { config: loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1', SEED_DEMO: 'false' }), db, clock: systemClock } as unknown as Deps;
const scope = (await db.query<{ mer_id: string }>('SELECT mer_id FROM merchant')).rows.map((r) => r.mer_id);
const filter = txnExportSource.parse({ beginDate: env.CHILD_BEGIN, endDate: env.CHILD_END });
const ctx = { deps, read: db.read, lang: 'en' as const, zone: 8, scope, userId: 0 };
const format = env.CHILD_FORMAT as 'csv' | 'xlsx';
const before = process.memoryUsage().rss;
let peak = before;
let peakMem = process.memoryUsage();
const timer = setInterval(() => { const m = process.memoryUsage(); if (m.rss > peak) { peak = m.rss; peakMem = m; } }, 20);
const t0 = performance.now();
const chunk = env.CHILD_COPY_CHUNK ? { copyChunkRows: Number(env.CHILD_COPY_CHUNK) } : {};
const rows = await writeSourceExport(txnExportSource, ctx, filter, format, fs.createWriteStream(env.CHILD_FILE!, { highWaterMark: 1 << 20 }), undefined, chunk);
const seconds = (performance.now() - t0) / 1000;
const path = format === 'xlsx' ? 'js' : db.kind === 'postgres' ? 'copy' : `copy-chunks-${chunk.copyChunkRows ?? COPY_CHUNK_ROWS}`;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
const mb = (n: number) => Math.round(n / 1024 / 1024);
console.log(JSON.stringify({ rows, seconds: Math.round(seconds * 10) / 10, rowsPerSec: Math.round(rows / seconds), bytes: fs.statSync(env.CHILD_FILE!).size, rssBeforeMB: mb(before), peakRssMB: mb(peak), atPeak: { heapTotalMB: mb(peakMem.heapTotal), externalMB: mb(peakMem.external), arrayBuffersMB: mb(peakMem.arrayBuffers) }, path }));
fs.rmSync(env.CHILD_FILE!);
await db.close();
