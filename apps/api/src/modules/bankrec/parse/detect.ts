import { parseCamt053 } from './camt053';
import { parseCsv, type CsvMapping } from './csv';
import { StatementRefused } from './errors';
import { parseMt940 } from './mt940';
import { decodeStatement } from './text';
import type { ParsedStatement, StatementFormat } from './types';

/** Which format a file is: XML (camt.053), SWIFT tags (MT940), else CSV when a mapping is given. */
export function detectFormat(text: string): StatementFormat | null {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 4096);
  if (head.startsWith('<')) return 'camt053';
  if (/^(\{1:|:20:|:940:)/m.test(head) && /^:20:/m.test(text.slice(0, 65536))) return 'mt940';
  return null;
}

/** Decodes, recognises and reads a statement file (no balance check: `checkBalances`). */
export function readStatementFile(buf: Uint8Array, csv: CsvMapping | null): ParsedStatement[] {
  const text = decodeStatement(buf).replace(/^\uFEFF/, '');
  const format = detectFormat(text);
  if (format === 'camt053') return parseCamt053(text);
  if (format === 'mt940') return parseMt940(text);
  if (csv) return [parseCsv(text, csv)];
  throw new StatementRefused('bankFileUnknownFormat', {});
}
