/**
 * A CSV download through COPY that the client cuts short gives its pooled connection back (and the
 * server's COPY ends): through streamExport and over real HTTP. PostgreSQL only.
 */
import http from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMonths } from '../../db/partitions';
import type { FastifyInstance } from 'fastify';
import { createTestApp, DEMO, NO_POSTGRES, pgUrlOf, type TestCtx } from '../../../test/helpers';
import { openPostgres, type Db } from '../../db/db';
import { buildApp } from '../../app';
import { streamExport } from '../export/export.service';
import { registerTxnExports } from './txn.exports';
import { formatInZone } from './time';

const RANGE = { beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' };

// PostgreSQL only (where a COPY holds a pooled connection); without TEST_DATABASE_URL its tests
// report as skipped, with the reason.
describe('a cut-short CSV download releases its connection (postgres)', () => {
  let ctx: TestCtx;
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  const appName = `copy_abort_${randomBytes(4).toString('hex')}`;
  const mer = DEMO.subA;

  beforeAll(async () => {
    if (NO_POSTGRES) return;
    registerTxnExports();
    ctx = await createTestApp({ kind: 'postgres' });
    await ensureMonths(ctx.db, 'txn', new Date('2026-11-01T00:00:00Z'), new Date('2026-12-31T00:00:00Z'));
    // Enough rows (~25 MB of CSV) that the server is still writing when the client goes away.
    await ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, currency, order_amount, order_currency, payment_schema, bus_line,
                        payment_brand, txn_time, txn_date)
       SELECT 'B' || g, $1, 'BULK-ORDER-' || g, 'PURC', '00', 100 + g, 'USD', 100 + g, 'USD', 'CARD', 'CARD', 'visa',
              '2026-11-10 00:00:00+00'::timestamptz + g * interval '1 second', '2026-11-10'
         FROM generate_series(1, 150000) g`,
      [mer],
    );
    // A pool of ONE connection, named: a connection not given back would block the next query.
    const url = pgUrlOf(ctx.db);
    db = await openPostgres(`${url}${url.includes('?') ? '&' : '?'}application_name=${appName}`, { max: 1 });
    app = await buildApp({ ...ctx.deps, db });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await ctx?.close();
  });

  const backends = async () => (await ctx.db.query<{ state: string; query: string }>(`SELECT state, query FROM pg_stat_activity WHERE application_name = $1`, [appName])).rows;
  const copyRunning = async () => (await backends()).some((b) => b.state === 'active' && b.query.startsWith('COPY ('));
  async function until(cond: () => Promise<boolean>, ms = 15_000) {
    const t0 = Date.now();
    while (!(await cond())) {
      if (Date.now() - t0 > ms) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** The first chunk; the stream is paused right there (nothing more is read). */
  const firstChunk = (s: NodeJS.ReadableStream) =>
    new Promise<Buffer>((resolve) =>
      s.once('data', (c: Buffer) => {
        s.pause();
        resolve(c);
      }),
    );
  const within = <T>(p: Promise<T>, ms = 10_000) => Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('timed out: the pool has no free connection')), ms))]);

  it('streamExport: destroying the stream (what Fastify does on a disconnect) ends the COPY', async ({ skip }) => {
    skip(!!NO_POSTGRES, NO_POSTGRES ?? undefined);
    const deps = { ...ctx.deps, db };
    const out = await streamExport(deps, { kind: 'txn', params: RANGE, lang: 'en', tzOffset: 8, scope: [mer], userId: 0, format: 'csv' });
    const first = await firstChunk(out.stream);
    expect(first.toString()).toContain('Order number');
    await until(copyRunning);
    out.stream.destroy();
    await until(async () => !(await copyRunning()));
    expect((await within(db.query<{ one: number }>('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
  });

  it('HTTP: a client that goes away mid-download', async ({ skip }) => {
    skip(!!NO_POSTGRES, NO_POSTGRES ?? undefined);
    const { token } = await ctx.login();
    const req = http.get(`${base}/api/txn/export?${new URLSearchParams({ ...RANGE, format: 'csv' })}`, { headers: { 'x-token': token } });
    const [res] = (await once(req, 'response')) as [http.IncomingMessage];
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    await firstChunk(res);
    await until(copyRunning);
    req.destroy();
    await until(async () => !(await copyRunning()));
    expect((await within(db.query<{ one: number }>('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
    // And the server goes on serving downloads on the same (one-connection) pool.
    const small = await fetch(`${base}/api/txn/export?${new URLSearchParams({ ...RANGE, format: 'csv', orderNum: 'BULK-ORDER-7' })}`, { headers: { 'x-token': token } });
    const text = await small.text();
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(text).toContain(formatInZone(Date.parse('2026-11-10T00:00:07Z'), 8));
  });
});
