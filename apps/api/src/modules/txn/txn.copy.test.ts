/**
 * The CSV export through COPY (PostgreSQL: one streamed COPY; PGlite: one COPY per key range)
 * against the JS writer: byte-identical files for the same rows, in every language and several
 * zones, over rows full of nasty values, across chunk edges (small chunks) and ties on the time; the
 * filter's values inlined safely; a cut-short PGlite export stops its chunks (PostgreSQL's connection
 * release: txn.copy.abort.test.ts; the CRLF transform: export/csv-crlf.test.ts).
 */
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, CURRENCIES, LANGUAGES, Perm, TXN_TYPES, type Language } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import type { Deps } from '../../plugins/context';
import type { Reader } from '../../db/db';
import type { ExportContext, ExportSource } from '../export/export.types';
import { writeSourceExport } from '../export/export.service';
import { registerTxnExports, settleExportSource, txnExportSource } from './txn.exports';
import { ensureMonths } from '../../db/partitions';

const RANGE = { beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' };
const ZONES = [8, 0, -5, 14, -12, 5.75, -3.5];

/** Text that a CSV writer or a spreadsheet could trip on; each starts a value. */
const NASTY = [
  '=1+2',
  '+SUM(A1)',
  '-3',
  '@cmd',
  '\tTab',
  '\rCR',
  'quo"te',
  '"',
  '""',
  'com,ma',
  ',',
  'new\nline',
  'cr\r\nlf',
  '\n',
  'plain',
  'ünï 注文 ✓',
  "x' OR '1'='1",
  'back\\slash',
  '\\.',
  ' lead',
  'trail ',
  '0123',
  '=',
  "'quoted'",
  'A',
  'zz',
  '',
];

/** Deterministic PRNG (mulberry32). */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Collects what `write` writes into a PassThrough (read as it comes: backpressure stays live). */
async function collect(write: (out: Writable) => Promise<number>): Promise<{ bytes: Buffer; rows: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = once(out, 'end');
  ended.catch(() => undefined); // a failed write destroys `out`: the error is write's
  const rows = await write(out);
  await ended;
  return { bytes: Buffer.concat(chunks), rows };
}

describe.each(DB_KINDS)('CSV export through COPY = the JS writer, byte for byte (%s)', (kind) => {
  let ctx: TestCtx;
  /** COPY statements run: one per export on PostgreSQL, one per chunk on PGlite. */
  let copies = 0;
  let deps: Deps;
  const extra = ['300000000000101', '300000000000102', '300000000000103'];
  const scope = [DEMO.group, DEMO.subA, DEMO.subB, ...extra];

  beforeAll(async () => {
    registerTxnExports();
    ctx = await createTestApp({ kind });
    const db = ctx.db;
    // Rows are written with SQL here, not through ingestion: their months first (decision 028).
    await ensureMonths(db, 'txn', new Date('2026-09-01T00:00:00Z'), new Date('2026-12-31T00:00:00Z'));
    // Counts the COPY statements, to prove the COPY path is the one taken (exports read through
    // `db.read`, the replica when one is configured).
    const counted = (read: Reader): Reader =>
      kind === 'postgres'
        ? { ...read, copyOut: (sql: string) => (copies++, read.copyOut!(sql)), caughtUp: async (ms) => counted(await read.caughtUp(ms)) }
        : { ...read, copyBlob: (sql: string) => (copies++, read.copyBlob!(sql)), caughtUp: async (ms) => counted(await read.caughtUp(ms)) };
    deps = { ...ctx.deps, db: { ...db, read: counted(db.read) } };
    await db.query(`UPDATE merchant SET name = $2 WHERE mer_id = $1`, [DEMO.group, '=HYPERLINK("http://x","y")']);
    await db.query(`UPDATE merchant SET name = $2 WHERE mer_id = $1`, [DEMO.subA, 'Acme, "Quoted"\nSecond line']);
    await db.query(`UPDATE merchant SET name = $2 WHERE mer_id = $1`, [DEMO.subB, '-minus, merchant']);
    for (const [id, name] of [
      [extra[0], '\tTabbed\r\n'],
      [extra[1], ''],
      [extra[2], '@at 商户 ✓'],
    ]) {
      await db.query(`INSERT INTO merchant (mer_id, name, attribute) VALUES ($1, $2, 'INDEPENDENT')`, [id, name]);
    }
    const rnd = prng(20261121);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const AMOUNTS = [1, 5, 9, 10, 99, 100, 101, 1000, 12345, 99999999, 123456789012, 9007199254740991];
    const brands: (string | null)[] = [...BRANDS.map((b) => b.code), null, '', 'zz_unknown', '=evil', 'Itaú'];
    const start = Date.UTC(2026, 10, 1, 0, 0, 0); // inside the range in any zone below
    const rows: unknown[][] = [];
    const n = 700;
    for (let i = 0; i < n; i++) {
      const mer = scope[i % scope.length];
      const nasty = NASTY[i % NASTY.length];
      // (merchant, text) pairs repeat every lcm(6, 27) = 54 rows: after that a suffix keeps the order number unique.
      const orderNo = i < 54 ? nasty : `${nasty}#${i}`;
      const type = TXN_TYPES[i % TXN_TYPES.length];
      const amount = pick(AMOUNTS);
      const sign = type === 'MANENTD' && i % 2 ? -1 : 1;
      const currency = CURRENCIES[i % CURRENCIES.length];
      const settled = i % 3 !== 0;
      const flag = ['N', 'Y', 'S', 'T'][i % 4];
      // Times: whole seconds, microseconds, ties (same instant), near midnight in every zone.
      const ms = start + 16 * 86_400_000 + Math.floor((i % 50) - 25) * 3_600_000 + (i % 7 === 0 ? 0 : Math.floor(rnd() * 86_400_000));
      const micros = i % 5 === 0 ? '' : `.${String(Math.floor(rnd() * 1e6)).padStart(6, '0')}`;
      const ts = `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}${micros}+00`;
      rows.push([
        `G${i}`,
        mer,
        orderNo,
        i % 4 === 0 ? null : i % 4 === 1 ? '' : NASTY[(i * 7) % NASTY.length],
        `CH${i}`,
        type,
        pick(['00', '00', '00', '04', '', null, '05', 'XX']),
        amount,
        sign,
        currency,
        pick([0, 0, amount, Math.floor(amount / 3)]),
        pick(['CARD', 'WX', '=CH', 'a,b', 'q"s', '', '+1']),
        i % 2 ? 'CARD' : 'WX',
        brands[i % brands.length],
        ts,
        i % 10 === 0 ? 'vip' : null,
        flag,
        settled ? `2026-11-${String(2 + (i % 20)).padStart(2, '0')}` : null,
        settled ? (i % 5 === 0 ? 'JPY' : 'USD') : i % 6 === 1 ? 'EUR' : null,
        settled ? pick([null, 0, 1, -5, -100, 12345, -987654, amount]) : i % 6 === 1 ? 500 : null,
        settled ? pick([null, 0, 3, 83, 99999, 1234567]) : null,
      ]);
    }
    for (const r of rows) {
      await db.query(
        `INSERT INTO txn (gw_trans_id, mer_id, order_no, origin_order_no, channel_order_no, tran_type, gw_response, amount, amount_sign, currency,
                          return_amount, payment_schema, bus_line, payment_brand, txn_time, mer_reserve, settle_flag, settle_date, settle_currency,
                          settle_amount, settle_fee, order_amount, order_currency, txn_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $8, $10, ($15::timestamptz)::date)`,
        r,
      );
    }
    // Ties: several rows at one instant (the order then falls to the id).
    await db.query(`UPDATE txn SET txn_time = '2026-11-15 16:00:00+00' WHERE id IN (SELECT id FROM txn ORDER BY id LIMIT 5 OFFSET 100)`);
  }, 120_000);
  afterAll(() => ctx?.close());

  const contextOf = (lang: Language, zone: number, s = scope): ExportContext => ({ deps, read: deps.db.read, lang, zone, scope: s, userId: 0 });

  /** Rows per COPY on PGlite in these tests: many chunk edges, one inside the ties. */
  const CHUNK = 37;
  /**
   * Both paths for one export; asserts the COPY path was taken: one COPY on PostgreSQL, one per
   * `chunk` rows and one more (the open last range) on PGlite.
   */
  async function both<P>(source: ExportSource<P, any>, params: unknown, lang: Language, zone: number, s = scope, chunk = CHUNK) {
    const c = contextOf(lang, zone, s);
    const p = source.parse(params);
    const before = copies;
    const viaCopy = await collect((out) => writeSourceExport(source, c, p, 'csv', out, undefined, { copyChunkRows: chunk }));
    const ran = copies - before;
    const viaJs = await collect((out) => writeSourceExport({ ...source, copyCsv: undefined }, c, p, 'csv', out));
    expect(copies).toBe(before + ran);
    expect(ran).toBe(kind === 'postgres' ? 1 : Math.floor(viaJs.rows / chunk) + 1);
    return { viaCopy, viaJs };
  }

  const same = (r: Awaited<ReturnType<typeof both>>, rows?: number) => {
    expect(r.viaCopy.rows).toBe(r.viaJs.rows);
    if (rows !== undefined) expect(r.viaJs.rows).toBe(rows);
    // Equal strings first (a readable diff), then the bytes.
    expect(r.viaCopy.bytes.toString('utf8')).toBe(r.viaJs.bytes.toString('utf8'));
    expect(r.viaCopy.bytes.equals(r.viaJs.bytes)).toBe(true);
  };

  it('the data holds the cases (every type, result, flag, brand, currency, nasty text)', async () => {
    const { rows } = await ctx.db.query<{ k: string; n: number }>(
      `SELECT 'type' AS k, count(DISTINCT tran_type)::int AS n FROM txn UNION ALL
       SELECT 'brand', count(DISTINCT payment_brand)::int FROM txn UNION ALL
       SELECT 'currency', count(DISTINCT currency)::int FROM txn UNION ALL
       SELECT 'flag', count(DISTINCT settle_flag)::int FROM txn UNION ALL
       SELECT 'negative MANENTD', count(*)::int FROM txn WHERE tran_type = 'MANENTD' AND amount_sign = -1 UNION ALL
       SELECT 'null origin', count(*)::int FROM txn WHERE origin_order_no IS NULL UNION ALL
       SELECT 'newline order', count(*)::int FROM txn WHERE order_no LIKE E'%\\n%'`,
    );
    const got = Object.fromEntries(rows.map((r) => [r.k, r.n]));
    expect(got.type).toBe(TXN_TYPES.length);
    expect(got.brand).toBe(BRANDS.length + 4); // + '', unknown, '=evil', 'Itaú' (NULL is not counted)
    expect(got.currency).toBe(CURRENCIES.length);
    expect(got.flag).toBe(4);
    expect(got['negative MANENTD']).toBeGreaterThan(5);
    expect(got['null origin']).toBeGreaterThan(50);
    expect(got['newline order']).toBeGreaterThan(10);
  });

  for (const lang of LANGUAGES) {
    it(`transactions, ${lang}, every zone`, async () => {
      for (const zone of ZONES) same(await both(txnExportSource, RANGE, lang, zone), 700);
    });
    it(`settlement transactions, ${lang}, USD and JPY`, async () => {
      for (const setCur of ['USD', 'JPY']) {
        for (const zone of [8, -5]) {
          const r = await both(settleExportSource, { beginDate: '2026-11-01', endDate: '2026-11-30', busLine: 'CARD', setCur, clientid: DEMO.subA }, lang, zone);
          expect(r.viaJs.rows).toBeGreaterThan(5);
          same(r);
        }
      }
    });
  }

  it('the filters select the same rows', async () => {
    const filters: Record<string, string>[] = [
      { orderNum: 'quo"te' },
      { orderNum: 'com,ma#63' },
      { orderNum: "x' OR '1'='1#70" },
      { originOrderNum: '=1+2' },
      { channelOrderNum: 'CH42' },
      { gwGTransId: 'G43' },
      { gwTranType: 'MANENTD' },
      { gwResponse: '00' },
      { gwResponse: '04' },
      { gwResponse: '01' },
      { merReserve: 'vip' },
      { paymentSchema: 'a,b' },
      { paymentBrand: 'visa,mastercard,zz_unknown' },
      { beginDate: '2026-11-16 00:00:00', endDate: '2026-11-16 23:59:59' },
    ];
    for (const f of filters) {
      const r = await both(txnExportSource, { ...RANGE, ...f }, 'en', 8);
      expect(r.viaJs.rows, JSON.stringify(f)).toBeGreaterThan(0);
      same(r);
    }
    // One merchant's scope.
    same(await both(txnExportSource, RANGE, 'zh', 9, [DEMO.subA]));
    // Nothing matches: the header alone.
    const none = await both(txnExportSource, { ...RANGE, orderNum: 'no such order' }, 'ja', 8);
    same(none, 0);
    expect(none.viaCopy.bytes.toString('utf8')).toMatch(/^\uFEFF[^\n]*\r\n$/);
  });

  it('a filter value cannot inject SQL: it is compared as a value', async () => {
    // Rows hold this very order number: exactly those come out.
    const { rows: holders } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM txn WHERE order_no = $1`, ["x' OR '1'='1"]);
    expect(holders[0].n).toBeGreaterThan(0);
    same(await both(txnExportSource, { ...RANGE, orderNum: "x' OR '1'='1" }, 'en', 8), holders[0].n);
    for (const orderNum of ["nope' OR '1'='1", "nope\\' OR 1=1 --", "'); DROP TABLE txn; --"]) {
      same(await both(txnExportSource, { ...RANGE, orderNum }, 'en', 8), 0);
      same(await both(txnExportSource, { ...RANGE, merReserve: orderNum }, 'en', 8), 0);
    }
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn');
    expect(rows[0].n).toBe(700);
    // The scope too: a merchant id out of shape selects nothing.
    same(await both(txnExportSource, RANGE, 'en', 8, ["1' OR '1'='1"]), 0);
  });

  it('an unknown currency fails both paths (money() throws)', async () => {
    await ctx.db.query(`INSERT INTO merchant (mer_id, name, attribute) VALUES ('300000000000199', 'Odd', 'INDEPENDENT')`);
    await ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, currency, order_amount, order_currency, payment_schema, bus_line, txn_time, txn_date)
       VALUES ('GODD', '300000000000199', 'ODD-1', 'PURC', '00', 100, 'XYZ', 100, 'XYZ', 'CARD', 'CARD', '2026-11-10 00:00:00+00', '2026-11-10')`,
    );
    const c = contextOf('en', 8, ['300000000000199']);
    const p = txnExportSource.parse(RANGE);
    await expect(collect((out) => writeSourceExport(txnExportSource, c, p, 'csv', out))).rejects.toThrow(/unknown currency XYZ/);
    await expect(collect((out) => writeSourceExport({ ...txnExportSource, copyCsv: undefined }, c, p, 'csv', out))).rejects.toThrow(/unknown currency XYZ/);
  });

  it('progress counts the rows as they flow', async () => {
    const seen: number[] = [];
    const r = await collect((out) => writeSourceExport(txnExportSource, contextOf('en', 8), txnExportSource.parse(RANGE), 'csv', out, (n) => void seen.push(n), { copyChunkRows: CHUNK }));
    expect(r.rows).toBe(700);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toBe(700);
  });

  it('the queued job writes the same file through COPY', async () => {
    const { drainExports, enqueueExport } = await import('../export/export.service');
    const { rows: u } = await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.demo]);
    const job = await enqueueExport(deps, {
      userId: u[0].id,
      merId: DEMO.group,
      scope,
      permissions: [Perm.txnExport],
      kind: 'txn',
      params: RANGE,
      lang: 'ko',
      tzOffset: -5,
      format: 'csv',
    });
    const before = copies;
    await drainExports(deps);
    expect(copies).toBe(before + 1);
    const { rows: f } = await ctx.db.query<{ status: string; row_count: number; path: string; progress: number }>('SELECT * FROM export_file WHERE id = $1', [job.id]);
    expect(f[0]).toMatchObject({ status: 'ready', row_count: 700, progress: 100 });
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { exportDir } = await import('../export/export.service');
    const file = fs.readFileSync(path.join(exportDir(deps), f[0].path));
    const js = await collect((out) => writeSourceExport({ ...txnExportSource, copyCsv: undefined }, contextOf('ko', -5), txnExportSource.parse(RANGE), 'csv', out));
    expect(file.equals(js.bytes)).toBe(true);
  });

  it('chunk edges anywhere: one row a chunk, the count a multiple of the chunk, one chunk for all', async () => {
    for (const chunk of [1, 2, 350, 699, 700, 701, 50_000]) same(await both(txnExportSource, RANGE, 'zh', 8, scope, chunk), 700);
    for (const chunk of [1, 5, 1000]) {
      const r = await both(settleExportSource, { beginDate: '2026-11-01', endDate: '2026-11-30', busLine: 'CARD', setCur: 'USD', clientid: DEMO.subA }, 'en', -5, scope, chunk);
      expect(r.viaJs.rows).toBeGreaterThan(5);
      same(r);
    }
  });

  it('rows sharing one time (and one settlement date) across chunk edges: none lost, none repeated', async () => {
    const mer = '300000000000104';
    await ctx.db.query(`INSERT INTO merchant (mer_id, name, attribute) VALUES ($1, 'Ties', 'INDEPENDENT')`, [mer]);
    // 120 rows at one instant between a few at neighbouring instants (a microsecond either side).
    await ctx.db.query(
      `INSERT INTO txn (gw_trans_id, mer_id, order_no, tran_type, gw_response, amount, currency, order_amount, order_currency, payment_schema, bus_line,
                        txn_time, txn_date, settle_flag, settle_date, settle_currency, settle_amount, settle_fee)
       SELECT 'T' || g, $1, 'TIE-' || g, 'PURC', '00', g, 'USD', g, 'USD', 'CARD', 'CARD',
              '2026-11-12 08:00:00+00'::timestamptz + CASE WHEN g <= 5 THEN interval '-1 microsecond' WHEN g > 125 THEN interval '1 microsecond' ELSE interval '0' END,
              '2026-11-12', 'Y', '2026-11-13', 'USD', g, 1
         FROM generate_series(1, 130) g ORDER BY random()`,
      [mer],
    );
    for (const chunk of [7, 37, 60, 120, 129, 130]) {
      const r = await both(txnExportSource, RANGE, 'en', 8, [mer], chunk);
      same(r, 130);
      const orders = r.viaCopy.bytes
        .toString('utf8')
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',')[0]);
      expect(new Set(orders).size).toBe(130);
      const s = await both(settleExportSource, { beginDate: '2026-11-13', endDate: '2026-11-13', busLine: 'CARD', setCur: 'USD', clientid: mer }, 'ja', 9, [mer], chunk);
      same(s, 130);
    }
  });

  // PGlite only (PostgreSQL streams one COPY: its abort is the describe below).
  if (kind === 'pglite') {
    it('a destroyed output (the client went away) stops the chunks', async () => {
      const out = new PassThrough();
      const before = copies;
      const done = writeSourceExport(txnExportSource, contextOf('en', 8), txnExportSource.parse(RANGE), 'csv', out, undefined, { copyChunkRows: 10 });
      const failed = expect(done).rejects.toThrow(/premature close/i);
      await once(out, 'data');
      out.destroy();
      await failed;
      const ran = copies - before;
      // 71 ranges in all; the first data comes out after a few 64 KiB blocks' worth of them.
      expect(ran).toBeGreaterThan(0);
      expect(ran).toBeLessThan(40);
      await new Promise((r) => setTimeout(r, 100));
      expect(copies - before).toBe(ran);
    });
  }
});

describe('copyCsv', () => {
  const ctxOf = (zone: number | string) => ({ deps: { config: { platformTz: 'Asia/Shanghai' } }, lang: 'en', zone, scope: [DEMO.subA], userId: 0 }) as unknown as ExportContext;
  it('gives one cell per output column: a time column is two (zone, UTC)', () => {
    const sql = txnExportSource.copyCsv!(ctxOf(8), txnExportSource.parse(RANGE))!.sql;
    const select = sql.slice('SELECT '.length, sql.indexOf('\nFROM '));
    expect(select.split(',\n       ')).toHaveLength(txnExportSource.columns(ctxOf(8), txnExportSource.parse(RANGE)).length + 1);
    expect(sql).toContain(`AT TIME ZONE INTERVAL '480 minutes'`);
    expect(sql).toContain(`AT TIME ZONE INTERVAL '0 minutes'`);
    expect(txnExportSource.copyCsv!(ctxOf(5.75), txnExportSource.parse(RANGE))!.sql).toContain(`INTERVAL '345 minutes'`);
  });
  it('falls back to the JS path for a zone that is not a fixed offset', () => {
    expect(txnExportSource.copyCsv!(ctxOf('Asia/Tokyo'), txnExportSource.parse(RANGE))).toBeNull();
    expect(txnExportSource.copyCsv!(ctxOf(Number.NaN), txnExportSource.parse(RANGE))).toBeNull();
  });
});
