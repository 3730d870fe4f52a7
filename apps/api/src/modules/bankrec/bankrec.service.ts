import { createHash } from 'node:crypto';
import {
  Code,
  bankCsvMappingSchema,
  type BankCsvMapping,
  type BankEntry,
  type BankImportResult,
  type BankMatch,
  type BankMatching,
  type BankStatementRow,
  type BankTransfer,
  type Language,
} from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import type { Db, Queryable } from '../../db/db';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { formatAt as formatInZone, type Zone } from './time';
import { minorToText } from './parse/amount';
import { checkBalances } from './parse/balance';
import { readStatementFile } from './parse/detect';
import { StatementRefused } from './parse/errors';
import type { ParsedStatement } from './parse/types';
import { explainCredit, explainTransfer, proposeMatches, signatureOf, transferIdsIn, WINDOW_AFTER, WINDOW_BEFORE, type Why } from './match';
import * as repo from './bankrec.repo';

/** Audit actions of bank statements and matching. */
export const BankAudit = {
  importStatement: 'bankrec.statement.import',
  refuseStatement: 'bankrec.statement.refused',
  confirm: 'bankrec.match.confirm',
  undo: 'bankrec.match.undo',
  dismiss: 'bankrec.match.dismiss',
  manual: 'bankrec.match.manual',
  csvMapping: 'bankrec.csv_mapping',
} as const;

export interface Meta {
  ip?: string;
  userAgent?: string;
}

const refusal = (e: StatementRefused) => new AppError(Code.BAD_REQUEST, e.key, e.params, 400);
const money = (minor: number | string, cur: string) => minorToText(Number(minor), cur);
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The merchant a call acts for: the one asked for when in scope (else absent), or the caller's own. */
function merchantOf(user: SessionUser, merId: string | undefined): string {
  const m = merId ?? user.merId;
  if (!user.scope.includes(m)) throw notFound();
  return m;
}
const merchantsOf = (user: SessionUser, merId: string | undefined) => (merId ? (user.scope.includes(merId) ? [merId] : []) : user.scope);

/** The statement's content, hashed: the same statement uploaded again is known by it. */
function contentHash(s: ParsedStatement): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([s.format, s.account, s.currency, s.opening?.amount ?? null, s.closing?.amount ?? null, s.fromDate, s.toDate]));
  for (const e of s.entries) h.update(JSON.stringify([e.amount, e.currency, e.bookingDate, e.valueDate, e.reference, e.bankRef, e.counterparty, e.description, e.reversal]));
  return h.digest('hex');
}

/**
 * An entry's identity across statements (overlapping statements carry it once): the bank's own
 * reference when it gives one, else its figures and text, numbered when a statement repeats them.
 */
function fingerprints(s: ParsedStatement): string[] {
  const seen = new Map<string, number>();
  return s.entries.map((e) => {
    const base = e.bankRef
      ? `ref|${e.bankRef}|${e.amount}|${e.currency}`
      : `fig|${e.bookingDate}|${e.valueDate ?? ''}|${e.amount}|${e.currency}|${e.reference ?? ''}|${e.counterparty ?? ''}|${e.description ?? ''}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return createHash('sha256').update(`${base}|${n}`).digest('hex').slice(0, 40);
  });
}

async function csvMappingOf(q: Queryable, merId: string): Promise<BankCsvMapping | null> {
  const m = await repo.getCsvMapping(q, merId);
  const p = m ? bankCsvMappingSchema.safeParse(m) : null;
  return p?.success ? p.data : null;
}

/**
 * Imports a statement file for a merchant: read, checked (balances: refused unless the uploader
 * accepts the difference, which is kept on the statement and audited), stored once (the same
 * statement again adds nothing; an entry already on an overlapping statement is not added
 * again), then the matcher runs. All statements of the file or none.
 */
export async function importStatementFile(
  deps: Deps,
  user: SessionUser,
  input: { merId?: string; fileName: string; buf: Uint8Array; acceptUnbalanced: boolean; lang: Language },
  meta: Meta,
): Promise<BankImportResult> {
  const merId = merchantOf(user, input.merId);
  const fail = async (e: StatementRefused) => {
    await audit(deps.db, {
      action: BankAudit.refuseStatement,
      outcome: 'failure',
      userId: user.id,
      username: user.username,
      merId,
      target: `bankrec:${input.fileName.slice(0, 100)}`,
      detail: { reason: e.key, params: e.params },
      ...meta,
    });
    return refusal(e);
  };
  let parsed: ParsedStatement[];
  const notes: BankImportResult['statements'][number]['balanceNote'][] = [];
  try {
    parsed = readStatementFile(input.buf, await csvMappingOf(deps.db, merId));
    for (const s of parsed) {
      try {
        checkBalances(s);
        notes.push(null);
      } catch (e) {
        if (!(e instanceof StatementRefused) || !input.acceptUnbalanced) throw e;
        notes.push({ key: e.key, params: e.params, text: t(input.lang, e.key, e.params) });
      }
    }
  } catch (e) {
    if (e instanceof StatementRefused) throw await fail(e);
    throw e;
  }
  const out: BankImportResult['statements'] = [];
  await deps.db.tx(async (q) => {
    await repo.lockMerchant(q, merId);
    for (const [i, s] of parsed.entries()) {
      const hash = contentHash(s);
      const ref = s.statementId ?? `csv:${hash.slice(0, 24)}`;
      const known = await repo.statementByRef(q, merId, s.account, ref);
      if (known) {
        if (known.hash !== hash) throw new AppError(Code.BAD_REQUEST, 'bankStatementChanged', { ref, account: s.account }, 400);
        out.push({ id: known.id, stmtRef: ref, outcome: 'duplicate', entries: s.entries.length, added: 0, overlapping: s.entries.length, balanceNote: notes[i] });
        continue;
      }
      const id = await repo.insertStatement(q, {
        merId,
        format: s.format,
        ref,
        account: s.account,
        currency: s.currency,
        from: s.fromDate,
        to: s.toDate,
        opening: s.opening?.amount ?? null,
        closing: s.closing?.amount ?? null,
        hash,
        note: notes[i],
        fileName: input.fileName.slice(0, 200),
        entries: s.entries.length,
        userId: user.id,
        username: user.username,
      });
      const fps = fingerprints(s);
      const added = await repo.insertEntries(
        q,
        merId,
        id,
        s.account,
        s.entries.map((e, k) => ({ ...e, fingerprint: fps[k], description: e.description?.slice(0, 1000) ?? null })),
      );
      out.push({ id, stmtRef: ref, outcome: 'imported', entries: s.entries.length, added, overlapping: s.entries.length - added, balanceNote: notes[i] });
    }
    await audit(q, {
      action: BankAudit.importStatement,
      userId: user.id,
      username: user.username,
      merId,
      target: `bankrec:${input.fileName.slice(0, 100)}`,
      detail: {
        format: parsed[0]?.format,
        acceptedUnbalanced: notes.some((n) => n),
        statements: out.map((o) => ({ id: o.id, ref: o.stmtRef, outcome: o.outcome, added: o.added, balance: o.balanceNote?.key ?? null })),
      },
      ...meta,
    });
  });
  const proposed = await runMatching(deps.db, merId);
  return { statements: out, proposed };
}

/**
 * Runs the matcher over the merchant's unmatched credits and transfers and stores its proposals
 * (serialised per merchant with the imports; no network call inside).
 */
export async function runMatching(db: Db, merId: string): Promise<number> {
  return db.tx(async (q) => {
    await repo.lockMerchant(q, merId);
    const credits = (await repo.freeCredits(q, [merId])).map(repo.toCredit);
    if (!credits.length) return 0;
    const dates = credits.map((c) => c.date).sort();
    const transfers = (await repo.freeTransfers(q, [merId], addDays(dates[0], -WINDOW_AFTER), addDays(dates[dates.length - 1], WINDOW_BEFORE))).map(repo.toTransfer);
    // Transfers a credit names by id may lie outside the window: fetched by key.
    const have = new Set(transfers.map((x) => x.id));
    const named = [...new Set(credits.flatMap(transferIdsIn))]
      .filter((i) => !have.has(i))
      .map(repo.keyOfTransferId)
      .filter((k) => !!k);
    for (const r of await repo.transfersByKey(q, [merId], named)) if (!r.taken) transfers.push(repo.toTransfer(r));
    const proposals = proposeMatches(credits, transfers, await repo.dismissedSignatures(q, merId));
    await repo.insertMatches(
      q,
      proposals.map((p) => ({ ...p, merId, state: 'proposed' as const })),
    );
    return proposals.length;
  });
}

export async function listStatementRows(
  deps: Deps,
  user: SessionUser,
  query: { merId?: string; page: number; size: number },
  zone: Zone,
): Promise<{ content: BankStatementRow[]; totalElements: number }> {
  const mers = merchantsOf(user, query.merId);
  if (!mers.length) return { content: [], totalElements: 0 };
  const { rows, total } = await repo.listStatements(deps.db.read, mers, query.page, query.size);
  return {
    totalElements: total,
    content: rows.map((r) => ({
      id: Number(r.id),
      merId: r.mer_id,
      format: r.format,
      stmtRef: r.stmt_ref,
      account: r.account,
      currency: r.currency,
      fromDate: r.from_date,
      toDate: r.to_date,
      opening: r.opening_minor === null ? null : money(r.opening_minor, r.currency),
      closing: r.closing_minor === null ? null : money(r.closing_minor, r.currency),
      balanceNote: r.balance_note,
      fileName: r.file_name,
      entryCount: r.entry_count,
      addedCount: r.added_count,
      credits: r.credits,
      matched: r.matched,
      uploadedBy: r.uploaded_name,
      uploadedAt: formatInZone(r.created_at, zone),
    })),
  };
}

const entryOut = (e: repo.EntryDbRow): BankEntry => ({
  id: Number(e.id),
  statementId: Number(e.statement_id),
  bookingDate: e.booking_date,
  amount: money(e.amount_minor, e.currency),
  currency: e.currency,
  reference: e.reference,
  counterparty: e.counterparty,
  description: e.description,
});
const transferOut = (x: repo.TransferDbRow): BankTransfer => ({
  id: repo.transferIdOf(x),
  merId: x.mer_id,
  busLine: x.bus_line,
  txnSetDate: x.txn_set_date,
  remitDate: x.remit_date,
  amount: money(x.real_trans_amount, x.set_cur),
  currency: x.set_cur,
});
type MatchWithParts = Awaited<ReturnType<typeof repo.matchesById>>[number];
const matchOut = (m: MatchWithParts, zone: Zone): BankMatch => ({
  id: m.id,
  kind: m.kind as BankMatch['kind'],
  state: m.state,
  currency: m.currency,
  credit: money(m.credit_minor, m.currency),
  transfer: money(m.transfer_minor, m.currency),
  fee: money(m.fee_minor, m.currency),
  byReference: m.by_reference,
  confirmedBy: m.confirmed_by,
  confirmedAt: m.confirmed_at ? formatInZone(m.confirmed_at, zone) : null,
  entries: m.entries.map(entryOut),
  transfers: m.transfers.map(transferOut),
});

/** An amount for a sentence in the user's language: grouped, the currency's decimals, signed when asked. */
function moneyText(lang: Language, minor: number, cur: string, signed = false): string {
  const e = minorToText(1, cur).split('.')[1]?.length ?? 0;
  const n = new Intl.NumberFormat(lang, { minimumFractionDigits: e, maximumFractionDigits: e, signDisplay: signed ? 'exceptZero' : 'auto' }).format(minor / 10 ** e);
  return `${n} ${cur}`;
}

function whyText(lang: Language, w: Why): { code: Why['code']; text: string } {
  switch (w.code) {
    case 'amountOff':
      return { code: w.code, text: t(lang, 'bankWhyAmountOff', { diff: moneyText(lang, w.diff, w.currency, true) }) };
    case 'feeTooLarge':
      return { code: w.code, text: t(lang, 'bankWhyFeeTooLarge', { diff: moneyText(lang, -w.diff, w.currency), max: moneyText(lang, w.max, w.currency) }) };
    case 'dateOutside':
      return { code: w.code, text: t(lang, 'bankWhyDateOutside', { days: w.days > 0 ? `+${w.days}` : String(w.days) }) };
    case 'referenceDiffers':
      return { code: w.code, text: t(lang, 'bankWhyReferenceDiffers', { reference: w.reference }) };
    case 'currencyDiffers':
      return { code: w.code, text: t(lang, 'bankWhyCurrencyDiffers', { currency: w.currency }) };
  }
}

const LIST_MAX = 500;

/** The matching screen: matches, unmatched credits and transfers without a credit in a date range, each miss with its why. */
export async function matchingView(deps: Deps, user: SessionUser, query: { merId?: string; beginDate: string; endDate: string }, lang: Language, zone: Zone): Promise<BankMatching> {
  const mers = merchantsOf(user, query.merId);
  if (!mers.length) return { matches: [], unmatchedCredits: [], transfersWithoutCredit: [] };
  const db = deps.db;
  const matches = await repo.matchesIn(db, mers, query.beginDate, query.endDate);
  const credits = (await repo.freeCredits(db, mers, { begin: query.beginDate, end: query.endDate })).slice(0, LIST_MAX);
  const transfers = (await repo.freeTransfers(db, mers, query.beginDate, query.endDate)).slice(0, LIST_MAX);
  // Near-misses are explained against the other side's unmatched rows of the same merchant,
  // a little beyond the range (a credit booked just after it).
  const wideT = (await repo.freeTransfers(db, mers, addDays(query.beginDate, -WINDOW_AFTER - 10), addDays(query.endDate, WINDOW_BEFORE + 10))).map((x) => ({ mer: x.mer_id, t: repo.toTransfer(x) }));
  const wideC = (await repo.freeCredits(db, mers, { begin: addDays(query.beginDate, -WINDOW_BEFORE - 10), end: addDays(query.endDate, WINDOW_AFTER + 10) })).map((e) => ({
    mer: e.mer_id,
    c: repo.toCredit(e),
  }));
  return {
    matches: matches.map((m) => matchOut(m, zone)),
    unmatchedCredits: credits.map((e) => {
      const miss = explainCredit(
        repo.toCredit(e),
        wideT.filter((x) => x.mer === e.mer_id).map((x) => x.t),
      );
      return { entry: entryOut(e), nearest: miss.nearest === null ? null : String(miss.nearest), why: miss.why.map((w) => whyText(lang, w)) };
    }),
    transfersWithoutCredit: transfers.map((x) => {
      const miss = explainTransfer(
        repo.toTransfer(x),
        wideC.filter((c) => c.mer === x.mer_id).map((c) => c.c),
      );
      return { transfer: transferOut(x), nearest: typeof miss.nearest === 'number' ? miss.nearest : null, why: miss.why.map((w) => whyText(lang, w)) };
    }),
  };
}

const detailOf = (m: MatchWithParts) => ({
  kind: m.kind,
  currency: m.currency,
  credit: m.credit_minor,
  transfer: m.transfer_minor,
  fee: m.fee_minor,
  entries: m.entries.map((e) => Number(e.id)),
  transfers: m.transfers.map(repo.transferIdOf),
});

/** Confirms proposed matches (one, or in bulk); each is audited. Another merchant's id answers as absent. */
export async function confirmMatches(deps: Deps, user: SessionUser, ids: number[], zone: Zone, meta: Meta): Promise<BankMatch[]> {
  return deps.db.tx(async (q) => {
    const found = await repo.matchesById(q, user.scope, ids);
    if (found.length !== new Set(ids).size) throw notFound();
    if (found.some((m) => m.state !== 'proposed')) throw new AppError(Code.BAD_REQUEST, 'bankMatchNotProposed', {}, 400);
    const done = await repo.setMatchState(q, ids, user.scope, 'proposed', 'confirmed', user.username);
    if (done.length !== found.length) throw new AppError(Code.BAD_REQUEST, 'bankMatchNotProposed', {}, 400);
    for (const m of found) {
      await audit(q, {
        action: BankAudit.confirm,
        userId: user.id,
        username: user.username,
        merId: m.mer_id,
        target: `bankrec:match:${m.id}`,
        detail: { before: 'proposed', after: 'confirmed', bulk: ids.length > 1, ...detailOf(m) },
        ...meta,
      });
    }
    return (await repo.matchesById(q, user.scope, ids)).map((m) => matchOut(m, zone));
  });
}

/**
 * Undoes a match by hand: a confirmed one goes back to proposed; a proposed one is dismissed (its
 * credits and transfers are free again, and the matcher will not propose that pairing again).
 */
export async function undoMatch(deps: Deps, user: SessionUser, id: number, zone: Zone, meta: Meta): Promise<BankMatch | null> {
  return deps.db.tx(async (q) => {
    const [m] = await repo.matchesById(q, user.scope, [id]);
    if (!m) throw notFound();
    await repo.lockMerchant(q, m.mer_id);
    if (m.state === 'confirmed') {
      await repo.setMatchState(q, [id], user.scope, 'confirmed', 'proposed', null);
      await audit(q, {
        action: BankAudit.undo,
        userId: user.id,
        username: user.username,
        merId: m.mer_id,
        target: `bankrec:match:${id}`,
        detail: { before: 'confirmed', after: 'proposed', confirmedBy: m.confirmed_by, ...detailOf(m) },
        ...meta,
      });
      const [after] = await repo.matchesById(q, user.scope, [id]);
      return matchOut(after, zone);
    }
    await repo.deleteMatch(
      q,
      id,
      m.mer_id,
      signatureOf(
        m.entries.map((e) => Number(e.id)),
        m.transfers.map(repo.transferIdOf),
      ),
    );
    await audit(q, {
      action: BankAudit.dismiss,
      userId: user.id,
      username: user.username,
      merId: m.mer_id,
      target: `bankrec:match:${id}`,
      detail: { before: 'proposed', after: null, ...detailOf(m) },
      ...meta,
    });
    return null;
  });
}

/** A match made by hand (credits of one merchant and currency ↔ its transfers), confirmed at once. */
export async function manualMatch(deps: Deps, user: SessionUser, input: { entryIds: number[]; transferIds: string[] }, zone: Zone, meta: Meta): Promise<BankMatch> {
  const keys = input.transferIds.map(repo.keyOfTransferId).filter((k) => !!k);
  return deps.db.tx(async (q) => {
    const es = await repo.entriesById(q, user.scope, input.entryIds);
    const ts = await repo.transfersByKey(q, user.scope, keys);
    if (es.length !== new Set(input.entryIds).size || ts.length !== new Set(input.transferIds).size) throw notFound();
    const merId = es[0].mer_id;
    await repo.lockMerchant(q, merId);
    const cur = es[0].currency;
    const fresh = await repo.entriesById(q, user.scope, input.entryIds);
    if (fresh.some((e) => e.taken || Number(e.amount_minor) <= 0 || e.mer_id !== merId || e.currency !== cur) || ts.some((x) => x.taken || x.mer_id !== merId || x.set_cur !== cur)) {
      throw new AppError(Code.BAD_REQUEST, 'bankMatchTaken', {}, 400);
    }
    const credit = es.reduce((s, e) => s + Number(e.amount_minor), 0);
    const transfer = ts.reduce((s, x) => s + Number(x.real_trans_amount), 0);
    if (credit > transfer) throw new AppError(Code.BAD_REQUEST, 'bankMatchCreditExceeds', { credit: `${money(credit, cur)} ${cur}`, transfer: `${money(transfer, cur)} ${cur}` }, 400);
    const [id] = await repo.insertMatches(q, [
      {
        merId,
        kind: 'manual',
        state: 'confirmed',
        currency: cur,
        credit,
        transfer,
        fee: transfer - credit,
        byReference: false,
        entryIds: es.map((e) => Number(e.id)),
        transferIds: ts.map(repo.transferIdOf),
        confirmedBy: user.username,
      },
    ]);
    const [m] = await repo.matchesById(q, user.scope, [id]);
    await audit(q, { action: BankAudit.manual, userId: user.id, username: user.username, merId, target: `bankrec:match:${id}`, detail: { before: null, after: 'confirmed', ...detailOf(m) }, ...meta });
    return matchOut(m, zone);
  });
}

export async function getCsvMappingFor(deps: Deps, user: SessionUser, merId: string | undefined): Promise<BankCsvMapping | null> {
  return csvMappingOf(deps.db, merchantOf(user, merId));
}

export async function saveCsvMappingFor(deps: Deps, user: SessionUser, input: BankCsvMapping & { merId: string }, meta: Meta): Promise<BankCsvMapping> {
  const merId = merchantOf(user, input.merId);
  const { merId: _m, ...mapping } = input;
  await deps.db.tx(async (q) => {
    const before = await repo.saveCsvMapping(q, merId, mapping, user.username);
    await audit(q, { action: BankAudit.csvMapping, userId: user.id, username: user.username, merId, target: `bankrec:csv:${merId}`, detail: { before, after: mapping }, ...meta });
  });
  return mapping;
}

/** A transfer's matched bank credits (for the order timeline, issue 49 §3). */
export interface TransferBankCredit {
  transferId: string;
  matchId: number;
  state: 'proposed' | 'confirmed';
  kind: string;
  fee: string;
  entry: BankEntry;
}

/**
 * The bank credits matched (proposed or confirmed) to the given transfers (ids as /v1/transfers
 * names them), only of the merchants in `scope`: a map from transfer id to its credits.
 */
export async function bankCreditsForTransfers(db: Queryable, scope: string[], transferIds: string[]): Promise<Map<string, TransferBankCredit[]>> {
  const keys = transferIds.map(repo.keyOfTransferId).filter((k) => !!k && scope.includes(k.merId)) as NonNullable<ReturnType<typeof repo.keyOfTransferId>>[];
  const out = new Map<string, TransferBankCredit[]>();
  for (const r of await repo.creditsOfTransfers(db, scope, keys)) {
    const tid = `${r.t_date}.${r.t_mer}.${r.t_line}.${r.t_cur}`;
    const list = out.get(tid) ?? [];
    list.push({ transferId: tid, matchId: Number(r.match_id), state: r.state as 'proposed' | 'confirmed', kind: r.kind, fee: money(r.fee_minor, r.currency), entry: entryOut(r) });
    out.set(tid, list);
  }
  return out;
}
