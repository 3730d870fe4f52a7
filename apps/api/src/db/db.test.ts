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
    expect(splitSql(`-- a; comment\nSELECT 'a;b'; DO $$ BEGIN PERFORM 1; END $$;\nSELECT 2`)).toEqual([
      `SELECT 'a;b'`,
      'DO $$ BEGIN PERFORM 1; END $$',
      'SELECT 2',
    ]);
  });
});
