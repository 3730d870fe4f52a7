/** The files of a backup: DATA_DIR copied (the PGlite database aside), the files the rows refer to, counted. */
import fs from 'node:fs';
import path from 'node:path';
import { pgliteLockFile } from '../db/db';

/** The DATA_DIR entries that are files to keep (everything but the PGlite database itself). */
export const SKIP = new Set(['pg', path.basename(pgliteLockFile('pg'))]);

export function copyFiles(from: string, to: string): { count: number; bytes: number } {
  if (!fs.existsSync(from)) return { count: 0, bytes: 0 };
  fs.mkdirSync(to, { recursive: true });
  copyTree(from, to, true);
  return tally(to);
}

/**
 * Copies a folder file by file. The server may be writing while a PostgreSQL backup runs: a file
 * removed meanwhile (an export deleted) is skipped, and a file still being written (`*.tmp`, renamed
 * into place when complete) is left out.
 */
function copyTree(from: string, to: string, top = false) {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const e of entries) {
    if (top && SKIP.has(e.name)) continue;
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.isDirectory()) copyTree(src, dst);
    else if (e.isFile() && !e.name.endsWith('.tmp')) {
      try {
        fs.copyFileSync(src, dst);
        const st = fs.statSync(src);
        fs.utimesSync(dst, st.atime, st.mtime);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
}

/**
 * The files rows refer to, relative to DATA_DIR: merchant documents (statements, fee schedules),
 * notice attachments, pay-by-link attachments and ready export files. A restored database must find
 * each of them under DATA_DIR (tables absent from an older schema are left out).
 */
export async function referencedFiles(q: { query<T>(sql: string): Promise<{ rows: T[] }> }): Promise<string[]> {
  const { rows: have } = await q.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname IN ('merchant_document', 'notice_attachment', 'pay_by_link_attachment', 'export_file')`,
  );
  const t = new Set(have.map((r) => r.t));
  const parts = [
    t.has('merchant_document') ? 'SELECT file_path AS p FROM merchant_document' : '',
    t.has('notice_attachment') ? 'SELECT file_path FROM notice_attachment' : '',
    t.has('pay_by_link_attachment') ? `SELECT 'files/' || storage_path FROM pay_by_link_attachment` : '',
    t.has('export_file') ? `SELECT 'files/exports/' || path FROM export_file WHERE status = 'ready' AND deleted_at IS NULL AND path IS NOT NULL` : '',
  ].filter(Boolean);
  if (!parts.length) return [];
  const { rows } = await q.query<{ p: string }>(parts.join(' UNION ') + ' ORDER BY 1');
  return rows.map((r) => path.normalize(r.p));
}

/** A path of `rel` inside `root`, or null when the row's path would leave it. */
function inside(root: string, rel: string): string | null {
  const abs = path.resolve(root, rel);
  return abs.startsWith(path.resolve(root) + path.sep) ? abs : null;
}

/**
 * Makes sure every referenced file is in the backup's files/: one that was not there at the first
 * copy (written between that copy and the snapshot) is copied now. Returns the ones DATA_DIR does
 * not have either.
 */
export function completeReferenced(dataDir: string, filesOut: string, referenced: string[]): string[] {
  const missing: string[] = [];
  for (const rel of referenced) {
    const to = inside(filesOut, rel);
    const from = inside(dataDir, rel);
    if (!to || !from) {
      missing.push(rel);
      continue;
    }
    if (fs.existsSync(to)) continue;
    try {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    } catch {
      missing.push(rel);
    }
  }
  return missing;
}

/** Count and bytes of the files under `dir`. */
export function tally(dir: string): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        count++;
        bytes += fs.statSync(p).size;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return { count, bytes };
}
