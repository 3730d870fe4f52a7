import { Code, LANGUAGES, type Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t, type MessageKey } from '../../lib/messages';
import { decideBankRequest } from '../merchant';
import { maskAccount } from '../merchant';
import type { Meta } from '../user';
import type { OpsActor } from './operators.service';

const OpsApprovalAudit = { bankChangeEdited: 'ops.bank_change.edit' } as const;

const actorOf = (by: OpsActor) => ('cli' in by ? { operatorId: null, username: 'cli' } : { operatorId: by.id, username: by.username });

interface RequestRow {
  id: number;
  mer_id: string;
  mer_name: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  beneficiary_bank: string;
  swift_code: string;
  bank_address: string | null;
  account_name: string;
  account_number: string;
  country: string;
  currency: string;
  document_name: string;
  requested_by_name: string;
  requested_at: Date;
  changed_by_name: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
}

/** Bank-account change requests of every merchant (pending first), for the approvals screen. */
export async function listBankChanges(deps: Deps, status?: 'PENDING' | 'APPROVED' | 'REJECTED') {
  const { rows } = await deps.db.query<RequestRow>(
    `SELECT r.id, r.mer_id, m.name AS mer_name, r.status, r.beneficiary_bank, r.swift_code, r.bank_address, r.account_name, r.account_number,
            r.country, r.currency, r.document_name, u.username AS requested_by_name, r.requested_at, c.username AS changed_by_name,
            r.decided_by, r.decided_at, r.decision_reason
       FROM bank_change_request r JOIN merchant m ON m.mer_id = r.mer_id JOIN app_user u ON u.id = r.requested_by
       LEFT JOIN ops_operator c ON c.id = r.changed_by_operator
      WHERE ($1::text IS NULL OR r.status = $1::text)
        -- A request still with the merchant's four eyes (or closed there) is not the provider's (decision 049).
        AND r.status IN ('PENDING', 'APPROVED', 'REJECTED')
      ORDER BY (r.status = 'PENDING') DESC, r.requested_at DESC LIMIT 200`,
    [status ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    merId: r.mer_id,
    merName: r.mer_name,
    status: r.status,
    beneficiaryBank: r.beneficiary_bank,
    swiftCode: r.swift_code,
    bankAddress: r.bank_address,
    accountName: r.account_name,
    accountNumber: maskAccount(r.account_number),
    country: r.country.trim(),
    currency: r.currency.trim(),
    documentName: r.document_name,
    requestedBy: r.requested_by_name,
    requestedAt: new Date(r.requested_at).toISOString(),
    changedBy: r.changed_by_name,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    reason: r.decision_reason,
  }));
}

/** An operator corrects a pending request (e.g. a mistyped SWIFT code): that operator may then not approve it. */
export async function editBankChange(
  deps: Deps,
  id: number,
  input: { beneficiaryBank: string; swiftCode: string; bankAddress?: string; accountName: string; accountNumber: string; country: string; currency: string },
  by: Exclude<OpsActor, { cli: true }>,
  meta: Meta,
): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<RequestRow>(`SELECT * FROM bank_change_request WHERE id = $1 FOR UPDATE`, [id]);
    const r = rows[0];
    if (!r) throw notFound();
    if (r.status !== 'PENDING') throw new AppError(Code.CONFLICT, 'opsRequestNotPending', {}, 409);
    await q.query(
      `UPDATE bank_change_request SET beneficiary_bank = $2, swift_code = $3, bank_address = $4, account_name = $5, account_number = $6, country = $7, currency = $8,
              changed_by_operator = $9, changed_at = $10 WHERE id = $1`,
      [id, input.beneficiaryBank, input.swiftCode, input.bankAddress ?? null, input.accountName, input.accountNumber, input.country, input.currency, by.id, deps.clock.now()],
    );
    const view = (x: { beneficiary_bank: string; swift_code: string; account_name: string; account_number: string; country: string; currency: string }) => ({
      beneficiaryBank: x.beneficiary_bank,
      swiftCode: x.swift_code,
      accountName: x.account_name,
      accountNumber: maskAccount(x.account_number),
      country: x.country.trim(),
      currency: x.currency.trim(),
    });
    await audit(q, {
      action: OpsApprovalAudit.bankChangeEdited,
      ...actorOf(by),
      merId: r.mer_id,
      target: `bank-request:${id}`,
      detail: {
        before: view(r),
        after: view({
          beneficiary_bank: input.beneficiaryBank,
          swift_code: input.swiftCode,
          account_name: input.accountName,
          account_number: input.accountNumber,
          country: input.country,
          currency: input.currency,
        }),
      },
      ...meta,
    });
  });
}

/**
 * Approves or rejects a bank-account change with a reason — the back office's screen and
 * `npm run approve` call this. Four eyes: the operator who changed the request may not decide it
 * (checked in the deciding transaction). The merchant is told: a notice in the four languages (same
 * transaction) and an e-mail to the user who asked (after the commit).
 */
export async function decideBankChange(deps: Deps, id: number, decision: 'APPROVED' | 'REJECTED', reason: string, by: OpsActor, lang: Language, meta: Meta) {
  const who = actorOf(by);
  let requester: number | null = null;
  const res = await decideBankRequest(deps.db, id, decision, `back-office:${who.username}`, deps.clock.now(), {
    reason,
    operatorId: who.operatorId,
    onDecided: async (q, r) => {
      const changedBy = (r as unknown as { changed_by_operator: number | null }).changed_by_operator;
      if (changedBy !== null && changedBy === who.operatorId) throw new AppError(Code.FORBIDDEN, 'opsFourEyes', {}, 403);
      requester = r.requested_by;
      const all = (key: MessageKey) => JSON.stringify(Object.fromEntries(LANGUAGES.map((l) => [l, t(l, key, { id, reason })])));
      const key = decision === 'APPROVED' ? 'opsBankApprovedNotice' : 'opsBankRejectedNotice';
      await q.query(`INSERT INTO notice (title, summary, content, level, mer_id, published_at) VALUES ($1,$2,$2,'important',$3,$4)`, [
        all(`${key}Title` as MessageKey),
        all(key),
        r.mer_id,
        deps.clock.now(),
      ]);
      void meta;
    },
  }).catch((err: Error) => {
    if (err instanceof AppError) throw err;
    if (/not pending/.test(err.message)) {
      throw new AppError(Code.CONFLICT, 'opsRequestNotPending', {}, 409);
    }
    throw err;
  });
  if (requester !== null) {
    const u = await deps.db.query<{ email: string; username: string }>('SELECT email, username FROM app_user WHERE id = $1', [requester]);
    const key = decision === 'APPROVED' ? 'opsBankApprovedNotice' : 'opsBankRejectedNotice';
    // Told after the commit; a mail that cannot go leaves the notice as the record.
    if (u.rows[0]) await deps.mailer.send({ to: u.rows[0].email, subject: t(lang, `${key}Title` as MessageKey, { id }), text: t(lang, key, { id, reason }) }).catch(() => undefined);
  }
  return res;
}
