import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Code, Perm, type BankChangeFields, type BankRequest, type Language } from '@portal/contract';
import type { Db, Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { AppError, notFound } from '../../lib/errors';
import { pdfDateTime } from '../../lib/pdf';
import { maskAccount } from './merchant.repo';
import { effectivePolicy, insertApproval } from '../team';
import { notifyApprovers } from '../team';

const BankAudit = {
  request: 'merchant.bank_change.request',
  approve: 'merchant.bank_change.approve',
  reject: 'merchant.bank_change.reject',
  /** Four eyes (decision 049): waiting for the merchant's second user, then handed on, refused or expired there. */
  held: 'merchant.bank_change.await_approval',
  merchantApprove: 'merchant.bank_change.merchant_approve',
  merchantReject: 'merchant.bank_change.merchant_reject',
  expire: 'merchant.bank_change.expire',
} as const;

const bankDir = (dataDir: string) => path.join(dataDir, 'files', 'bank-requests');

interface RequestDbRow {
  id: number;
  status: BankRequest['status'];
  approval_id: number | null;
  beneficiary_bank: string;
  swift_code: string;
  account_name: string;
  account_number: string;
  currency: string;
  country: string;
  document_name: string;
  username: string;
  requested_at: Date;
  decided_at: Date | null;
}

const toRequest = (r: RequestDbRow, tz: string): BankRequest => ({
  id: r.id,
  status: r.status,
  beneficiaryBank: r.beneficiary_bank,
  swiftCode: r.swift_code,
  accountName: r.account_name,
  accountNumber: maskAccount(r.account_number),
  currency: r.currency.trim(),
  country: r.country.trim(),
  documentName: r.document_name,
  requestedBy: r.username,
  requestedAt: pdfDateTime(new Date(r.requested_at), tz),
  decidedAt: r.decided_at ? pdfDateTime(new Date(r.decided_at), tz) : null,
  approvalId: r.approval_id,
});

export async function bankRequests(q: Queryable, merId: string, tz: string): Promise<BankRequest[]> {
  const { rows } = await q.query<RequestDbRow>(
    `SELECT r.*, u.username FROM bank_change_request r JOIN app_user u ON u.id = r.requested_by
      WHERE r.mer_id = $1 ORDER BY (r.status IN ('PENDING', 'MERCHANT_APPROVAL')) DESC, r.id DESC LIMIT 20`,
    [merId],
  );
  return rows.map((r) => toRequest(r, tz));
}

/**
 * A main user asks to change (or add) a bank account: the document is stored, the request row
 * written PENDING and audited in one transaction. At most one request per merchant is open
 * (a unique partial index), so two concurrent submits cannot both land.
 *
 * Under the merchant's four eyes on bank changes (decision 049) the row is written
 * MERCHANT_APPROVAL instead, with an approval request (kind bank_change, permission
 * merchant:bank:change) in the same transaction; the approvers are e-mailed after COMMIT.
 */
export async function submitBankRequest(
  deps: Deps,
  user: SessionUser,
  f: BankChangeFields,
  doc: { name: string; buf: Buffer; ext: string },
  meta: { ip?: string; userAgent?: string },
  lang: Language = 'en',
): Promise<BankRequest> {
  const dir = bankDir(deps.config.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const rel = `${randomUUID()}.${doc.ext}`;
  await fs.writeFile(path.join(dir, rel), doc.buf);
  try {
    const res = await deps.db.tx(async (q) => {
      if (f.accountId) {
        const acc = await q.query('SELECT 1 FROM merchant_bank_account WHERE id = $1 AND mer_id = $2', [f.accountId, f.merId]);
        if (!acc.rows.length) throw notFound();
      }
      const pending = await q.query(`SELECT 1 FROM bank_change_request WHERE mer_id = $1 AND status IN ('PENDING', 'MERCHANT_APPROVAL')`, [f.merId]);
      if (pending.rows.length) throw new AppError(Code.BAD_REQUEST, 'bankRequestPending', {}, 409);
      const held = (await effectivePolicy(q, f.merId))?.bank_change === true;
      const now = deps.clock.now();
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO bank_change_request (mer_id, account_id, beneficiary_bank, swift_code, bank_address, account_name, account_number, country,
            currency, document_name, document_path, document_size, requested_by, requested_at, status)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) RETURNING id`,
        [
          f.merId,
          f.accountId ?? null,
          f.beneficiaryBank,
          f.swiftCode,
          f.bankAddress || null,
          f.accountName,
          f.accountNumber,
          f.country,
          f.currency,
          doc.name,
          rel,
          doc.buf.length,
          user.id,
          now,
          held ? 'MERCHANT_APPROVAL' : 'PENDING',
        ],
      );
      const id = rows[0].id;
      const detail = { accountId: f.accountId ?? null, bank: f.beneficiaryBank, swift: f.swiftCode, account: maskAccount(f.accountNumber), currency: f.currency, document: doc.name };
      await audit(q, {
        action: held ? BankAudit.held : BankAudit.request,
        userId: user.id,
        username: user.username,
        merId: f.merId,
        target: `bank-request:${id}`,
        detail,
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      if (held) {
        const approvalId = await insertApproval(q, {
          merId: f.merId,
          kind: 'bank_change',
          permission: Perm.merchantBankChange,
          payload: { bankRequestId: id, lang },
          summary: {
            bankRequest: id,
            bank: f.beneficiaryBank,
            swift: f.swiftCode,
            account: maskAccount(f.accountNumber),
            currency: f.currency,
            country: f.country,
            replaces: f.accountId ?? null,
            document: doc.name,
          },
          user,
          now,
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        await q.query('UPDATE bank_change_request SET approval_id = $2 WHERE id = $1', [id, approvalId]);
      }
      const all = await bankRequests(q, f.merId, deps.config.platformTz);
      return all.find((r) => r.id === id)!;
    });
    if (res.approvalId) await notifyApprovers(deps, res.approvalId, lang).catch(() => 0);
    return res;
  } catch (err) {
    await fs.rm(path.join(dir, rel), { force: true });
    // The unique index answers a concurrent second submit.
    if ((err as { code?: string }).code === '23505') throw new AppError(Code.BAD_REQUEST, 'bankRequestPending', {}, 409);
    throw err;
  }
}

/**
 * The provider's decision (CLI `npm run approve -- bank-request N [--reject]`): an approved request
 * replaces the named account's details (or adds the account, default when it is the merchant's
 * first); either way the request is closed and audited, in one transaction. Deciding twice fails.
 */
export async function decideBankRequest(
  db: Db,
  id: number,
  decision: 'APPROVED' | 'REJECTED',
  by: string,
  now: Date,
  /** The back office (issue 26): the reason, the deciding operator, and work in the same transaction (telling the merchant). */
  opts: { reason?: string; operatorId?: number | null; onDecided?: (q: Queryable, r: { mer_id: string; requested_by: number }) => Promise<void> } = {},
) {
  return db.tx(async (q) => {
    const { rows } = await q.query<{
      id: number;
      mer_id: string;
      account_id: number | null;
      beneficiary_bank: string;
      swift_code: string;
      bank_address: string | null;
      account_name: string;
      account_number: string;
      country: string;
      currency: string;
      requested_by: number;
    }>(`UPDATE bank_change_request SET status = $2::text, decided_at = $3, decided_by = $4, decision_reason = $5, decided_by_operator = $6 WHERE id = $1 AND status = 'PENDING' RETURNING *`, [
      id,
      decision,
      now,
      by,
      opts.reason ?? null,
      opts.operatorId ?? null,
    ]);
    const r = rows[0];
    if (!r) throw new Error(`bank request ${id} does not exist or is not pending`);
    let accountId = r.account_id;
    if (decision === 'APPROVED') {
      if (accountId) {
        await q.query(
          `UPDATE merchant_bank_account SET beneficiary_bank = $2, swift_code = $3, bank_address = $4, account_name = $5, account_number = $6,
                  country = $7, currency = $8 WHERE id = $1`,
          [accountId, r.beneficiary_bank, r.swift_code, r.bank_address, r.account_name, r.account_number, r.country, r.currency],
        );
      } else {
        const ins = await q.query<{ id: number }>(
          `INSERT INTO merchant_bank_account (mer_id, beneficiary_bank, swift_code, bank_address, account_name, account_number, country, currency, is_default)
           VALUES ($1::varchar,$2,$3,$4,$5,$6,$7,$8, NOT EXISTS (SELECT 1 FROM merchant_bank_account WHERE mer_id = $1::varchar)) RETURNING id`,
          [r.mer_id, r.beneficiary_bank, r.swift_code, r.bank_address, r.account_name, r.account_number, r.country, r.currency],
        );
        accountId = ins.rows[0].id;
      }
    }
    await audit(q, {
      action: decision === 'APPROVED' ? BankAudit.approve : BankAudit.reject,
      username: by,
      merId: r.mer_id,
      target: `bank-request:${id}`,
      detail: { accountId, account: maskAccount(r.account_number), ...(opts.reason ? { reason: opts.reason } : {}) },
      ...(opts.operatorId ? { operatorId: opts.operatorId } : {}),
    });
    await opts.onDecided?.(q, r);
    return { id, merId: r.mer_id, status: decision, accountId };
  });
}

/**
 * Moves the bank request held by merchant approval `approvalId` out of MERCHANT_APPROVAL, in the
 * caller's transaction (the approval's decision or expiry): to PENDING (handed to the provider's
 * back office), MERCHANT_REJECTED or EXPIRED; audited. The conditional UPDATE moves it once: the id
 * moved, or null when nothing was held (not a bank change, or moved already).
 */
export async function closeHeldBankRequest(
  q: Queryable,
  approvalId: number,
  to: 'PENDING' | 'MERCHANT_REJECTED' | 'EXPIRED',
  now: Date,
  by?: { user: SessionUser; note: string; meta: { ip?: string; userAgent?: string } },
): Promise<number | null> {
  const { rows } = await q.query<{ id: number; mer_id: string; account_number: string; account_id: number | null }>(
    `UPDATE bank_change_request SET status = $2::text,
            decided_at = CASE WHEN $2::text = 'PENDING' THEN decided_at ELSE $3::timestamptz END,
            decided_by = CASE WHEN $2::text = 'PENDING' THEN decided_by ELSE $4::text END,
            decision_reason = CASE WHEN $2::text = 'PENDING' THEN decision_reason ELSE $5::text END
      WHERE approval_id = $1 AND status = 'MERCHANT_APPROVAL' RETURNING id, mer_id, account_number, account_id`,
    [approvalId, to, now, by?.user.username ?? null, by?.note || null],
  );
  const r = rows[0];
  if (!r) return null;
  await audit(q, {
    action: to === 'PENDING' ? BankAudit.merchantApprove : to === 'MERCHANT_REJECTED' ? BankAudit.merchantReject : BankAudit.expire,
    ...(by ? { userId: by.user.id, username: by.user.username, ip: by.meta.ip, userAgent: by.meta.userAgent } : {}),
    merId: r.mer_id,
    target: `bank-request:${r.id}`,
    detail: { approvalId, accountId: r.account_id, account: maskAccount(r.account_number), ...(by?.note ? { reason: by.note } : {}) },
  });
  return r.id;
}
