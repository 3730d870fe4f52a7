import fs from 'node:fs';
import path from 'node:path';
import { Code } from '@portal/contract';
import type { Db } from '../../db/db';
import { fileHash } from '../gateway';
import { receiveDisputeBatch, type DisputeRowResult } from './disputes.feed';

/** The inbox's daily dispute file (issue 48): `<connection id>/*.disputes.jsonl`, one dispute row (as the provider API's) a line. */
export const isDisputesFile = (name: string): boolean => /\.disputes\.jsonl$/i.test(name);

export interface DisputesFileReport {
  fileId: number;
  fileName: string;
  alreadyImported: boolean;
  accepted: number;
  duplicate: number;
  rejected: number;
}

/**
 * Imports a dispute file: recorded once by its content hash (a file seen before is only reported),
 * each line received as a provider API row of the file's connection (its own transaction, answered
 * accepted / duplicate / rejected), the rejected lines kept with their reason.
 */
export async function importDisputesFile(db: Db, file: string, o: { connectionId: string; now: Date; platformTz: string }): Promise<DisputesFileReport> {
  const name = path.basename(file);
  const hash = await fileHash(file);
  const ins = await db.query<{ id: string }>(
    `INSERT INTO import_file (file_hash, file_name, connection_id, format, kind) VALUES ($1, $2, $3, 'jsonl', 'disputes') ON CONFLICT (file_hash) DO NOTHING RETURNING id`,
    [hash, name, o.connectionId],
  );
  if (!ins.rows[0]) {
    const { rows } = await db.query<{ id: string; accepted: number; duplicate: number; rejected: number }>('SELECT id, accepted, duplicate, rejected FROM import_file WHERE file_hash = $1', [hash]);
    return { fileId: Number(rows[0].id), fileName: name, alreadyImported: true, accepted: rows[0].accepted, duplicate: rows[0].duplicate, rejected: rows[0].rejected };
  }
  const fileId = Number(ins.rows[0].id);
  const { rows: c } = await db.query<{ merchants: string[] }>('SELECT merchants FROM gateway_connection WHERE id = $1', [o.connectionId]);
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  const rows: unknown[] = [];
  const lineOf: number[] = [];
  const bad: { line: number; msg: string }[] = [];
  for (const [i, l] of lines.entries()) {
    if (!l.trim()) continue;
    try {
      rows.push(JSON.parse(l));
      lineOf.push(i + 1);
    } catch {
      bad.push({ line: i + 1, msg: 'not a JSON object' });
    }
  }
  const out = await receiveDisputeBatch(db, rows, {
    connection: { id: o.connectionId, merchants: c[0]?.merchants ?? [] },
    by: `file:${o.connectionId}`,
    platformTz: o.platformTz,
    now: o.now,
    lang: 'en',
  });
  const errors = [...bad, ...out.results.filter((r: DisputeRowResult) => r.status === 'rejected').map((r) => ({ line: lineOf[r.index], msg: r.msg }))];
  await db.tx(async (q) => {
    for (const e of errors) await q.query('INSERT INTO import_file_error (file_id, line, code, msg) VALUES ($1, $2, $3, $4)', [fileId, e.line, Code.BAD_REQUEST, e.msg]);
    await q.query(`UPDATE import_file SET status = 'done', rows_read = $2, accepted = $3, duplicate = $4, rejected = $5, finished_at = now(), control_ok = $6 WHERE id = $1`, [
      fileId,
      rows.length + bad.length,
      out.accepted,
      out.duplicate,
      out.rejected + bad.length,
      errors.length === 0,
    ]);
  });
  return { fileId, fileName: name, alreadyImported: false, accepted: out.accepted, duplicate: out.duplicate, rejected: out.rejected + bad.length };
}
