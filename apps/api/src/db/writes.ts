/**
 * Which statements write, and who hears of it: the session cache (plugins/auth) empties itself on a
 * write to an auth table, and replica routing (replica.ts) pins a session to the primary after one.
 */

/** Statements that do not change data (our code has no SELECT of a writing function). */
const READ_FIRST_WORD = /^\s*(?:select|show|explain)\b/i;
/** A WITH query reads unless one of its parts writes (a word in a string may count as a write: the safe side). */
const WITH_QUERY = /^\s*with\b/i;
const WRITE_WORD = /\b(?:insert|update|delete|merge|truncate)\b/i;
const READ_ONLY = { test: (sql: string) => READ_FIRST_WORD.test(sql) || (WITH_QUERY.test(sql) && !WRITE_WORD.test(sql)) };

export type WriteListener = (sql: string, rowCount?: number) => void;

/**
 * The write-listener half of a Db: statements outside a transaction report at once, inside one at
 * commit. The row count is the statement's (undefined for `exec`, which runs several).
 */
export function writeNotifier() {
  const listeners = new Set<WriteListener>();
  const emit = (writes: [string, number | undefined][]) => {
    for (const [sql, n] of writes) for (const l of listeners) l(sql, n);
  };
  return {
    onWrite(listener: WriteListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** After a statement outside any transaction. */
    ran(sql: string, rowCount?: number) {
      if (listeners.size && !READ_ONLY.test(sql)) emit([[sql, rowCount]]);
    },
    /** Collects a transaction's writes; `flush` reports them (after COMMIT). */
    collector() {
      const seen: [string, number | undefined][] = [];
      return {
        ran(sql: string, rowCount?: number) {
          if (listeners.size && !READ_ONLY.test(sql)) seen.push([sql, rowCount]);
        },
        flush: () => emit(seen),
      };
    },
  };
}
