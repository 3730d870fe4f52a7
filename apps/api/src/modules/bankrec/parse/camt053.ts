import { amountToMinor, checkDate } from './amount';
import { StatementRefused } from './errors';
import { STATEMENT_MAX_ENTRIES, type ParsedBalance, type ParsedEntry, type ParsedStatement } from './types';
import { all, get, parseXml, textAt, where, type XmlNode } from './xml';

/** The camt.053.001 versions read (their Stmt, Bal and Ntry elements share the fields used here). */
export const CAMT053_VERSIONS = ['02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13'] as const;
const NS_RE = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d\d)$/;

/** The version of a camt.053 document's namespace ('02' … '13'), else refused. */
function versionOf(doc: XmlNode): string {
  if (doc.name !== 'Document') throw new StatementRefused('bankElementMissing', { at: 'Document', element: 'Document' });
  const m = NS_RE.exec(doc.ns);
  if (!m || !(CAMT053_VERSIONS as readonly string[]).includes(m[1])) throw new StatementRefused('bankCamtVersion', { version: doc.ns || '(no namespace)' });
  return m[1];
}

function need(n: XmlNode | undefined, path: string, parent: XmlNode): XmlNode {
  const x = get(n, path);
  if (!x || !x.text.trim()) throw new StatementRefused('bankElementMissing', { at: where(parent), element: path });
  return x;
}

/** Dt or DtTm inside `n` → the date as the bank wrote it (YYYY-MM-DD). */
function dateIn(n: XmlNode | undefined): string | null {
  if (!n) return null;
  const d = textAt(n, 'Dt');
  if (d) return checkDate(d, where(get(n, 'Dt')!));
  const dt = textAt(n, 'DtTm');
  if (dt) {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(dt)) throw new StatementRefused('bankElementInvalid', { at: where(get(n, 'DtTm')!), value: dt.slice(0, 40) });
    return checkDate(dt.slice(0, 10), where(get(n, 'DtTm')!));
  }
  return null;
}

/** Amt with its Ccy attribute and CdtDbtInd beside it → signed minor units. */
function signedAmount(n: XmlNode): { amount: number; currency: string } {
  const amt = need(n, 'Amt', n);
  const currency = amt.attrs.Ccy ?? '';
  if (!currency) throw new StatementRefused('bankElementMissing', { at: where(amt), element: 'Amt/@Ccy' });
  const v = amountToMinor(amt.text, currency, '.', where(amt));
  const ind = need(n, 'CdtDbtInd', n);
  const s = ind.text.trim();
  if (s !== 'CRDT' && s !== 'DBIT') throw new StatementRefused('bankElementInvalid', { at: where(ind), value: s.slice(0, 10) });
  return { amount: s === 'DBIT' ? -v : v, currency };
}

const partyName = (p: XmlNode | undefined) => textAt(p, 'Nm') ?? textAt(p, 'Pty/Nm');

function entryOf(e: XmlNode, accountCurrency: string): ParsedEntry | null {
  const status = textAt(e, 'Sts/Cd') ?? textAt(e, 'Sts');
  if (status && status !== 'BOOK') return null;
  const { amount, currency } = signedAmount(e);
  const bookingDate = dateIn(get(e, 'BookgDt')) ?? dateIn(get(e, 'ValDt'));
  if (!bookingDate) throw new StatementRefused('bankElementMissing', { at: where(e), element: 'BookgDt' });
  const txs = all(e, 'NtryDtls').flatMap((d) => all(d, 'TxDtls'));
  const refs: string[] = [];
  const texts: string[] = [];
  let counterparty: string | null = null;
  for (const tx of txs) {
    const r = textAt(tx, 'Refs/EndToEndId');
    if (r && r !== 'NOTPROVIDED') refs.push(r);
    for (const s of all(get(tx, 'RmtInf'), 'Strd')) {
      const cr = textAt(s, 'CdtrRefInf/Ref');
      if (cr) refs.push(cr);
    }
    for (const u of all(get(tx, 'RmtInf'), 'Ustrd')) if (u.text.trim()) texts.push(u.text.trim());
    // The other party: the debtor of a credit, the creditor of a debit.
    counterparty ??= amount >= 0 ? partyName(get(tx, 'RltdPties/Dbtr')) : partyName(get(tx, 'RltdPties/Cdtr'));
  }
  const info = textAt(e, 'AddtlNtryInf');
  if (info) texts.push(info);
  const reversal = textAt(e, 'RvslInd') === 'true';
  return {
    amount,
    currency: currency || accountCurrency,
    bookingDate,
    valueDate: dateIn(get(e, 'ValDt')),
    reference: refs[0] ?? texts[0] ?? null,
    bankRef: textAt(e, 'AcctSvcrRef') ?? textAt(e, 'NtryRef') ?? (txs[0] ? textAt(txs[0], 'Refs/AcctSvcrRef') : null),
    counterparty,
    description: texts.length ? texts.join('\n').slice(0, 1000) : null,
    reversal,
    at: where(e),
  };
}

function balanceOf(stmt: XmlNode, codes: string[]): ParsedBalance | null {
  for (const code of codes) {
    const b = all(stmt, 'Bal').find((x) => (textAt(x, 'Tp/CdOrPrtry/Cd') ?? textAt(x, 'Tp/CdOrPrtry/Prtry')) === code);
    if (b) {
      const { amount, currency } = signedAmount(b);
      const date = dateIn(get(b, 'Dt'));
      if (!date) throw new StatementRefused('bankElementMissing', { at: where(b), element: 'Dt' });
      return { amount, currency, date, at: `${where(b)} ${code}` };
    }
  }
  return null;
}

/** Reads an ISO 20022 camt.053 (BankToCustomerStatement) file: one ParsedStatement per Stmt. */
export function parseCamt053(text: string): ParsedStatement[] {
  const doc = parseXml(text);
  versionOf(doc);
  const body = get(doc, 'BkToCstmrStmt');
  if (!body) throw new StatementRefused('bankElementMissing', { at: where(doc), element: 'BkToCstmrStmt' });
  const stmts = all(body, 'Stmt');
  if (!stmts.length) throw new StatementRefused('bankNoStatement', {});
  let count = 0;
  return stmts.map((s) => {
    const id = need(s, 'Id', s).text.trim();
    const acct = get(s, 'Acct');
    const account = textAt(acct, 'Id/IBAN') ?? textAt(acct, 'Id/Othr/Id');
    if (!account) throw new StatementRefused('bankElementMissing', { at: where(s), element: 'Acct/Id' });
    const opening = balanceOf(s, ['OPBD', 'PRCD']);
    const closing = balanceOf(s, ['CLBD']);
    const currency = textAt(acct, 'Ccy') ?? opening?.currency ?? closing?.currency ?? '';
    const ntries = all(s, 'Ntry');
    count += ntries.length;
    if (count > STATEMENT_MAX_ENTRIES) throw new StatementRefused('bankTooManyEntries', { max: STATEMENT_MAX_ENTRIES });
    const entries: ParsedEntry[] = [];
    let skipped = 0;
    for (const e of ntries) {
      const x = entryOf(e, currency);
      if (x) entries.push(x);
      else skipped++;
    }
    const fr = textAt(s, 'FrToDt/FrDtTm');
    const to = textAt(s, 'FrToDt/ToDtTm');
    return {
      format: 'camt053',
      statementId: id,
      account,
      currency: currency || (entries[0]?.currency ?? ''),
      opening,
      closing,
      fromDate: fr ? checkDate(fr.slice(0, 10), `${where(s)} FrToDt`) : null,
      toDate: to ? checkDate(to.slice(0, 10), `${where(s)} FrToDt`) : null,
      entries,
      skippedNotBooked: skipped,
      at: where(s),
    } satisfies ParsedStatement;
  });
}
