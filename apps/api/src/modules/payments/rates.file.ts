import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Code, type Language } from '@portal/contract';
import type { Db } from '../../db/db';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { fileHash } from '../../lib/crypto';
import { parseRateRow, saveRates, MAX_RATE_FILE_ROWS, type RateRow } from './rates.service';

/**
 * The daily rates file of the inbox (issue 46, docs/integration.md "Exchange rates"):
 * `<connection id>/<anything>.rates.csv` — header `date,from,to,rate` (optionally `correction`),
 * one row per pair and day, then `#END,<rows>`. Stored through saveRates (the provider API's rules:
 * idempotent by content, a changed rate only as a correction), all rows in one transaction with the
 * file's report (import_file of kind 'rates', refused rows in import_file_error with their line). A
 * file without its end marker, or whose count differs, stores nothing (it was cut short). Imported
 * again (same content), it adds nothing.
 */
export const isRatesFile = (name: string) => /\.rates\.csv$/i.test(name);
const HEADER = ['date', 'from', 'to', 'rate'];

export interface RatesFileReport {
  fileId: number;
  fileName: string;
  alreadyImported: boolean;
  rowsRead: number;
  stored: number;
  unchanged: number;
  rejected: number;
  errors: { line: number; msg: string }[];
  message: string | null;
}

export async function importRatesFile(db: Db, file: string, o: { connectionId: string; now: Date; platformTz: string; lang?: Language }): Promise<RatesFileReport> {
  const lang = o.lang ?? 'en';
  const name = path.basename(file);
  const hash = await fileHash(file);
  return db.tx(async (q) => {
    const ins = await q.query<{ id: string }>(
      `INSERT INTO import_file (file_hash, file_name, connection_id, format, kind) VALUES ($1, $2, $3, 'csv', 'rates') ON CONFLICT (file_hash) DO NOTHING RETURNING id`,
      [hash, name, o.connectionId],
    );
    if (!ins.rows[0]) {
      const { rows } = await q.query<{ id: string; rows_read: number; accepted: number; duplicate: number; rejected: number; message: string | null }>(
        'SELECT id, rows_read, accepted, duplicate, rejected, message FROM import_file WHERE file_hash = $1',
        [hash],
      );
      const f = rows[0];
      return {
        fileId: Number(f.id),
        fileName: name,
        alreadyImported: true,
        rowsRead: f.rows_read,
        stored: 0,
        unchanged: f.accepted + f.duplicate,
        rejected: f.rejected,
        errors: [],
        message: f.message,
      };
    }
    const fileId = Number(ins.rows[0].id);
    const finish = async (r: Omit<RatesFileReport, 'fileId' | 'fileName' | 'alreadyImported'>) => {
      await q.query(`UPDATE import_file SET status = $2, rows_read = $3, accepted = $4, duplicate = $5, rejected = $6, message = $7, finished_at = now(), control_ok = $8 WHERE id = $1`, [
        fileId,
        r.message && !r.stored && !r.unchanged ? 'failed' : 'done',
        r.rowsRead,
        r.stored,
        r.unchanged,
        r.rejected,
        r.message,
        r.message ? false : true,
      ]);
      for (const e of r.errors) await q.query('INSERT INTO import_file_error (file_id, line, code, msg) VALUES ($1, $2, $3, $4)', [fileId, e.line, Code.BAD_REQUEST, e.msg]);
      return { fileId, fileName: name, alreadyImported: false, ...r };
    };
    const empty = { rowsRead: 0, stored: 0, unchanged: 0, rejected: 0, errors: [] };
    let records: { record: string[]; info: { lines: number } }[];
    try {
      records = parse(fs.readFileSync(file), { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
    } catch (e) {
      return finish({ ...empty, message: `not CSV: ${(e as Error).message}` });
    }
    const header = records[0]?.record.map((h) => h.toLowerCase());
    const withCorrection = header?.length === 5 && header[4] === 'correction';
    if (!header || !HEADER.every((h, i) => header[i] === h) || (header.length !== 4 && !withCorrection)) {
      return finish({ ...empty, message: t(lang, 'fxFileHeader') });
    }
    const body = records.slice(1);
    const end = body.findIndex((r) => r.record[0] === '#END');
    const data = end < 0 ? body : body.slice(0, end);
    if (end < 0 || end !== body.length - 1 || Number(body[end].record[1]) !== data.length) {
      return finish({ ...empty, rowsRead: data.length, message: end < 0 ? 'no #END line: the file is incomplete' : `#END says ${body[end].record[1]} rows, the file has ${data.length}` });
    }
    if (data.length > MAX_RATE_FILE_ROWS) return finish({ ...empty, rowsRead: data.length, message: `more than ${MAX_RATE_FILE_ROWS} rows` });
    const parsed: (RateRow | AppError)[] = data.map(({ record }) => {
      if (record.length !== header.length) return new AppError(Code.BAD_REQUEST, 'fxRowInvalid', { detail: `${record.length} columns, the header has ${header.length}` }, 400);
      const raw: Record<string, unknown> = { date: record[0], from: record[1], to: record[2], rate: record[3] };
      if (withCorrection && record[4] !== '') raw.correction = record[4] === 'true' ? true : record[4] === 'false' ? false : record[4];
      try {
        return parseRateRow(raw, o);
      } catch (e) {
        if (e instanceof AppError) return e;
        throw e;
      }
    });
    const res = await saveRates(q, parsed, { source: 'file', ref: `file:${fileId} ${name}`.slice(0, 200), actor: { username: `gateway:${o.connectionId}` }, lang });
    return finish({
      rowsRead: data.length,
      stored: res.created + res.corrected,
      unchanged: res.unchanged,
      rejected: res.rejected,
      errors: res.results.filter((r) => r.status === 'rejected').map((r) => ({ line: data[r.index].info.lines, msg: r.msg })),
      message: null,
    });
  });
}
