import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { checkBalances } from './balance';
import { readStatementFile } from './detect';
import { StatementRefused } from './errors';
import type { ParsedStatement } from './types';

/**
 * Every real statement of apps/api/test/data/bank-statements (banks' files and open-source parsers'
 * test data, with their licences in its README) read by our parsers, compared with what that
 * parser's own tests expect: entry counts, amounts, dates, references — and the balance check's verdict.
 */
const DIR = path.resolve(import.meta.dirname, '../../../../test/data/bank-statements');
const read = (f: string) => readStatementFile(fs.readFileSync(path.join(DIR, f)), null);
const dateOf = (v: { 0: string } | null) => (v ? v[0].slice(0, 10) : null);
const refusal = (s: ParsedStatement) => {
  try {
    checkBalances(s);
    return null;
  } catch (e) {
    if (e instanceof StatementRefused) return { key: e.key, at: e.params.at };
    throw e;
  }
};

// genkgo/camt's expected files: its Message DTO serialised (PHP). Its getEntries lists the entries of
// the message's last statement (the serialiser drops the earlier ones as "recursion"); each carries
// its statement (getRecord.getId), so every expected entry is compared with ours of that statement.
describe.each([
  ['camt053-genkgo-v2-minimal', [1], [{ key: 'bankCurrencyDiffers', at: 'Document/BkToCstmrStmt/Stmt/Bal[2] (line 54) CLBD' }]],
  ['camt053-genkgo-v2-multi-statement', [1, 1], [null, null]],
  ['camt053-genkgo-v8', [1], [{ key: 'bankCurrencyDiffers', at: 'Document/BkToCstmrStmt/Stmt/Bal[2] (line 74) CLBD' }]],
] as const)('camt.053 %s (genkgo/camt test data)', (name, counts, verdicts) => {
  const ours = read(`${name}.xml`);
  const expected = JSON.parse(fs.readFileSync(path.join(DIR, `${name}.expected.json`), 'utf8'));

  it('reads every statement and entry', () => {
    expect(ours.map((s) => s.entries.length)).toEqual(counts);
    expect(ours.every((s) => s.account === 'NL26VAYB8060476890' && s.currency === 'EUR')).toBe(true);
  });

  it('equals the expected entries: amount, currency, dates, references', () => {
    expect(expected.getEntries.length).toBeGreaterThan(0);
    for (const e of expected.getEntries) {
      const stmt = ours.find((s) => s.statementId === e.getRecord.getId)!;
      expect(stmt).toBeDefined();
      const mine = stmt.entries[e.getIndex];
      expect(mine.amount).toBe(Number(e.getAmount.getAmount));
      expect(mine.currency).toBe(e.getAmount.getCurrency.getCode);
      expect(mine.bookingDate).toBe(dateOf(e.getBookingDate));
      expect(mine.valueDate).toBe(dateOf(e.getValueDate));
      expect(mine.reversal).toBe(!!e.getReversalIndicator);
      const td = e.getTransactionDetail;
      const theirRef = td.getReference?.getEndToEndId ?? td.getRemittanceInformation?.getCreditorReferenceInformation?.getRef ?? td.getRemittanceInformation?.getMessage ?? null;
      expect(mine.reference).toBe(theirRef);
      expect(mine.bankRef).toBe(e.getAccountServicerReference ?? e.getReference ?? null);
      const rec = e.getRecord;
      const bal = (type: string) => rec.getBalances.find((b: { getType: string }) => b.getType === type);
      expect(stmt.opening?.amount).toBe(Number(bal('opening').getAmount.getAmount));
      expect(stmt.closing?.amount).toBe(Number(bal('closing').getAmount.getAmount));
      expect(stmt.closing?.currency).toBe(bal('closing').getAmount.getCurrency.getCode);
    }
  });

  it("checks the balances: opening + entries = closing, or names the element (genkgo's closing balance is in SEK)", () => {
    expect(ours.map(refusal)).toEqual(verdicts);
  });
});

describe('camt.053 Goldman Sachs US sample (svapnil/iso20022.js test data)', () => {
  const [ours, ...more] = read('camt053-goldman-sachs-us-v2.xml');
  // iso20022.js's expected file is the document as fast-xml-parser read it (zone-less times were
  // taken in America/New_York and written in UTC). Our booking date is the day the bank wrote.
  const doc = JSON.parse(fs.readFileSync(path.join(DIR, 'camt053-goldman-sachs-us-v2.expected.json'), 'utf8')).Document.BkToCstmrStmt;
  const ny = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  // fast-xml-parser read number-like texts as numbers (losing leading zeros): such a value is
  // compared as a number; the text itself is ours.
  const same = (ours: string | null, theirs: unknown) => (typeof theirs === 'number' ? ours !== null && Number(ours) === theirs : ours === (theirs ?? null));
  const list = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

  it('one statement of 15 entries, as expected', () => {
    expect(more).toHaveLength(0);
    expect(ours.statementId).toBe(doc.Stmt[0].Id);
    expect(ours.account).toBe('DD01100056869');
    expect(ours.entries).toHaveLength(doc.Stmt[0].Ntry.length);
    expect(ours.entries).toHaveLength(15);
  });

  it('every entry: amount and sign, currency, booking date, reversal, references', () => {
    doc.Stmt[0].Ntry.forEach((n: any, i: number) => {
      const mine = ours.entries[i];
      const cents = Math.round(Number(n.Amt['#text']) * 100);
      expect(mine.amount, `entry ${i + 1}`).toBe(n.CdtDbtInd === 'DBIT' ? -cents : cents);
      expect(mine.currency).toBe(n.Amt['@_Ccy']);
      // A zone-less time was shifted from New York into UTC by that parser; one written in UTC was kept.
      expect([n.BookgDt.DtTm.slice(0, 10), ny(n.BookgDt.DtTm)]).toContain(mine.bookingDate);
      expect(mine.reversal).toBe(n.RvslInd === true);
      const tx = list(n.NtryDtls).map((d: any) => d.TxDtls)[0];
      expect(same(mine.bankRef, n.AcctSvcrRef ?? n.NtryRef)).toBe(true);
      const e2e = tx?.Refs?.EndToEndId;
      const ustrd = tx?.RmtInf?.Ustrd;
      expect(same(mine.reference, e2e ?? ustrd ?? null), `entry ${i + 1}: ${mine.reference} / ${e2e ?? ustrd}`).toBe(true);
    });
  });

  it('balances: the file is a sample (a EUR entry on a USD account, entries that do not add up) — refused, naming the entry', () => {
    expect(refusal(ours)).toEqual({ key: 'bankCurrencyDiffers', at: expect.stringMatching(/^Document\/BkToCstmrStmt\/Stmt\/Ntry\[8\] \(line \d+\)$/) });
  });
});

// wolph/mt940's expected files: its Transactions object (Python, YAML). Dates are Python `date`
// pickles (year high, year low, month, day).
describe.each([
  ['mt940-rabobank', [1, 0, 2, 2], [true, false, true, false]],
  ['mt940-abnamro', [8, 2], [true, true]],
] as const)('MT940 %s (wolph/mt940 test data)', (name, counts, unbalanced) => {
  const ours = read(`${name}.sta`);
  const expected = YAML.parse(fs.readFileSync(path.join(DIR, `${name}.expected.yml`), 'utf8'), { schema: 'yaml-1.1', logLevel: 'silent', maxAliasCount: -1 } as never);
  const pyDate = (d: [Uint8Array] | undefined) => {
    if (!d) return null;
    const b = d[0];
    return `${(b[0] << 8) + b[1]}-${String(b[2]).padStart(2, '0')}-${String(b[3]).padStart(2, '0')}`;
  };

  it('reads every statement and entry', () => {
    expect(ours.map((s) => s.entries.length)).toEqual(counts);
    expect(ours.flatMap((s) => s.entries)).toHaveLength(expected.transactions.length);
  });

  it('equals the expected transactions: amount, currency, value date, entry date, references, details', () => {
    const mine = ours.flatMap((s) => s.entries.map((e) => ({ e, s })));
    expected.transactions.forEach((t: any, i: number) => {
      const { e, s } = mine[i];
      const d = t.data;
      expect(e.amount, `transaction ${i + 1}`).toBe(Math.round(Number(d.amount.amount[0]) * 100));
      expect(e.currency).toBe(d.currency);
      expect(e.valueDate).toBe(pyDate(d.date));
      if (d.entry_date) expect(e.bookingDate).toBe(pyDate(d.entry_date));
      const ref = d.customer_reference.trim();
      expect(e.reference).toBe(ref === 'NONREF' ? null : ref);
      expect(e.bankRef).toBe(d.bank_reference);
      expect(e.counterparty).toBe(d.extra_details || null);
      expect(e.description).toBe(d.transaction_details);
      expect(s.statementId?.startsWith(`${d.transaction_reference}/`)).toBe(true);
    });
  });

  it('balances: statements that do not add up are refused naming their closing balance line', () => {
    expect(ours.map((s) => refusal(s)?.key === 'bankBalanceMismatch')).toEqual(unbalanced);
    for (const s of ours) if (refusal(s)) expect(refusal(s)!.at).toMatch(/^line \d+ :62[FM]:$/);
  });

  it('the balances equal the expected file’s (its last final :60F:/:62F: and intermediate :60M:/:62M: ones)', () => {
    const cents = (b: any) => Math.round(Number(b.amount.amount[0]) * 100);
    const lastWith = (side: 'opening' | 'closing', tag: string) => ours.filter((s) => s[side]!.at.endsWith(`:${tag}:`)).at(-1)?.[side]!.amount;
    expect(lastWith('opening', '60F')).toBe(cents(expected.data.final_opening_balance));
    expect(lastWith('closing', '62F')).toBe(cents(expected.data.final_closing_balance));
    if (expected.data.intermediate_opening_balance) expect(lastWith('opening', '60M')).toBe(cents(expected.data.intermediate_opening_balance));
    if (expected.data.intermediate_closing_balance) expect(lastWith('closing', '62M')).toBe(cents(expected.data.intermediate_closing_balance));
  });
});
