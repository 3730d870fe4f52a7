import path from 'node:path';
import { Code, toDecimal, toMinor } from '@portal/contract';
import type { Db } from '../../db/db';
import { audit } from '../../lib/audit';
import { platformDate } from '../../lib/zone';
import { countRows, receiveRows, toIngestInput, type BatchAnswer, type FeedWindow } from './feed.service';
import type { Connection } from './gateway.service';
import { fileHash } from '../../lib/crypto';
import { formatOf, itemsOf, type ControlTotal, type Item } from './import.items';

export { formatOf, type ControlTotal } from './import.items';

/**
 * Daily transaction files (issue 25 §1, docs/integration.md "File layout"): CSV with a header row,
 * or JSON lines; after the rows, control totals (`#TOTAL` rows / `{"type":"total"}` lines) and an
 * end marker with the row count. Streamed — never the whole file in memory — and written in chunks
 * through the provider feed (`receiveRows`: the one ingestion path, idempotent by gateway id), each
 * chunk committed together with the file's progress (last line). The file is known by the SHA-256
 * of its content: imported again, it adds nothing; an import cut short resumes after the last
 * committed line.
 */

export interface ImportOptions {
  connectionId: string;
  platformTz: string;
  now?: Date;
  /** The accepted currentTime window (PROVIDER_FEED_DAYS_BACK / _AHEAD), as the API's. */
  window?: FeedWindow;
  /** Rows per committed chunk (1,000 by default). */
  chunkSize?: number;
  /** Called after each committed chunk (tests simulate a crash here). */
  afterChunk?: (lastLine: number) => Promise<void> | void;
}

export interface ImportError {
  line: number;
  gwGTransId: string | null;
  code: number;
  msg: string;
}

export interface ImportReport {
  fileId: number;
  fileName: string;
  format: 'csv' | 'jsonl';
  status: 'running' | 'done' | 'failed';
  /** The file had been imported in full before: nothing was done. */
  alreadyImported: boolean;
  /** The line an interrupted import resumed after (0: from the start). */
  resumedAfterLine: number;
  rowsRead: number;
  accepted: number;
  duplicate: number;
  rejected: number;
  /** The first 100 refused rows (all are in import_file_error). */
  errors: ImportError[];
  control: ControlTotal[] | null;
  /** The file's rows add up to its trailer (count and sum per day, currency and type, and the end count). */
  controlOk: boolean | null;
  message: string | null;
}

interface FileRow {
  id: number;
  file_name: string;
  format: 'csv' | 'jsonl';
  status: 'running' | 'done' | 'failed';
  last_line: number;
  rows_read: number;
  accepted: number;
  duplicate: number;
  rejected: number;
  control: ControlTotal[] | null;
  control_ok: boolean | null;
  message: string | null;
}

async function report(db: Db, f: FileRow, o: { alreadyImported: boolean; resumedAfterLine: number }): Promise<ImportReport> {
  const { rows } = await db.query<{ line: number; gw_trans_id: string | null; code: number; msg: string }>(
    'SELECT line, gw_trans_id, code, msg FROM import_file_error WHERE file_id = $1 ORDER BY line LIMIT 100',
    [f.id],
  );
  return {
    fileId: Number(f.id),
    fileName: f.file_name,
    format: f.format,
    status: f.status,
    ...o,
    rowsRead: f.rows_read,
    accepted: f.accepted,
    duplicate: f.duplicate,
    rejected: f.rejected,
    errors: rows.map((r) => ({ line: r.line, gwGTransId: r.gw_trans_id, code: r.code, msg: r.msg })),
    control: f.control,
    controlOk: f.control_ok,
    message: f.message,
  };
}

/** Imports one file for a connection (see the module comment). */
export async function importFile(db: Db, file: string, o: ImportOptions): Promise<ImportReport> {
  const format = formatOf(file);
  if (!format) throw new Error(`${file}: a .csv or .jsonl file expected`);
  const { rows: conns } = await db.query<Connection>('SELECT id, name, merchants, enabled FROM gateway_connection WHERE id = $1', [o.connectionId]);
  const conn = conns[0];
  if (!conn) throw new Error(`no gateway connection ${o.connectionId}`);
  if (!conn.enabled) throw new Error(`gateway connection ${o.connectionId} is disabled`);
  const hash = await fileHash(file);
  const name = path.basename(file);
  await db.query('INSERT INTO import_file (file_hash, file_name, connection_id, format) VALUES ($1, $2, $3, $4) ON CONFLICT (file_hash) DO NOTHING', [hash, name, conn.id, format]);
  const { rows: files } = await db.query<FileRow & { connection_id: string }>('SELECT * FROM import_file WHERE file_hash = $1', [hash]);
  const f = files[0];
  if (f.connection_id !== conn.id) throw new Error(`${name} was imported for connection ${f.connection_id}`);
  if (f.status === 'done') return report(db, f, { alreadyImported: true, resumedAfterLine: 0 });
  const resumedAfterLine = f.last_line;
  const chunkSize = o.chunkSize ?? 1000;
  let chunk: Extract<Item, { kind: 'row' | 'bad' }>[] = [];
  const own = new Map<string, { count: number; sum: bigint; currency: string }>();
  const totals: ControlTotal[] = [];
  let endCount: number | null = null;
  let dataRows = 0;
  const problems: string[] = [];

  const flush = async () => {
    if (!chunk.length) return;
    const items = chunk;
    chunk = [];
    const rowItems = items.filter((i): i is Extract<Item, { kind: 'row' }> => i.kind === 'row');
    let committed: BatchAnswer | null = null;
    await db.tx(async (q) => {
      const ans = (committed = rowItems.length
        ? await receiveRows(
            q,
            conn,
            rowItems.map((i) => i.raw),
            { platformTz: o.platformTz, now: o.now, window: o.window, source: 'file' },
          )
        : null);
      const errors: ImportError[] = [];
      for (const i of items) if (i.kind === 'bad') errors.push({ line: i.line, gwGTransId: null, code: Code.BAD_REQUEST, msg: i.msg });
      ans?.results.forEach((r, k) => {
        if (r.status === 'rejected') errors.push({ line: rowItems[k].line, gwGTransId: r.gwGTransId, code: r.code, msg: r.msg });
      });
      if (errors.length) {
        await q.query(
          `INSERT INTO import_file_error (file_id, line, gw_trans_id, code, msg) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[], $5::text[])
           ON CONFLICT (file_id, line) DO UPDATE SET gw_trans_id = excluded.gw_trans_id, code = excluded.code, msg = excluded.msg`,
          [f.id, errors.map((e) => e.line), errors.map((e) => e.gwGTransId), errors.map((e) => e.code), errors.map((e) => e.msg)],
        );
      }
      await q.query(`UPDATE import_file SET last_line = $2, rows_read = rows_read + $3, accepted = accepted + $4, duplicate = duplicate + $5, rejected = rejected + $6 WHERE id = $1`, [
        f.id,
        items[items.length - 1].line,
        items.length,
        ans?.accepted ?? 0,
        ans?.duplicate ?? 0,
        (ans?.rejected ?? 0) + items.filter((i) => i.kind === 'bad').length,
      ]);
    });
    // /metrics (issue 46): the chunk's rows once committed, its unreadable lines as rejected too.
    countRows(committed ?? { results: [] }, 'file', items.length - rowItems.length);
    await o.afterChunk?.(items[items.length - 1].line);
  };

  try {
    for await (const item of itemsOf(file, format)) {
      if (item.kind === 'total') {
        totals.push(item.t);
        continue;
      }
      if (item.kind === 'end') {
        endCount = item.count;
        continue;
      }
      dataRows++;
      if (item.kind === 'row') addOwn(own, item.raw, o.platformTz);
      if (item.line <= resumedAfterLine) continue;
      chunk.push(item);
      if (chunk.length >= chunkSize) await flush();
    }
    await flush();
  } catch (err) {
    await db.query(`UPDATE import_file SET status = 'failed', message = $2 WHERE id = $1 AND status = 'running'`, [f.id, (err as Error).message.slice(0, 500)]);
    throw err;
  }
  // The trailer: the file's own successful rows must add up to it, and the end count to its rows.
  if (endCount === null) problems.push('no end marker (#END): the file may be incomplete');
  else if (endCount !== dataRows) problems.push(`end marker says ${endCount} rows, the file has ${dataRows}`);
  if (!totals.length) problems.push('no control totals');
  for (const t of totals) {
    const mine = own.get(`${t.date}|${t.currency}|${t.tranType}`);
    const sum = BigInt(toMinor(t.sum, t.currency));
    if (!mine || mine.count !== t.count || mine.sum !== sum) {
      problems.push(`control total ${t.date} ${t.currency} ${t.tranType}: trailer ${t.count} / ${t.sum}, rows ${mine?.count ?? 0} / ${toDecimal(mine?.sum ?? 0n, t.currency)}`);
    }
  }
  for (const [k, v] of own) {
    const [d, c, ty] = k.split('|');
    if (!totals.some((t) => t.date === d && t.currency === c && t.tranType === ty)) problems.push(`no control total for ${d} ${c} ${ty} (rows ${v.count} / ${toDecimal(v.sum, c)})`);
  }
  const controlOk = problems.length === 0;
  await db.tx(async (q) => {
    if (totals.length) {
      await q.query(
        `INSERT INTO gateway_control_total (connection_id, txn_date, currency, tran_type, txn_count, amount, source)
         SELECT $1, * FROM unnest($2::date[], $3::text[], $4::text[], $5::int[], $6::int8[], $7::text[])
         ON CONFLICT (connection_id, txn_date, currency, tran_type) DO UPDATE SET txn_count = excluded.txn_count, amount = excluded.amount, source = excluded.source, received_at = now()`,
        [
          conn.id,
          totals.map((t) => t.date),
          totals.map((t) => t.currency),
          totals.map((t) => t.tranType),
          totals.map((t) => t.count),
          totals.map((t) => toMinor(t.sum, t.currency)),
          totals.map(() => `file:${f.id}`),
        ],
      );
    }
    await q.query(`UPDATE import_file SET status = 'done', control = $2, control_ok = $3, message = $4, finished_at = now() WHERE id = $1`, [
      f.id,
      JSON.stringify(totals),
      controlOk,
      problems.length ? problems.join('; ').slice(0, 2000) : null,
    ]);
    await audit(q, { action: 'gateway.import', username: `gateway:${conn.id}`, target: name, detail: { fileId: Number(f.id), hash, controlOk } });
  });
  const { rows: done } = await db.query<FileRow>('SELECT * FROM import_file WHERE id = $1', [f.id]);
  return report(db, done[0], { alreadyImported: false, resumedAfterLine });
}

/** Adds a row to the file's own successful totals (rows that cannot be read count nowhere). */
function addOwn(own: Map<string, { count: number; sum: bigint; currency: string }>, raw: Record<string, unknown>, tz: string): void {
  try {
    const i = toIngestInput(raw, { platformTz: tz });
    if (i.gwResponse !== '00') return;
    const k = `${platformDate(i.txnTime, tz)}|${i.currency}|${i.tranType}`;
    const cur = own.get(k) ?? { count: 0, sum: 0n, currency: i.currency };
    cur.count++;
    cur.sum += BigInt(i.amount * (i.amountSign ?? 1));
    own.set(k, cur);
  } catch {
    // refused rows are in the report
  }
}
