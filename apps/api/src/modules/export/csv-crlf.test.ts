import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CsvLfToCrlf } from './csv-crlf';

describe('CsvLfToCrlf', () => {
  const run = async (input: string, split: number[]) => {
    const t = new CsvLfToCrlf();
    const out: Buffer[] = [];
    t.on('data', (c: Buffer) => out.push(Buffer.from(c)));
    const b = Buffer.from(input);
    let from = 0;
    for (const at of [...split, b.length]) {
      t.write(b.subarray(from, at));
      from = at;
    }
    t.end();
    await once(t, 'end');
    return { text: Buffer.concat(out).toString(), rows: t.rows };
  };
  it('ends records with CRLF, leaves line breaks inside quotes alone, whatever the chunking', async () => {
    const csv = 'a,"b\nc",d\n"x""\n""y",,\n"",ü注\n"\r\n"\n';
    const want = 'a,"b\nc",d\r\n"x""\n""y",,\r\n"",ü注\r\n"\r\n"\r\n';
    const b = Buffer.from(csv);
    for (let i = 0; i <= b.length; i++) {
      expect(await run(csv, [i])).toEqual({ text: want, rows: 4 });
    }
    expect(
      await run(
        csv,
        Array.from({ length: b.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual({ text: want, rows: 4 });
  });
  it('fills blocks of its size and passes everything on', async () => {
    const line = 'abc,"d\ne",f\n';
    const t = new CsvLfToCrlf(undefined, 7);
    const out: Buffer[] = [];
    t.on('data', (c: Buffer) => out.push(Buffer.from(c)));
    for (let i = 0; i < 100; i++) t.write(Buffer.from(line));
    t.end();
    await once(t, 'end');
    expect(Buffer.concat(out).toString()).toBe('abc,"d\ne",f\r\n'.repeat(100));
    expect(out.length).toBeGreaterThan(2);
    expect(out.slice(0, -1).every((c) => c.length === 7)).toBe(true);
    expect(t.rows).toBe(100);
  });
});
