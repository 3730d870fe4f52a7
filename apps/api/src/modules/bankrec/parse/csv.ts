import { parse } from 'csv-parse/sync';
import { amountToMinor, checkDate, exponentFor } from './amount';
import { StatementRefused } from './errors';
import { STATEMENT_MAX_ENTRIES, type ParsedEntry, type ParsedStatement } from './types';

export const CSV_DATE_FORMATS = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY', 'YYYYMMDD'] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];

/** A merchant's saved column mapping: the header names of its bank's CSV export. */
export interface CsvMapping {
  date: string;
  amount: string;
  currency: string | null;
  reference: string | null;
  counterparty: string | null;
  description: string | null;
  /** Used when no currency column is mapped (or a row leaves it blank). */
  defaultCurrency: string | null;
  decimal: '.' | ',';
  dateFormat: CsvDateFormat;
  delimiter: ',' | ';' | '\t';
  /** The account the export is of (CSV files seldom say). */
  account: string;
}

function dateOf(v: string, f: CsvDateFormat, line: number): string {
  const at = `line ${line}`;
  const s = v.trim();
  const m =
    f === 'YYYY-MM-DD'
      ? /^(\d{4})-(\d\d)-(\d\d)$/.exec(s)?.slice(1, 4)
      : f === 'YYYYMMDD'
        ? /^(\d{4})(\d\d)(\d\d)$/.exec(s)?.slice(1, 4)
        : f === 'DD.MM.YYYY'
          ? /^(\d\d)\.(\d\d)\.(\d{4})$/.exec(s)?.slice(1, 4).reverse()
          : f === 'DD/MM/YYYY'
            ? /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(s)?.slice(1, 4).reverse()
            : (() => {
                const x = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(s);
                return x ? [x[3], x[1], x[2]] : undefined;
              })();
  if (!m) throw new StatementRefused('bankCsvLine', { line, column: 'date', value: s.slice(0, 30) });
  return checkDate(`${m[0]}-${m[1]}-${m[2]}`, at);
}

/** '-1.234,56' (decimal ',') or '1,234.56' (decimal '.'): sign, thousands groups of the other mark, decimals. */
function amountOf(v: string, dec: '.' | ',', currency: string, line: number): number {
  const s = v.trim().replace(/\s/g, '');
  const other = dec === '.' ? ',' : '.';
  const m = /^([+-])?(\d+(?:[.,]\d{3})*)([.,]\d+)?$/.exec(s);
  if (!m || (m[3] && m[3][0] !== dec) || (m[2].includes(dec) && !m[3] && dec !== other)) {
    throw new StatementRefused('bankCsvLine', { line, column: 'amount', value: s.slice(0, 30) });
  }
  const whole = m[2];
  // Thousands marks must be the other mark, in groups of three.
  if (whole.includes(dec)) throw new StatementRefused('bankCsvLine', { line, column: 'amount', value: s.slice(0, 30) });
  const digits = whole.split(other).join('');
  const n = amountToMinor(`${digits}${m[3] ?? ''}`, currency, dec, `line ${line}`);
  return m[1] === '-' ? -n : n;
}

/** Reads a bank's CSV export with the merchant's mapping (header row first): one statement, no balances. */
export function parseCsv(text: string, map: CsvMapping): ParsedStatement {
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: map.delimiter, relax_column_count: false, skip_empty_lines: true, bom: true, trim: false });
  } catch (e) {
    const line = (e as { lines?: number }).lines ?? 0;
    throw new StatementRefused('bankCsvLine', { line, column: '-', value: String((e as Error).message).slice(0, 80) });
  }
  if (rows.length < 2) throw new StatementRefused('bankNoStatement', {});
  if (rows.length - 1 > STATEMENT_MAX_ENTRIES) throw new StatementRefused('bankTooManyEntries', { max: STATEMENT_MAX_ENTRIES });
  const header = rows[0].map((h) => h.trim());
  const col = (name: string | null, what: string, required: boolean) => {
    if (!name) {
      if (required) throw new StatementRefused('bankCsvColumn', { column: what });
      return -1;
    }
    const i = header.indexOf(name.trim());
    if (i < 0) throw new StatementRefused('bankCsvColumn', { column: name.slice(0, 40) });
    return i;
  };
  const ci = {
    date: col(map.date, 'date', true),
    amount: col(map.amount, 'amount', true),
    currency: col(map.currency, 'currency', false),
    reference: col(map.reference, 'reference', false),
    counterparty: col(map.counterparty, 'counterparty', false),
    description: col(map.description, 'description', false),
  };
  if (ci.currency < 0 && !map.defaultCurrency) throw new StatementRefused('bankCsvColumn', { column: 'currency' });
  const cell = (r: string[], i: number) => (i >= 0 ? (r[i] ?? '').trim() || null : null);
  const entries: ParsedEntry[] = rows.slice(1).map((r, k) => {
    const line = k + 2;
    const currency = (cell(r, ci.currency) ?? map.defaultCurrency ?? '').toUpperCase();
    try {
      exponentFor(currency, `line ${line}`);
    } catch {
      throw new StatementRefused('bankCsvLine', { line, column: 'currency', value: currency.slice(0, 10) });
    }
    return {
      amount: amountOf(r[ci.amount] ?? '', map.decimal, currency, line),
      currency,
      bookingDate: dateOf(r[ci.date] ?? '', map.dateFormat, line),
      valueDate: null,
      reference: cell(r, ci.reference),
      bankRef: null,
      counterparty: cell(r, ci.counterparty),
      description: cell(r, ci.description),
      reversal: false,
      at: `line ${line}`,
    };
  });
  const dates = entries.map((e) => e.bookingDate).sort();
  const currency = map.defaultCurrency ?? entries[0].currency;
  return {
    format: 'csv',
    statementId: null,
    account: map.account,
    currency,
    opening: null,
    closing: null,
    fromDate: dates[0],
    toDate: dates[dates.length - 1],
    entries,
    skippedNotBooked: 0,
    at: 'line 1',
  };
}
