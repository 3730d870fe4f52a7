import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../test/helpers';
import { splitSql } from './migrate';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DB_KINDS)('data layer on %s', (kind) => {
  let db: Awaited<ReturnType<typeof freshDb>>;
  beforeAll(async () => {
    db = await freshDb(kind);
    await db.exec('CREATE TABLE t_counter (id int PRIMARY KEY, v int NOT NULL); INSERT INTO t_counter VALUES (1, 0); CREATE TABLE t_rows (name text)');
  });
  afterAll(() => db.drop());

  it('tells writes from reads for its listeners: a WITH query reads unless a part of it writes', async () => {
    const seen: string[] = [];
    const stop = db.onWrite((sql) => seen.push(sql.trim().split(/\s+/).slice(0, 2).join(' ')));
    await db.query('SELECT v FROM t_counter');
    await db.query('WITH c AS (SELECT v FROM t_counter) SELECT v FROM c');
    await db.query('with c as (select v from t_counter) select * from c');
    expect(seen).toEqual([]);
    await db.query('WITH c AS (UPDATE t_counter SET v = v WHERE id = 1 RETURNING v) SELECT v FROM c');
    await db.query(`WITH gone AS (DELETE FROM t_rows WHERE name = 'none' RETURNING name) SELECT count(*) FROM gone`);
    await db.query('WITH x AS (SELECT 1) INSERT INTO t_rows SELECT NULL FROM x WHERE false');
    await db.query('UPDATE t_counter SET v = v WHERE id = 1');
    await db.tx(async (q) => {
      await q.query('WITH c AS (SELECT v FROM t_counter) SELECT v FROM c');
      await q.query('WITH c AS (UPDATE t_counter SET v = v RETURNING v) SELECT 1');
    });
    stop();
    expect(seen).toEqual(['WITH c', 'WITH gone', 'WITH x', 'UPDATE t_counter', 'WITH c']);
  });

  it('keeps a rolled-back transaction from swallowing statements of other requests', async () => {
    const failing = db
      .tx(async (q) => {
        await q.query(`INSERT INTO t_rows VALUES ('inside')`);
        await sleep(50);
        throw new Error('boom');
      })
      .catch((e) => e);
    // Issued while the transaction is open: must commit on its own, whatever the transaction does.
    await sleep(5);
    const outside = db.query(`INSERT INTO t_rows VALUES ('outside')`);
    await Promise.all([failing, outside]);
    expect((await failing).message).toBe('boom');
    const { rows } = await db.query<{ name: string }>('SELECT name FROM t_rows ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['outside']);
  });

  it('runs concurrent read-modify-write transactions without lost updates', async () => {
    await Promise.all(
      Array.from({ length: 40 }, () =>
        db.tx(async (q) => {
          const { rows } = await q.query<{ v: number }>('SELECT v FROM t_counter WHERE id = 1 FOR UPDATE');
          await sleep(1);
          await q.query('UPDATE t_counter SET v = $1 WHERE id = 1', [rows[0].v + 1]);
        }),
      ),
    );
    const { rows } = await db.query<{ v: number }>('SELECT v FROM t_counter WHERE id = 1');
    expect(rows[0].v).toBe(40);
  });

  it('parses bigint as number and date as a plain string', async () => {
    const { rows } = await db.query<{ b: number; d: string; n: string }>(`SELECT 9007199254740991::bigint AS b, DATE '2026-03-01' AS d, 1.10::numeric AS n`);
    expect(rows[0]).toEqual({ b: 9007199254740991, d: '2026-03-01', n: '1.10' });
  });
});

describe('splitSql', () => {
  it('splits on semicolons outside quotes, comments and $$ bodies', () => {
    expect(splitSql(`-- a; comment\nSELECT 'a;b'; DO $$ BEGIN PERFORM 1; END $$;\nSELECT 2`)).toEqual([`SELECT 'a;b'`, 'DO $$ BEGIN PERFORM 1; END $$', 'SELECT 2']);
  });
});
