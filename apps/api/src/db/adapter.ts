/** What the PGlite and PostgreSQL adapters share: the type parsers' oids, the row count, the read handle without a replica. */
import type { Db, Reader } from './types';

// int8 → number (minor units stay far below 2^53), numeric and date → string (no float, no local midnight).
export const INT8 = 20;
export const NUMERIC = 1700;
export const DATE = 1082;

/** A Db's read handle when there is no replica: its own statements, always on the primary. */
function selfReader(db: Omit<Db, 'read'>): Reader {
  const reader: Reader = {
    kind: db.kind,
    query: db.query,
    target: () => 'primary',
    copyOut: db.copyOut,
    copyBlob: db.copyBlob,
    caughtUp: async () => reader,
  };
  return reader;
}

export function rowCountOf(r: { affectedRows?: number; rows: unknown[] }): number {
  return r.affectedRows ?? r.rows.length;
}

export function withSelfReader(db: Omit<Db, 'read'>): Db {
  return Object.assign(db, { read: selfReader(db) });
}
