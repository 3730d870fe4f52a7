import { randomInt } from 'node:crypto';
import { ALL_PERMISSIONS, Code, type Language, type OpsCreateMerchant, type OpsFeeLine } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t, type MessageKey } from '../../lib/messages';
import { LANGUAGES } from '@portal/contract';
import { sendActivation } from '../account';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import type { Meta } from '../user';
import type { Operator } from './ops.auth';
import { BASE, COLUMNS, FIELD_NAMES, fieldValues, OpsMerchantAudit, platformDay, rowOf, SELECT_FIELDS, who, type Fields, type ListQuery } from './merchants.fields';
import { writeFees, writeSchedules } from './fees.service';

export { platformDay, type OpsMerchantRow } from './merchants.fields';
export { addFeeSchedule, feeHistory } from './fees.service';

/** Every merchant (across the platform), searched and filtered; newest first. */
export async function listMerchants(deps: Deps, q: ListQuery) {
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (q.search) {
    const like = arg(`%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(m.mer_id LIKE ${like} OR lower(m.name) LIKE ${like} OR lower(coalesce(m.corporation_name, '')) LIKE ${like})`);
  }
  if (q.status) where.push(q.status === 'LOCKED' ? 'm.locked' : 'NOT m.locked');
  if (q.attribute) where.push(`m.attribute = ${arg(q.attribute)}`);
  if (q.groupId) where.push(`(m.mer_id = ${arg(q.groupId)} OR m.parent_id = $${args.length})`);
  if (q.channel) where.push(`${arg(q.channel)} = ANY(m.channels)`);
  if (q.createdFrom) where.push(`m.created_at >= (${arg(q.createdFrom)}::date::timestamp AT TIME ZONE ${arg(deps.config.platformTz)})`);
  if (q.createdTo) where.push(`m.created_at < ((${arg(q.createdTo)}::date + 1)::timestamp AT TIME ZONE ${arg(deps.config.platformTz)})`);
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant m ${w}`, args);
  const { rows } = await deps.db.query<Record<string, unknown>>(`${BASE} ${w} ORDER BY m.created_at DESC, m.mer_id LIMIT ${arg(q.size)} OFFSET ${arg(q.page * q.size)}`, args);
  return { content: rows.map(rowOf), totalElements: total.rows[0].n };
}

export async function getMerchant(deps: Deps, merId: string) {
  const { rows } = await deps.db.query<Record<string, unknown>>(`${BASE} WHERE m.mer_id = $1`, [merId]);
  if (!rows[0]) throw notFound();
  const fees = await deps.db.query<Record<string, unknown>>(
    `SELECT bus_line AS "busLine", mdr_bp AS "mdrBp", fixed_fee AS "fixedFee", cycle_days AS "cycleDays", reserve_bp AS "reserveBp",
            reserve_hold_days AS "reserveHoldDays", tran_threshold AS "tranThreshold", tran_fee AS "tranFee", transfer_period AS "transferPeriod",
            dispute_fee AS "disputeFee", to_char(effective_from, 'YYYY-MM-DD') AS "effectiveFrom"
       FROM merchant_fee WHERE mer_id = $1 ORDER BY bus_line`,
    [merId],
  );
  const banks = await deps.db.query<Record<string, unknown>>(
    `SELECT id, beneficiary_bank AS "beneficiaryBank", swift_code AS "swiftCode", account_name AS "accountName",
            '****' || right(account_number, 4) AS "accountNumber", country, currency, is_default AS "isDefault"
       FROM merchant_bank_account WHERE mer_id = $1 ORDER BY id`,
    [merId],
  );
  const users = await deps.db.query<{ username: string; email: string; status: string; user_type: string }>(
    `SELECT username, email, status, user_type FROM app_user WHERE mer_id = $1 AND removed_at IS NULL ORDER BY user_type, id LIMIT 50`,
    [merId],
  );
  const num = (r: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^(fixedFee|tranThreshold|tranFee|disputeFee)$/.test(k) ? Number(v) : v]));
  return {
    ...rowOf(rows[0]),
    fees: fees.rows.map(num) as (OpsFeeLine & { effectiveFrom: string | null })[],
    bankAccounts: banks.rows as { id: number; beneficiaryBank: string; swiftCode: string; accountName: string; accountNumber: string; country: string; currency: string; isDefault: boolean }[],
    users: users.rows.map((u) => ({ username: u.username, email: u.email, status: u.status, main: u.user_type === 'MAIN' })),
  };
}

/** A new merchant id: 15 digits, never one in use (the primary key decides a race). */
async function newMerId(q: Queryable): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const id = `8${String(randomInt(0, 1e7)).padStart(7, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
    const { rows } = await q.query('SELECT 1 FROM merchant WHERE mer_id = $1', [id]);
    if (!rows.length) return id;
  }
  throw new Error('no free merchant id');
}

/**
 * Creates a group, sub-merchant or independent merchant with its channels, currencies, fee
 * schedules (in force from today), bank account and main user (not activated) in one transaction;
 * then e-mails the main user's activation link (as the team module does for its users). A mail that
 * cannot go leaves the merchant in place: the operator resends the link.
 */
export async function createMerchant(deps: Deps, input: OpsCreateMerchant, by: Operator, lang: Language, meta: Meta): Promise<{ merId: string; mainUserId: number | null; mailed: boolean }> {
  const now = deps.clock.now();
  const today = platformDay(now, deps.config.platformTz);
  const out = await deps.db.tx(async (q) => {
    if (input.parentId) {
      const p = await q.query<{ attribute: string }>('SELECT attribute FROM merchant WHERE mer_id = $1 FOR SHARE', [input.parentId]);
      if (p.rows[0]?.attribute !== 'GROUP') throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'parentId: not a group merchant' }, 400);
    }
    const merId = await newMerId(q);
    const cols = FIELD_NAMES.map((f) => COLUMNS[f]);
    await q.query(
      `INSERT INTO merchant (mer_id, attribute, parent_id, application_date, approved_at, created_at, created_by_operator, ${cols.join(', ')})
       VALUES ($1,$2,$3,$4,$5,$5,$6, ${cols.map((_, i) => `$${i + 7}`).join(', ')})`,
      [merId, input.attribute, input.parentId ?? null, today, now, by.id, ...fieldValues(input)],
    );
    await writeFees(q, merId, input.fees, today);
    await writeSchedules(q, merId, input.fees, today, by);
    const b = input.bankAccount;
    await q.query(
      `INSERT INTO merchant_bank_account (mer_id, beneficiary_bank, swift_code, bank_address, account_name, account_number, country, currency, is_default)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,true)`,
      [merId, b.beneficiaryBank, b.swiftCode, b.bankAddress ?? null, b.accountName, b.accountNumber, b.country, b.currency],
    );
    let mainUserId: number | null = null;
    if (input.mainUser) {
      const dup = await q.query('SELECT 1 FROM app_user WHERE lower(username) = lower($1) OR lower(email) = lower($2)', [input.mainUser.username, input.mainUser.email]);
      if (dup.rows.length) throw new AppError(Code.BAD_REQUEST, 'userExists');
      const u = await q
        .query<{ id: number }>(
          `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, permissions, role, created_at, password_changed_at)
           VALUES ($1,$2,$3,$4,'MAIN',true,'INACTIVE',$5,'ADMIN',$6,$6) RETURNING id`,
          [input.mainUser.username, UNUSABLE_PASSWORD, input.mainUser.email, merId, ALL_PERMISSIONS, now],
        )
        .catch((err: { code?: string }) => {
          if (err.code === '23505') throw new AppError(Code.BAD_REQUEST, 'userExists');
          throw err;
        });
      mainUserId = u.rows[0].id;
      await audit(q, {
        action: OpsMerchantAudit.mainUserCreated,
        ...who(by),
        merId,
        target: `user:${mainUserId}`,
        detail: { after: { username: input.mainUser.username, email: input.mainUser.email, role: 'ADMIN' } },
        ...meta,
      });
    }
    await audit(q, {
      action: OpsMerchantAudit.created,
      ...who(by),
      merId,
      target: `merchant:${merId}`,
      detail: { before: null, after: { ...input, bankAccount: { ...b, accountNumber: `****${b.accountNumber.slice(-4)}` }, effectiveFrom: today } },
      ...meta,
    });
    return { merId, mainUserId };
  });
  let mailed = false;
  if (out.mainUserId) {
    // After the commit: no mail while the transaction is open.
    mailed = await sendActivation(deps, deps.db, out.mainUserId, lang, meta).then(
      () => true,
      () => false,
    );
  }
  return { ...out, mailed };
}

/** A new activation link for the merchant's main user that has not activated yet. */
export async function resendMainUserActivation(deps: Deps, merId: string, lang: Language, meta: Meta): Promise<void> {
  const { rows } = await deps.db.query<{ id: number }>(`SELECT id FROM app_user WHERE mer_id = $1 AND user_type = 'MAIN' AND status = 'INACTIVE' ORDER BY id LIMIT 1`, [merId]);
  if (!rows[0]) throw notFound();
  await sendActivation(deps, deps.db, rows[0].id, lang, meta);
}

/** Edits a merchant's fields (not its kind or group); audited with the fields before and after. */
export async function editMerchant(deps: Deps, merId: string, input: Fields, by: Operator, meta: Meta): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<Record<string, unknown>>(`SELECT ${SELECT_FIELDS} FROM merchant m WHERE m.mer_id = $1 FOR UPDATE`, [merId]);
    if (!rows[0]) throw notFound();
    const before = rows[0];
    const values = fieldValues(input);
    await q.query(`UPDATE merchant SET ${FIELD_NAMES.map((f, i) => `${COLUMNS[f]} = $${i + 2}`).join(', ')} WHERE mer_id = $1`, [merId, ...values]);
    const changed = FIELD_NAMES.filter((f) => JSON.stringify(before[f] ?? null) !== JSON.stringify(input[f] === undefined ? null : f === 'dailyLimit' ? String(input[f]) : input[f]));
    await audit(q, {
      action: OpsMerchantAudit.edited,
      ...who(by),
      merId,
      target: `merchant:${merId}`,
      detail: { before: Object.fromEntries(changed.map((f) => [f, before[f] ?? null])), after: Object.fromEntries(changed.map((f) => [f, input[f] ?? null])) },
      ...meta,
    });
  });
}

/**
 * Locks (with the reason its users are shown) or unlocks a merchant. A locked merchant accepts no
 * transactions (assertMerchantOpen). Audited before/after.
 */
export async function setLocked(deps: Deps, merId: string, lock: { reason: string } | null, by: Operator, meta: Meta): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ locked: boolean; lock_reason: string | null }>('SELECT locked, lock_reason FROM merchant WHERE mer_id = $1 FOR UPDATE', [merId]);
    if (!rows[0]) throw notFound();
    const before = { locked: rows[0].locked, reason: rows[0].lock_reason };
    await q.query('UPDATE merchant SET locked = $2, lock_reason = $3, locked_at = $4 WHERE mer_id = $1', [merId, !!lock, lock?.reason ?? null, lock ? deps.clock.now() : null]);
    // Its users are told why: a notice to the merchant, in the four languages.
    const all = (key: MessageKey, params: Record<string, string> = {}) => JSON.stringify(Object.fromEntries(LANGUAGES.map((l) => [l, t(l, key, params)])));
    const title = all(lock ? 'opsLockNoticeTitle' : 'opsUnlockNoticeTitle');
    const body = lock ? all('opsLockNoticeBody', { reason: lock.reason }) : title;
    await q.query(`INSERT INTO notice (title, summary, content, level, mer_id, published_at) VALUES ($1,$2,$2,$3,$4,$5)`, [title, body, lock ? 'important' : 'info', merId, deps.clock.now()]);
    await audit(q, {
      action: lock ? OpsMerchantAudit.locked : OpsMerchantAudit.unlocked,
      ...who(by),
      merId,
      target: `merchant:${merId}`,
      detail: { before, after: { locked: !!lock, reason: lock?.reason ?? null } },
      ...meta,
    });
  });
}

/** Throws when the merchant (or its group) is locked: it accepts no transactions. */
export async function assertMerchantOpen(q: Queryable, merId: string): Promise<void> {
  const { rows } = await q.query<{ locked: boolean }>(`SELECT bool_or(locked) AS locked FROM merchant WHERE mer_id = $1 OR mer_id = (SELECT parent_id FROM merchant WHERE mer_id = $1)`, [merId]);
  if (rows[0]?.locked) throw new AppError(Code.FORBIDDEN, 'opsMerchantLocked', {}, 403);
}
