import { amountToMinor, checkDate, exponentFor } from './amount';
import { StatementRefused } from './errors';
import { STATEMENT_MAX_ENTRIES, type ParsedBalance, type ParsedEntry, type ParsedStatement } from './types';

interface Tag {
  tag: string;
  value: string;
  line: number;
}

const TAG_RE = /^:(\d{2}[A-Z]?):(.*)$/;
const BALANCE_RE = /^([CD])(\d{6})([A-Z]{3})(\d{1,15}(?:,\d*)?)$/;
// :61: value date, [entry date MMDD], mark (C, D, RC, RD), [funds code], amount, type code (N/S/F + 3), then references.
const LINE61_RE = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d{1,15},\d*)([NSF][A-Z0-9]{3})(.*)$/;

/** YYMMDD → YYYY-MM-DD (00–79 → 20xx, 80–99 → 19xx, the SWIFT convention). */
function yymmdd(s: string, at: string): string {
  const yy = Number(s.slice(0, 2));
  return checkDate(`${yy < 80 ? 2000 + yy : 1900 + yy}-${s.slice(2, 4)}-${s.slice(4, 6)}`, at);
}

function balance(t: Tag): ParsedBalance {
  const at = `line ${t.line} :${t.tag}:`;
  const m = BALANCE_RE.exec(t.value.trim());
  if (!m) throw new StatementRefused('bankMt940Line', { line: t.line, tag: t.tag });
  const v = amountToMinor(m[4], m[3], ',', at);
  return { amount: m[1] === 'D' ? -v : v, currency: m[3], date: yymmdd(m[2], at), at };
}

/** The lines of a SWIFT MT940 file as tags (continuation lines joined with '\n'), one array per statement (:20:). */
function messagesOf(text: string): Tag[][] {
  const out: Tag[][] = [];
  let cur: Tag[] | null = null;
  let last: Tag | null = null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    // SWIFT envelope blocks ({1:…}{2:…}{4:) and the end mark (-}) around the text block.
    const line = raw.replace(/^(\{[1-3]:[^}]*\})+(\{4:)?/, '').replace(/^\{4:$/, '');
    if (line === '-' || line === '-}' || line === '}') {
      last = null;
      cur = null;
      return;
    }
    const m = TAG_RE.exec(line);
    if (m) {
      if (m[1] === '20') {
        cur = [];
        out.push(cur);
      }
      if (!cur) {
        last = null;
        return; // header before the first :20: (":940:", the sender's BIC lines)
      }
      last = { tag: m[1], value: m[2], line: lineNo };
      cur.push(last);
      return;
    }
    if (!line.trim()) return;
    if (last) last.value += `\n${line}`;
    // Anything else before a statement is the bank's header (BIC, "940"); inside one, refused.
    else if (cur) throw new StatementRefused('bankMt940Line', { line: lineNo, tag: '?' });
  });
  return out;
}

function entryOf(t: Tag, info: string | null, currency: string): ParsedEntry {
  const at = `line ${t.line} :61:`;
  const [first, ...rest] = t.value.split('\n');
  const m = LINE61_RE.exec(first);
  if (!m) throw new StatementRefused('bankMt940Line', { line: t.line, tag: '61' });
  const valueDate = yymmdd(m[1], at);
  let bookingDate = valueDate;
  if (m[2]) {
    // The entry date (MMDD) takes the value date's year, or the next/previous one across a year's end.
    const y = Number(valueDate.slice(0, 4));
    const mm = Number(m[2].slice(0, 2));
    const vm = Number(valueDate.slice(5, 7));
    const year = mm === 1 && vm === 12 ? y + 1 : mm === 12 && vm === 1 ? y - 1 : y;
    bookingDate = checkDate(`${year}-${m[2].slice(0, 2)}-${m[2].slice(2, 4)}`, at);
  }
  const v = amountToMinor(m[5], currency, ',', at);
  // C / RD (reversal of a debit) bring money in; D / RC take it out.
  const credit = m[3] === 'C' || m[3] === 'RD';
  let refPart = m[7];
  let bankRef: string | null = null;
  let extra = '';
  const dbl = refPart.indexOf('//');
  if (dbl >= 0) {
    bankRef = refPart.slice(dbl + 2, dbl + 18).trim() || null;
    extra = refPart.slice(dbl + 18).trim();
    refPart = refPart.slice(0, dbl);
  } else {
    extra = refPart.slice(16).trim();
    refPart = refPart.slice(0, 16);
  }
  const supplementary = rest.join(' ').trim();
  const ref = refPart.trim();
  return {
    amount: credit ? v : -v,
    currency,
    bookingDate,
    valueDate,
    reference: ref && ref !== 'NONREF' ? ref : null,
    bankRef,
    counterparty: extra || supplementary || null,
    description: info,
    reversal: m[3].startsWith('R'),
    at,
  };
}

/** Reads a SWIFT MT940 file: one ParsedStatement per :20: message. */
export function parseMt940(text: string): ParsedStatement[] {
  const msgs = messagesOf(text);
  if (!msgs.length) throw new StatementRefused('bankNoStatement', {});
  let count = 0;
  return msgs.map((tags) => {
    const one = (names: string[]) => tags.find((t) => names.includes(t.tag));
    const head = tags[0];
    const need = (names: string[]) => {
      const t = one(names);
      if (!t) throw new StatementRefused('bankMt940TagMissing', { line: head.line, tag: names.map((n) => `:${n}:`).join(' / ') });
      return t;
    };
    const ref = head.value.trim();
    const account = need(['25']).value.trim();
    const seq = need(['28C', '28']).value.trim();
    const opening = balance(need(['60F', '60M']));
    const closing = balance(need(['62F', '62M']));
    exponentFor(opening.currency, opening.at);
    const entries: ParsedEntry[] = [];
    tags.forEach((t, i) => {
      if (t.tag !== '61') return;
      if (++count > STATEMENT_MAX_ENTRIES) throw new StatementRefused('bankTooManyEntries', { max: STATEMENT_MAX_ENTRIES });
      // The :86: lines right after a :61: describe it (several are joined by a line break).
      const info: string[] = [];
      for (let j = i + 1; j < tags.length && tags[j].tag === '86'; j++) info.push(tags[j].value);
      entries.push(entryOf(t, info.length ? info.join('\n') : null, opening.currency));
    });
    return {
      format: 'mt940',
      statementId: `${ref}/${seq}`,
      account,
      currency: opening.currency,
      opening,
      closing,
      fromDate: opening.date,
      toDate: closing.date,
      entries,
      skippedNotBooked: 0,
      at: `line ${head.line} :20:`,
    } satisfies ParsedStatement;
  });
}
