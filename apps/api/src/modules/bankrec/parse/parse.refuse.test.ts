import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBalances } from './balance';
import { parseCsv, type CsvMapping } from './csv';
import { readStatementFile } from './detect';
import { StatementRefused } from './errors';
import { STATEMENT_MAX_BYTES } from './types';

const DIR = path.resolve(import.meta.dirname, '../../../../test/data/bank-statements');
const multi = fs.readFileSync(path.join(DIR, 'camt053-genkgo-v2-multi-statement.xml'), 'utf8');
const enc = (s: string) => new TextEncoder().encode(s);
const refusedWith = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatementRefused) return { key: e.key, ...e.params };
    throw e;
  }
  throw new Error('not refused');
};

describe('statement files refused cleanly', () => {
  it('billion laughs: any DOCTYPE is refused before an entity is expanded', () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>&lol9;</Id></Stmt></BkToCstmrStmt></Document>`;
    const t0 = Date.now();
    expect(refusedWith(() => readStatementFile(enc(laughs), null))).toMatchObject({ key: 'bankXmlDoctype', line: 2 });
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('an external entity (file or URL) is refused, nothing read', () => {
    for (const sys of ['file:///etc/passwd', 'http://127.0.0.1:1/x']) {
      const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "${sys}">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>&x;</Id></Stmt></BkToCstmrStmt></Document>`;
      expect(refusedWith(() => readStatementFile(enc(xxe), null)).key).toBe('bankXmlDoctype');
    }
  });

  it('an entity not declared is malformed XML (line named)', () => {
    const x = multi.replace('<MsgId>', '<MsgId>&boom;');
    expect(refusedWith(() => readStatementFile(enc(x), null))).toMatchObject({ key: 'bankXmlMalformed', line: 5 });
  });

  it('unbalanced tags: malformed, with the line', () => {
    expect(refusedWith(() => readStatementFile(enc(multi.replace('</Stmt>', '</Stmtx>')), null))).toMatchObject({ key: 'bankXmlMalformed' });
  });

  it.each(['camt.053.001.01', 'camt.052.001.02', 'camt.054.001.08', 'pain.001.001.03'])('an unknown version or message (%s) is refused', (v) => {
    expect(refusedWith(() => readStatementFile(enc(multi.replace('camt.053.001.02', v)), null))).toMatchObject({ key: 'bankCamtVersion' });
  });

  it.each(['02', '03', '04', '05', '06', '07', '08'])('camt.053.001.%s reads the same statements', (v) => {
    const s = readStatementFile(enc(multi.replace('camt.053.001.02', `camt.053.001.${v}`)), null);
    expect(s.map((x) => [x.statementId, x.entries.map((e) => e.amount)])).toEqual([
      ['253EURNL26VAYB8060476890', [885]],
      ['254EURNL26VAYB8060476890', [-700]],
    ]);
    for (const x of s) checkBalances(x);
  });

  it('wrong encodings: UTF-16, Latin-1 bytes, a declared ISO-8859-1', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(multi, 'utf16le')]);
    expect(refusedWith(() => readStatementFile(utf16, null))).toMatchObject({ key: 'bankFileEncoding', encoding: 'UTF-16' });
    const latin1 = Buffer.from(multi.replace('COMPANY BVBA', 'SOCIÉTÉ'), 'latin1');
    expect(refusedWith(() => readStatementFile(latin1, null)).key).toBe('bankFileEncoding');
    expect(refusedWith(() => readStatementFile(enc(multi.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')), null))).toMatchObject({ key: 'bankFileEncoding', encoding: 'ISO-8859-1' });
    const mt = Buffer.from(':20:X\n:25:1\n:28C:1\n:60F:C240101EUR1,00\n:86:Müller\n:62F:C240101EUR1,00\n', 'latin1');
    expect(refusedWith(() => readStatementFile(mt, null)).key).toBe('bankFileEncoding');
  });

  it(`a file over ${STATEMENT_MAX_BYTES / 1024 / 1024} MiB is refused before it is read`, () => {
    expect(refusedWith(() => readStatementFile(new Uint8Array(STATEMENT_MAX_BYTES + 1), null))).toMatchObject({ key: 'bankFileTooLarge', max: '32 MiB' });
  });

  it('balances that do not add up are refused, naming the closing balance and the figures', () => {
    const [s] = readStatementFile(enc(multi.replace('<Amt Ccy="EUR">8.85</Amt>', '<Amt Ccy="EUR">8.84</Amt>')), null);
    expect(refusedWith(() => checkBalances(s))).toMatchObject({
      key: 'bankBalanceMismatch',
      opening: '18.15',
      entries: '8.84',
      expected: '26.99',
      closing: '27.00',
      currency: 'EUR',
      at: expect.stringContaining('Stmt/Bal[2] (line 54) CLBD'),
    });
  });

  it('an amount with more decimals than its currency has, or not a number: the element is named', () => {
    expect(refusedWith(() => readStatementFile(enc(multi.replace('8.85</Amt>', '8.851</Amt>')), null))).toMatchObject({ key: 'bankElementInvalid', at: expect.stringContaining('Ntry/Amt (line 67)') });
    expect(refusedWith(() => readStatementFile(enc(multi.replace('8.85</Amt>', '8,85</Amt>')), null))).toMatchObject({ key: 'bankElementInvalid', value: '8,85' });
    expect(refusedWith(() => readStatementFile(enc(multi.replace('<Dt>2014-12-31</Dt>', '<Dt>2014-02-30</Dt>')), null)).key).toBe('bankElementInvalid');
  });

  it('a missing element is named', () => {
    expect(refusedWith(() => readStatementFile(enc(multi.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '')), null))).toMatchObject({ key: 'bankElementMissing', element: 'CdtDbtInd' });
  });

  it('MT940: a malformed :61: or balance line is refused with its line; a missing tag is named', () => {
    const ok = ':20:REF1\n:25:NL01BANK0123456789\n:28C:1/1\n:60F:C240101EUR100,00\n:61:2401020102C50,00NTRFPAYOUT-1//B1\n:86:Payout\n:62F:C240102EUR150,00\n';
    const [s] = readStatementFile(enc(ok), null);
    checkBalances(s);
    expect(s.entries[0]).toMatchObject({ amount: 5000, reference: 'PAYOUT-1', bankRef: 'B1', bookingDate: '2024-01-02', valueDate: '2024-01-02' });
    expect(refusedWith(() => readStatementFile(enc(ok.replace('C50,00NTRF', 'C50.00NTRF')), null))).toMatchObject({ key: 'bankMt940Line', line: 5, tag: '61' });
    expect(refusedWith(() => readStatementFile(enc(ok.replace(':60F:C240101EUR100,00', ':60F:X240101EUR100,00')), null))).toMatchObject({ key: 'bankMt940Line', line: 4, tag: '60F' });
    expect(refusedWith(() => readStatementFile(enc(ok.replace(':25:NL01BANK0123456789\n', '')), null))).toMatchObject({ key: 'bankMt940TagMissing', tag: ':25:' });
    const [bad] = readStatementFile(enc(ok.replace(':62F:C240102EUR150,00', ':62F:C240102EUR151,00')), null);
    expect(refusedWith(() => checkBalances(bad))).toMatchObject({ key: 'bankBalanceMismatch', at: 'line 7 :62F:' });
  });

  it('not a statement at all: refused', () => {
    expect(refusedWith(() => readStatementFile(enc('hello,world\n1,2\n'), null)).key).toBe('bankFileUnknownFormat');
  });
});

describe('CSV with a saved column mapping', () => {
  const map = (over: Partial<CsvMapping> = {}): CsvMapping => ({
    date: 'Buchungstag',
    amount: 'Betrag',
    currency: 'Währung',
    reference: 'Verwendungszweck',
    counterparty: 'Auftraggeber',
    description: null,
    defaultCurrency: null,
    decimal: ',',
    dateFormat: 'DD.MM.YYYY',
    delimiter: ';',
    account: 'DE02120300000000202051',
    ...over,
  });

  it('decimal comma, thousands dots, DD.MM.YYYY', () => {
    const s = parseCsv('Buchungstag;Betrag;Währung;Verwendungszweck;Auftraggeber\n02.01.2024;1.234,56;EUR;PAYOUT 2024-01-01;Acquirer GmbH\n03.01.2024;-7,00;EUR;;Bank\n', map());
    expect(s.entries.map((e) => [e.bookingDate, e.amount, e.currency, e.reference, e.counterparty])).toEqual([
      ['2024-01-02', 123456, 'EUR', 'PAYOUT 2024-01-01', 'Acquirer GmbH'],
      ['2024-01-03', -700, 'EUR', null, 'Bank'],
    ]);
    expect([s.fromDate, s.toDate, s.opening]).toEqual(['2024-01-02', '2024-01-03', null]);
  });

  it('decimal dot, thousands commas, a default currency, JPY without decimals', () => {
    const s = parseCsv(
      'date,amount,ref\n2024-01-02,"1,234.50",A\n',
      map({ date: 'date', amount: 'amount', currency: null, reference: 'ref', counterparty: null, defaultCurrency: 'USD', decimal: '.', dateFormat: 'YYYY-MM-DD', delimiter: ',' }),
    );
    expect(s.entries[0]).toMatchObject({ amount: 123450, currency: 'USD' });
    const j = parseCsv(
      'date,amount\n2024-01-02,5000\n',
      map({ date: 'date', amount: 'amount', currency: null, reference: null, counterparty: null, defaultCurrency: 'JPY', decimal: '.', dateFormat: 'YYYY-MM-DD', delimiter: ',' }),
    );
    expect(j.entries[0].amount).toBe(5000);
  });

  it('refused: a mapped column missing from the header, a bad amount or date (line named)', () => {
    const csv = 'Buchungstag;Betrag;Währung;Verwendungszweck;Auftraggeber\n02.01.2024;12,5x;EUR;;\n';
    expect(refusedWith(() => parseCsv(csv, map({ amount: 'Umsatz' })))).toMatchObject({ key: 'bankCsvColumn', column: 'Umsatz' });
    expect(refusedWith(() => parseCsv(csv, map()))).toMatchObject({ key: 'bankCsvLine', line: 2, column: 'amount' });
    expect(refusedWith(() => parseCsv(csv.replace('12,5x', '1.5'), map()))).toMatchObject({ key: 'bankCsvLine', line: 2, column: 'amount' });
    expect(refusedWith(() => parseCsv(csv.replace('12,5x', '12,50').replace('02.01.2024', '2024-01-02'), map()))).toMatchObject({ key: 'bankCsvLine', line: 2, column: 'date' });
    expect(refusedWith(() => parseCsv(csv.replace('12,5x', '12,50').replace(';EUR;', ';EURO;'), map()))).toMatchObject({ key: 'bankCsvLine', line: 2, column: 'currency' });
  });
});
