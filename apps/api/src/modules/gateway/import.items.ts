/** A daily transaction file read as items (rows, unreadable lines, control totals, the end marker), streamed, CSV or JSON lines. */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parse } from 'csv-parse';
import { CURRENCY_EXPONENT, toMinor } from '@portal/contract';
import { isDate } from '../../lib/zone';

export interface ControlTotal {
  date: string;
  currency: string;
  tranType: string;
  count: number;
  /** Decimal string, signed. */
  sum: string;
}

export type Item =
  | { kind: 'row'; line: number; raw: Record<string, unknown> }
  | { kind: 'bad'; line: number; msg: string }
  | { kind: 'total'; line: number; t: ControlTotal }
  | { kind: 'end'; line: number; count: number };

export const formatOf = (file: string): 'csv' | 'jsonl' | null => {
  const ext = path.extname(file).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : null;
};

/** The file's items, streamed, with their line numbers (1-based; the CSV header is line 1). */
export async function* itemsOf(file: string, format: 'csv' | 'jsonl'): AsyncGenerator<Item> {
  if (format === 'jsonl') {
    const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
    let line = 0;
    for await (const text of rl) {
      line++;
      if (!text.trim()) continue;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        yield { kind: 'bad', line, msg: 'not a JSON object' };
        continue;
      }
      if (!v || typeof v !== 'object' || Array.isArray(v)) {
        yield { kind: 'bad', line, msg: 'not a JSON object' };
        continue;
      }
      const o = v as Record<string, unknown>;
      if (o.type === 'total') yield totalItem(line, [o.date, o.currency, o.tranType, o.count, o.sum]);
      else if (o.type === 'end') yield endItem(line, o.count);
      else yield { kind: 'row', line, raw: o };
    }
    return;
  }
  const parser = fs.createReadStream(file).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, trim: true }));
  let header: string[] | null = null;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const line = info.lines;
    if (!header) {
      header = record;
      continue;
    }
    if (record[0] === '#TOTAL') yield totalItem(line, record.slice(1));
    else if (record[0] === '#END') yield endItem(line, record[1]);
    else if (record.length !== header.length) yield { kind: 'bad', line, msg: `${record.length} columns, the header has ${header.length}` };
    else {
      const raw: Record<string, unknown> = {};
      header.forEach((h, i) => {
        if (record[i] !== '') raw[h] = record[i];
      });
      yield { kind: 'row', line, raw };
    }
  }
}

function totalItem(line: number, v: unknown[]): Item {
  const [date, currency, tranType, count, sum] = v.map((x) => (x === undefined || x === null ? '' : String(x)));
  if (!isDate(date) || !(currency in CURRENCY_EXPONENT) || !/^[A-Z_-]{2,16}$/.test(tranType) || !/^\d{1,9}$/.test(count)) {
    return { kind: 'bad', line, msg: 'control total: date, currency, type, count, sum expected' };
  }
  try {
    toMinor(sum, currency);
  } catch {
    return { kind: 'bad', line, msg: 'control total: sum is not an amount of the currency' };
  }
  return { kind: 'total', line, t: { date, currency, tranType, count: Number(count), sum } };
}

const endItem = (line: number, count: unknown): Item =>
  /^\d{1,9}$/.test(String(count)) ? { kind: 'end', line, count: Number(count) } : { kind: 'bad', line, msg: 'end marker: the row count expected' };
