import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../test/helpers';
import type { Db } from './db';
import { arrayParam, inlineParams, sqlLiteral } from './sql-inline';

describe('sqlLiteral', () => {
  it('quotes strings, doubling quotes; backslashes go into an E-string', () => {
    expect(sqlLiteral('abc')).toBe("'abc'");
    expect(sqlLiteral("x' OR '1'='1")).toBe("'x'' OR ''1''=''1'");
    expect(sqlLiteral('a\\b')).toBe(" E'a\\\\b'");
    expect(sqlLiteral('')).toBe("''");
  });
  it('writes NULL, numbers, booleans, dates, arrays as the driver sends them', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral(-5)).toBe("'-5'");
    expect(sqlLiteral(12n)).toBe("'12'");
    expect(sqlLiteral(true)).toBe("'true'");
    expect(sqlLiteral(new Date('2026-11-10T04:00:00.123Z'))).toBe("'2026-11-10T04:00:00.123Z'");
    expect(sqlLiteral(['a', 'b"c', 'd\\e', null, "f'g"])).toBe(` E'{"a","b\\\\"c","d\\\\\\\\e",NULL,"f''g"}'`);
    expect(sqlLiteral([])).toBe("'{}'");
  });
  it('refuses what it cannot write faithfully', () => {
    expect(() => sqlLiteral(Number.NaN)).toThrow();
    expect(() => sqlLiteral(new Date(Number.NaN))).toThrow();
    expect(() => sqlLiteral('a\0b')).toThrow();
    expect(() => sqlLiteral(Buffer.from('x'))).toThrow();
  });
});

describe('inlineParams', () => {
  it('replaces placeholders, not text that looks like one', () => {
    expect(inlineParams('a = $1 AND b = ANY($2::text[]) AND c = $10', [1, ['x'], 0, 0, 0, 0, 0, 0, 0, 'ten'])).toBe(`a = '1' AND b = ANY('{"x"}'::text[]) AND c = 'ten'`);
    expect(inlineParams(`x = '$1' AND "$1" = $1 -- $1\n AND /* $1 */ y = $$ $1 $$ AND z = $t$ $1 $t$ AND e = E'\\' $1' AND w = $1`, ['v'])).toBe(
      `x = '$1' AND "$1" = 'v' -- $1\n AND /* $1 */ y = $$ $1 $$ AND z = $t$ $1 $t$ AND e = E'\\' $1' AND w = 'v'`,
    );
    expect(inlineParams(`a = 'it''s $1' AND b = $1`, ['v'])).toBe(`a = 'it''s $1' AND b = 'v'`);
  });
  it('a placeholder without a value throws', () => {
    expect(() => inlineParams('a = $2', ['x'])).toThrow(/\$2/);
    expect(() => inlineParams('a = $0', ['x'])).toThrow();
  });
  it('an inlined value never ends the literal (its $n are not replaced either)', () => {
    expect(inlineParams('a = $1 AND b = $2', ["' OR 1=1 --$2", 'y'])).toBe(`a = ''' OR 1=1 --$2' AND b = 'y'`);
  });
});

describe.each(DB_KINDS)('inlineParams selects what the bound query selects (%s)', (kind) => {
  let db: Db & { drop(): Promise<void> };
  beforeAll(async () => {
    db = await freshDb(kind);
    await db.exec(`CREATE TABLE inl (id int PRIMARY KEY, s text, ts timestamptz, c char(3))`);
    const values = ["x' OR '1'='1", 'back\\slash', 'dq"uote', 'com,ma', 'new\nline', '$1', 'ünï 注文', '', ' pad'];
    for (let i = 0; i < values.length; i++) {
      await db.query('INSERT INTO inl VALUES ($1, $2, $3, $4)', [i, values[i], new Date(Date.UTC(2026, 10, 10, 4, 0, i, 500)), 'US']);
    }
  });
  afterAll(() => db?.drop());

  const cases: [string, unknown[]][] = [
    ['s = $1', ["x' OR '1'='1"]],
    ['s = $1', ["nope' OR '1'='1"]],
    ['s = $1', ['back\\slash']],
    ['s = ANY($1::text[])', [['dq"uote', 'com,ma', 'new\nline', 'back\\slash', '$1']]],
    ['s = ANY($1::text[])', [[]]],
    ['s = $1 OR s = $2', ['', ' pad']],
    ['ts >= $1 AND ts <= $2', [new Date(Date.UTC(2026, 10, 10, 4, 0, 2)), new Date(Date.UTC(2026, 10, 10, 4, 0, 5, 500))]],
    ['id = $1', [3]],
    ['c = $1', ['US']],
    ['s IS NOT DISTINCT FROM $1', [null]],
  ];
  it.each(cases)('%s', async (where, params) => {
    const bound = await db.query<{ id: number }>(`SELECT id FROM inl WHERE ${where} ORDER BY id`, params);
    const inlined = await db.query<{ id: number }>(`SELECT id FROM inl WHERE ${inlineParams(where, params)} ORDER BY id`);
    expect(inlined.rows).toEqual(bound.rows);
  });
  it('arrayParam: the bound array as one text, built once per array, selects what the array selects', async () => {
    const a = ['dq"uote', 'com,ma', 'new\nline', 'back\\slash', '$1', 'ünï 注文'];
    expect(arrayParam(a)).toBe(arrayParam(a));
    expect(arrayParam([...a])).toEqual(arrayParam(a));
    const bound = await db.query<{ id: number }>(`SELECT id FROM inl WHERE s = ANY($1::text[]) ORDER BY id`, [a]);
    expect(bound.rows.length).toBe(a.length);
    expect((await db.query<{ id: number }>(`SELECT id FROM inl WHERE s = ANY($1::text[]) ORDER BY id`, [arrayParam(a)])).rows).toEqual(bound.rows);
    expect((await db.query<{ id: number }>(`SELECT id FROM inl WHERE s = ANY($1::text[])`, [arrayParam(['nope"} OR {"x'])])).rows).toEqual([]);
  });
  it('an injection attempt is a value: one row that holds it, none for another', async () => {
    expect((await db.query(`SELECT id FROM inl WHERE ${inlineParams('s = $1', ["x' OR '1'='1"])}`)).rows).toEqual([{ id: 0 }]);
    expect((await db.query(`SELECT id FROM inl WHERE ${inlineParams('s = $1', ["nope' OR '1'='1"])}`)).rows).toEqual([]);
    expect((await db.query(`SELECT id FROM inl WHERE ${inlineParams('s = $1', ["nope\\' OR 1=1 --"])}`)).rows).toEqual([]);
  });
});
