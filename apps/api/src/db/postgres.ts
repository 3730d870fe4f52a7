/** A PostgreSQL server's database: its pools (generic plans, pipelined connections), COPY and LISTEN; the prepared statements' names. */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { observed } from './observe';
import { listenOn } from './listen';
import { writeNotifier } from './writes';
import { DEFAULT_PIPELINE_CONNECTIONS, pipelined } from './pipelined';
import type { Db, Queryable, QueryOptions } from './types';
import { DATE, INT8, NUMERIC, withSelfReader } from './adapter';

export async function openPostgres(url: string, opts: { searchPath?: string; max?: number; genericPlans?: boolean; pipelineConnections?: number } = {}): Promise<Db> {
  const typeParsers: Record<number, (v: string) => unknown> = {
    [INT8]: (v) => Number(v),
    [NUMERIC]: (v) => v,
    [DATE]: (v) => v,
  };
  const pgOptions = opts.searchPath ? `-c search_path=${opts.searchPath} -c TimeZone=UTC` : '-c TimeZone=UTC';
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    options: pgOptions,
    types,
  });
  // A pooled connection that breaks while idle (the server restarted) is dropped by the pool; the
  // error must not become an uncaught exception.
  pool.on('error', () => undefined);
  const writes = writeNotifier();
  // Named prepared statements run on connections of their own whose plan_cache_mode is
  // force_generic_plan (the setting would also make every unnamed statement generic): each
  // connection parses and plans a statement once and then only binds and executes it.
  const genericOptions = `${pgOptions} -c plan_cache_mode=force_generic_plan`;
  let genericPool: pg.Pool | undefined;
  const generic = () =>
    (genericPool ??= new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      options: genericOptions,
      types,
    }).on('error', () => undefined));
  // Short statements (QueryOptions.pipeline) share a few pipelined connections of the same kind.
  const pipelineConnections = opts.pipelineConnections ?? DEFAULT_PIPELINE_CONNECTIONS;
  const pipe = pipelineConnections > 0 ? pipelined({ connectionString: url, options: genericOptions, types }, pipelineConnections) : undefined;
  const wrap = (c: pg.Pool | pg.PoolClient, ran: (sql: string, n?: number) => void, top: boolean): Queryable => ({
    async query<T>(text: string, params?: unknown[], o?: QueryOptions) {
      const r = await observed('postgres', () =>
        top && o?.prepare && opts.genericPlans !== false
          ? (o.pipeline && pipe ? pipe : generic()).query({ name: statementName(text), text, values: params as unknown[] })
          : c.query(text, params as unknown[]),
      );
      const rowCount = r.rowCount ?? r.rows.length;
      ran(text, rowCount);
      return { rows: r.rows as T[], rowCount };
    },
  });
  const base = wrap(pool, writes.ran, true);
  return withSelfReader({
    kind: 'postgres',
    query: base.query,
    onWrite: writes.onWrite,
    async tx(fn) {
      const client = await pool.connect();
      const c = writes.collector();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client, c.ran, false));
        await client.query('COMMIT');
        c.flush();
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
      writes.ran(sql);
    },
    async copyOut(copySql) {
      const client = await pool.connect();
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        // With an error the pool closes the connection: a COPY cut short leaves it mid-protocol.
        client.release(err);
      };
      let stream;
      try {
        stream = client.query(copyTo(copySql));
      } catch (err) {
        release(err as Error);
        throw err;
      }
      stream.once('end', () => release());
      stream.on('error', (err) => release(err));
      stream.once('close', () => release(new Error('COPY stream closed before its end')));
      return stream;
    },
    listen(channel, onNotify, onState) {
      return listenOn({ connectionString: url, options: pgOptions }, channel, onNotify, onState);
    },
    poolStats: () => {
      const piped = pipe?.stats() ?? { total: 0, idle: 0 };
      return {
        total: pool.totalCount + (genericPool?.totalCount ?? 0) + piped.total,
        idle: pool.idleCount + (genericPool?.idleCount ?? 0) + piped.idle,
        waiting: pool.waitingCount + (genericPool?.waitingCount ?? 0),
      };
    },
    close: async () => {
      await Promise.all([pool.end(), genericPool?.end(), pipe?.end()]);
    },
  });
}

/**
 * A prepared statement's name: the same text gets the same name on every connection. Remembered
 * per text (the texts are the code's own, a few dozen; the map is emptied past 2,000 should
 * that ever change): a hot list call no longer hashes its statement each time.
 */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= 2000) statementNames.clear();
    name = `g_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}
