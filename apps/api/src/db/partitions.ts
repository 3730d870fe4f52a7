import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db, Queryable } from './db';

/**
 * Monthly partitions of the ledgers that grow without bound (decision 028): `txn` by `txn_time`,
 * `audit_log` by `at`. Months are those of the partition zone (UTC+8), named `<table>_pYYYYMM`.
 */
export const PARTITIONED = ['txn', 'audit_log'] as const;
export type PartitionedTable = (typeof PARTITIONED)[number];

/** How many months past the current one the job runner keeps created. */
const MONTHS_AHEAD = 3;

const ZONE_OFFSET_MS = 8 * 3_600_000;

/** The partition (`txn_p202611`) that holds an instant. */
export function partitionName(table: PartitionedTable, at: Date | number): string {
  const d = new Date(+at + ZONE_OFFSET_MS);
  return `${table}_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Creates the missing months of `table` from the month of `lo` to that of `hi` (both included) and
 * returns how many it created. Costs one catalogue look-up per month when they exist. Creating a
 * month locks the parent table until the caller's transaction ends, so callers in the request path
 * only reach it for a month nobody created ahead (a back-dated import, a test's fixed date).
 */
export async function ensureMonths(q: Queryable, table: PartitionedTable, lo: Date | number, hi: Date | number = lo): Promise<number> {
  const { rows } = await q.query<{ made: number }>('SELECT month_partitions_ensure($1::regclass, $2::timestamptz, $3::timestamptz) AS made', [
    table,
    new Date(+lo).toISOString(),
    new Date(+hi).toISOString(),
  ]);
  return rows[0].made;
}

const known = new WeakMap<object, Set<string>>();

/**
 * Makes sure the months holding `times` exist before rows are written there — once per month for
 * each database handle or transaction (`q`): the first write of a month on a handle asks the
 * database (one catalogue look-up; creates the month if the job runner has not), later ones do not.
 * Creating a month inside a transaction locks the whole ledger until that transaction ends: a
 * writer of many rows over past months (the demo generator, an import) makes its range first
 * with `ensureMonths` on the database itself, outside its transactions.
 */
export async function ensureMonthsOf(q: Queryable, table: PartitionedTable, times: Iterable<Date | number>): Promise<void> {
  let seen = known.get(q);
  if (!seen) known.set(q, (seen = new Set()));
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of times) {
    const name = partitionName(table, t);
    if (seen.has(name)) continue;
    lo = Math.min(lo, +t);
    hi = Math.max(hi, +t);
  }
  if (lo === Infinity) return;
  await ensureMonths(q, table, lo, hi);
  for (let m = monthStart(lo); m <= hi; m = nextMonth(m)) seen.add(partitionName(table, m));
}

/** The first instant of the partition-zone month holding `t`. */
function monthStart(t: number): number {
  const d = new Date(t + ZONE_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - ZONE_OFFSET_MS;
}

function nextMonth(start: number): number {
  const d = new Date(start + ZONE_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - ZONE_OFFSET_MS;
}

/** The recurring job's work: every partitioned table has this month and the next MONTHS_AHEAD. */
export async function ensureAhead(q: Queryable, now: Date): Promise<number> {
  // Counted in months of the partition zone, from the first instant of this one: adding months to
  // the date itself overflows on the 29th–31st (29 November + 3 months = 1 March).
  let hi = monthStart(+now);
  for (let i = 0; i < MONTHS_AHEAD; i++) hi = nextMonth(hi);
  let made = 0;
  for (const t of PARTITIONED) made += await ensureMonths(q, t, now, hi);
  return made;
}

/**
 * The months of the provider feed's window back from `now` (issue 47: PROVIDER_FEED_DAYS_BACK): the
 * feed writes only into months that exist and never creates one, so the partition job makes them.
 */
export async function ensureFeedWindow(q: Queryable, now: Date, daysBack: number): Promise<number> {
  return ensureMonths(q, 'txn', +now - daysBack * 86_400_000, now);
}

export interface MonthPartition {
  name: string;
  from: Date;
  to: Date;
}

/** The months a table has, oldest first, with their bounds. */
export async function listMonths(q: Queryable, table: PartitionedTable): Promise<MonthPartition[]> {
  const { rows } = await q.query<{ name: string; from: Date | string; to: Date | string }>(
    `SELECT name, b[1]::timestamptz AS "from", b[2]::timestamptz AS "to"
       FROM (SELECT c.relname AS name, regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)') AS b
               FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = $1::regclass) p
      ORDER BY "from"`,
    [table],
  );
  return rows.map((r) => ({ name: r.name, from: new Date(r.from), to: new Date(r.to) }));
}

/**
 * Detaches one month of `table` for archiving (`month`: 'YYYY-MM'). The month becomes an ordinary
 * table of the same name: copy it out (COPY … TO) and drop it, or move it to cheaper storage;
 * `ALTER TABLE … ATTACH PARTITION` brings it back. `DETACH … CONCURRENTLY` on PostgreSQL (no lock
 * that stops reads or writes of other months; it cannot run inside a transaction), the plain form
 * on PGlite, where one connection serves everything anyway. Returns the detached table's name.
 * Refuses the current month and any later one.
 */
export async function detachMonth(db: Db, table: PartitionedTable, month: string, now: Date): Promise<string> {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new Error(`month must be YYYY-MM, got ${JSON.stringify(month)}`);
  const name = `${table}_p${m[1]}${m[2]}`;
  if (name >= partitionName(table, now)) throw new Error(`${month} is not over yet: only past months are detached`);
  const part = (await listMonths(db, table)).find((p) => p.name === name);
  if (!part) throw new Error(`${table} has no partition for ${month}`);
  // The month's rows leave the ledger without a DELETE: their days' counts (txn_day_count and the
  // deltas not yet added to it, a lower bound of the list's matches, migration 086) go too — every
  // UTC day the month touches, also the edge days it shares with a neighbour (what stays of those
  // is then under-counted, never over). Before the detach and again after it, for a row written
  // into the month in between.
  const days = `day >= ($1::timestamptz AT TIME ZONE 'UTC')::date AND day <= (($2::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC')::date`;
  const dropCounts = async () => {
    if (table !== 'txn') return;
    // The edge days' counts are no longer exact: a deep page's jump skips no day at or before them
    // (txn_day_inexact, migration 245, modules/txn/txn.jump.ts). Marked before their sums go.
    await db.query(
      `INSERT INTO txn_day_inexact (day) VALUES (($1::timestamptz AT TIME ZONE 'UTC')::date), ((($2::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC')::date)
       ON CONFLICT (day) DO NOTHING`,
      [part.from, part.to],
    );
    await db.query(`DELETE FROM txn_day_delta WHERE ${days}`, [part.from, part.to]);
    await db.query(`DELETE FROM txn_day_count WHERE ${days}`, [part.from, part.to]);
  };
  await dropCounts();
  await db.query(`ALTER TABLE ${table} DETACH PARTITION ${name}${db.kind === 'postgres' ? ' CONCURRENTLY' : ''}`);
  await dropCounts();
  return name;
}

/**
 * Archives one past month: detaches it (detachMonth), writes it to `<outDir>/<partition>.csv`
 * (COPY, CSV with a header: every column as stored, readable by COPY … FROM to restore it), and
 * with `drop` removes the detached table once the file is complete. The rows' keys stay in
 * txn_key, so references from later months keep holding. Returns the file and its row count.
 */
export async function archiveMonth(
  db: Db,
  table: PartitionedTable,
  month: string,
  now: Date,
  outDir: string,
  opts: { drop?: boolean } = {},
): Promise<{ file: string; rows: number; dropped: boolean }> {
  const name = await detachMonth(db, table, month, now);
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${name}.csv`);
  const part = `${file}.part`;
  const copy = `COPY ${name} TO STDOUT WITH (FORMAT csv, HEADER)`;
  if (db.copyOut) await pipeline(await db.copyOut(copy), fs.createWriteStream(part));
  else if (db.copyBlob) fs.writeFileSync(part, await db.copyBlob(copy.replace('TO STDOUT', "TO '/dev/blob'")));
  else throw new Error('this database cannot COPY');
  fs.renameSync(part, file);
  const rows = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`)).rows[0].n;
  if (opts.drop) await db.query(`DROP TABLE ${name}`);
  return { file, rows, dropped: !!opts.drop };
}

/**
 * `t.txn_time` bounded by the times of the txn_key rows matching `keyWhere` (over `k`): two scalar
 * subqueries (initplans), so the executor prunes the ledger's months at start and reads only the
 * months holding those rows (decision 028). No key matches: the bounds are NULL, nothing matches.
 */
export function keyTimeBounds(...keyWhere: string[]): string {
  const keys = `FROM txn_key k WHERE ${keyWhere.join(' AND ')}`;
  return `t.txn_time >= (SELECT min(k.txn_time) ${keys}) AND t.txn_time <= (SELECT max(k.txn_time) ${keys})`;
}
