/** Bank statements: imported (read, checked, stored once), listed, and the merchant's CSV mapping. */
import { createHash } from 'node:crypto';
import { Code, bankCsvMappingSchema, type BankCsvMapping, type BankImportResult, type BankStatementRow, type Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import type { Queryable } from '../../db/db';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { formatAt as formatInZone, type Zone } from './time';
import { checkBalances } from './parse/balance';
import { readStatementFile } from './parse/detect';
import { StatementRefused } from './parse/errors';
import type { ParsedStatement } from './parse/types';
import * as repo from './bankrec.repo';
import { runMatching } from './bankrec.matching';
import { BankAudit, merchantOf, merchantsOf, money, type Meta } from './bankrec.views';

const refusal = (e: StatementRefused) => new AppError(Code.BAD_REQUEST, e.key, e.params, 400);

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
