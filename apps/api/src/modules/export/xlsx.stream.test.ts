import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { XlsxStream } from './xlsx.stream';

async function write(rows: (string | number | null)[][], maxRows?: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const x = new XlsxStream(
    out,
    [
      { label: 'Text <&>', width: 10, kind: 'text' },
      { label: 'Amount', width: 10, kind: 'number' },
      { label: 'Count', width: 8, kind: 'number' },
    ],
    'Sheet: x/y',
    { maxRows },
  );
  await x.rows(rows);
  await x.end();
  return Buffer.concat(chunks);
}

describe('streaming XLSX writer', () => {
  it('writes a workbook a spreadsheet reader opens: text, decimals, integers, escaping', async () => {
    const buf = await write([
      ['a < b & c > d', '1234.50', 7],
      ['  spaced  ', '-0.5', null],
      ['bad\u0001char', '100', 0],
      [null, null, null],
      ['日本語 ✓', '12.345', 3],
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Sheet  x y');
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Text <&>', 'Amount', 'Count']);
    expect(ws.getRow(2).getCell(1).value).toBe('a < b & c > d');
    expect(ws.getRow(2).getCell(2).value).toBe(1234.5);
    expect(ws.getRow(2).getCell(2).numFmt).toBe('#,##0.00');
    expect(ws.getRow(2).getCell(3).value).toBe(7);
    expect(ws.getRow(3).getCell(1).value).toBe('  spaced  ');
    expect(ws.getRow(3).getCell(2).value).toBe(-0.5);
    expect(ws.getRow(4).getCell(1).value).toBe('badchar');
    expect(ws.getRow(4).getCell(2).numFmt).toBe('#,##0');
    expect(ws.getRow(6).getCell(1).value).toBe('日本語 ✓');
    expect(ws.getRow(6).getCell(2).numFmt).toBe('#,##0.000');
    expect(ws.rowCount).toBe(6);
  });

  it('continues on a new sheet past the row limit', async () => {
    const buf = await write(
      [
        ['1', '1', 1],
        ['2', '2', 2],
        ['3', '3', 3],
        ['4', '4', 4],
        ['5', '5', 5],
      ],
      2,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Sheet  x y', 'Sheet  x y (2)', 'Sheet  x y (3)']);
    expect(wb.worksheets.map((w) => w.rowCount)).toEqual([3, 3, 2]);
    expect(wb.worksheets[2].getRow(2).getCell(1).value).toBe('5');
    expect(wb.worksheets[1].getRow(1).getCell(2).value).toBe('Amount');
  });

  it('writes an empty export as a header-only sheet', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await write([])) as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(1);
  });
});
