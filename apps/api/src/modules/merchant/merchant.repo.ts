import { toDecimal, type DepositDetail, type MerchantBankRow, type MerchantDetail, type MerchantFeeRow, type MerchantListQuery, type MerchantListRow } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { pdfDateTime } from '../../lib/pdf';

/** Business line of a channel (domain.md: UP, APP, EXUP, UP_B2B → UP; AP, APDP, APMP → AP; PPRO* → PPRO). */
function busLineOf(channel: string): string {
  if (['UP', 'APP', 'EXUP', 'UP_B2B'].includes(channel)) return 'UP';
  if (['AP', 'APDP', 'APMP'].includes(channel)) return 'AP';
  if (channel.startsWith('PPRO')) return 'PPRO';
  return channel;
}

interface MerchantDbRow {
  mer_id: string;
  name: string;
  attribute: 'GROUP' | 'SUB' | 'INDEPENDENT';
  parent_id: string | null;
  enabled: boolean;
  locked: boolean;
  default_currency: string;
  settle_currency: string;
  daily_limit: number | null;
  approval_status: string;
  approved_at: Date | null;
}

const LIST_COLS = `m.mer_id, m.name, m.attribute, m.parent_id, m.enabled, m.locked, m.default_currency, m.settle_currency,
  m.daily_limit, m.approval_status, m.approved_at`;

function listRow(r: MerchantDbRow, tz: string): MerchantListRow {
  const cur = r.default_currency.trim();
  return {
    id: r.mer_id,
    merId: r.mer_id,
    merName: r.name,
    attribute: r.attribute,
    parentId: r.parent_id,
    status: !r.enabled ? 'DISABLED' : r.locked ? 'LOCKED' : 'ENABLED',
    defaultCurrency: cur,
    settleCurrency: r.settle_currency.trim(),
    dailyLimit: r.daily_limit == null ? null : toDecimal(r.daily_limit, cur),
    approvalStatus: r.approval_status,
    approvedAt: r.approved_at ? pdfDateTime(new Date(r.approved_at), tz) : null,
  };
}

/** The caller's merchants (own first, then a group's sub-merchants by id), filtered and paged. */
export async function listMerchants(q: Queryable, scope: string[], own: string, f: MerchantListQuery, tz: string) {
  const params: unknown[] = [scope];
  let where = 'm.mer_id = ANY($1::text[])';
  if (f.keyword) {
    params.push(`%${f.keyword.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    where += ` AND (m.mer_id LIKE $${params.length} OR m.name ILIKE $${params.length} OR m.web_store_name ILIKE $${params.length})`;
  }
  if (f.attribute) {
    params.push(f.attribute);
    where += ` AND m.attribute = $${params.length}`;
  }
  const total = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant m WHERE ${where}`, params);
  params.push(own, f.size, f.page * f.size);
  const { rows } = await q.query<MerchantDbRow>(
    `SELECT ${LIST_COLS} FROM merchant m WHERE ${where}
      ORDER BY (m.mer_id = $${params.length - 2}) DESC, m.mer_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { content: rows.map((r) => listRow(r, tz)), totalElements: total.rows[0].n };
}

/** One merchant of the caller's scope, or null (outside the scope it does not exist). */
export async function merchantDetail(q: Queryable, scope: string[], merId: string, tz: string): Promise<MerchantDetail | null> {
  const { rows } = await q.query<MerchantDbRow & Record<string, unknown> & { acquirer: string | null; channels: string[]; currencies: string[]; deposit: number; contractor: number }>(
    `SELECT ${LIST_COLS}, m.web_store_name, m.corporation_name, m.company_address, m.country, m.city, m.postcode, m.mcc, m.legal_reg_no,
            m.merchant_url, m.application_date, m.contractor, m.deposit, m.channels, m.currencies, a.brief_name AS acquirer,
            m.principal_name, m.principal_email, m.principal_tel, m.operation_name, m.operation_email, m.operation_tel
       FROM merchant m LEFT JOIN acquirer a ON a.id = m.acquirer_id
      WHERE m.mer_id = $1 AND m.mer_id = ANY($2::text[])`,
    [merId, scope],
  );
  const r = rows[0];
  if (!r) return null;
  const s = (k: string) => (r[k] == null ? null : String(r[k]).trim());
  const setCur = r.settle_currency.trim();
  const fees = await q.query<{ bus_line: string; tran_threshold: number; tran_fee: number; transfer_period: string }>(
    'SELECT bus_line, tran_threshold, tran_fee, transfer_period FROM merchant_fee WHERE mer_id = $1 ORDER BY bus_line',
    [merId],
  );
  return {
    ...listRow(r, tz),
    webStoreName: s('web_store_name'),
    corporationName: s('corporation_name'),
    companyAddress: s('company_address'),
    country: s('country'),
    city: s('city'),
    postcode: s('postcode'),
    mcc: s('mcc'),
    legalRegNo: s('legal_reg_no'),
    merchantUrl: s('merchant_url'),
    applicationDate: s('application_date'),
    locked: r.locked,
    acquirer: r.acquirer,
    contractor: r.contractor,
    deposit: toDecimal(r.deposit, setCur),
    channels: r.channels,
    currencies: r.currencies,
    principal: { name: s('principal_name'), email: s('principal_email'), tel: s('principal_tel') },
    operation: { name: s('operation_name'), email: s('operation_email'), tel: s('operation_tel') },
    transfer: fees.rows.map((f) => ({
      busLine: f.bus_line,
      currency: setCur,
      threshold: toDecimal(f.tran_threshold, setCur),
      fee: toDecimal(f.tran_fee, setCur),
      period: f.transfer_period,
    })),
  };
}

const pct = (bp: number) => (bp / 100).toFixed(2);

/** The fee schedule of a merchant, per business line with the merchant's channels in it. */
export async function merchantFees(q: Queryable, merId: string): Promise<MerchantFeeRow[]> {
  const m = await q.query<{ channels: string[]; settle_currency: string }>('SELECT channels, settle_currency FROM merchant WHERE mer_id = $1', [merId]);
  const cur = m.rows[0].settle_currency.trim();
  const { rows } = await q.query<{
    bus_line: string;
    mdr_bp: number;
    fixed_fee: number;
    cycle_days: number;
    reserve_bp: number;
    reserve_hold_days: number;
    effective_from: string | null;
    effective_to: string | null;
  }>(
    `SELECT f.bus_line, f.mdr_bp, f.fixed_fee, f.cycle_days, f.reserve_bp, f.reserve_hold_days,
            coalesce(f.effective_from, m.application_date) AS effective_from, f.effective_to
       FROM merchant_fee f JOIN merchant m ON m.mer_id = f.mer_id WHERE f.mer_id = $1 ORDER BY f.bus_line`,
    [merId],
  );
  return rows.map((f) => ({
    id: `${merId}-${f.bus_line}`,
    busLine: f.bus_line,
    channels: m.rows[0].channels.filter((c) => busLineOf(c) === f.bus_line),
    rate: pct(f.mdr_bp),
    rateBp: f.mdr_bp,
    fixedFee: toDecimal(f.fixed_fee, cur),
    currency: cur,
    cycleDays: f.cycle_days,
    reserveRate: pct(f.reserve_bp),
    reserveHoldDays: f.reserve_hold_days,
    effectiveFrom: f.effective_from,
    effectiveTo: f.effective_to,
  }));
}

/** '•••• 1234': only the last four characters of an account number leave the server. */
export const maskAccount = (n: string) => `•••• ${n.slice(-4)}`;

export async function merchantBanks(q: Queryable, merId: string): Promise<MerchantBankRow[]> {
  const { rows } = await q.query<{
    id: number;
    beneficiary_bank: string;
    swift_code: string;
    bank_address: string | null;
    account_name: string;
    account_number: string;
    country: string;
    currency: string;
    is_default: boolean;
  }>('SELECT * FROM merchant_bank_account WHERE mer_id = $1 ORDER BY is_default DESC, id', [merId]);
  return rows.map((b) => ({
    id: b.id,
    beneficiaryBank: b.beneficiary_bank,
    swiftCode: b.swift_code,
    bankAddress: b.bank_address,
    accountName: b.account_name,
    accountNumber: maskAccount(b.account_number),
    country: b.country,
    currency: b.currency,
    isDefault: b.is_default,
  }));
}

/**
 * Reserve (deposit) position of a merchant per business line and currency, from the reserve rows
 * the reserve report shows: held, released (released rows), balance = held − released (I4), and
 * the rows still to be released, soonest first.
 */
export async function depositDetail(q: Queryable, merId: string): Promise<DepositDetail> {
  const { rows } = await q.query<{ bus_line: string; set_cur: string; held: number; released: number; reserve_bp: number | null; hold: number | null }>(
    `SELECT r.bus_line, r.set_cur, sum(r.amount)::bigint AS held,
            coalesce(sum(r.amount) FILTER (WHERE r.released), 0)::bigint AS released,
            max(f.reserve_bp) AS reserve_bp, max(f.reserve_hold_days) AS hold
       FROM reserve r LEFT JOIN merchant_fee f ON f.mer_id = r.mer_id AND f.bus_line = r.bus_line
      WHERE r.mer_id = $1 AND r.amount > 0
      GROUP BY r.bus_line, r.set_cur ORDER BY r.bus_line, r.set_cur`,
    [merId],
  );
  const fees = await q.query<{ bus_line: string; reserve_bp: number; reserve_hold_days: number }>(
    'SELECT bus_line, reserve_bp, reserve_hold_days FROM merchant_fee WHERE mer_id = $1 AND reserve_bp > 0 ORDER BY bus_line',
    [merId],
  );
  const cur = (await q.query<{ c: string }>('SELECT settle_currency AS c FROM merchant WHERE mer_id = $1', [merId])).rows[0].c.trim();
  const lines = rows.map((r) => ({
    busLine: r.bus_line,
    currency: r.set_cur.trim(),
    reserveRate: pct(r.reserve_bp ?? 0),
    reserveHoldDays: r.hold ?? 0,
    held: toDecimal(r.held, r.set_cur.trim()),
    released: toDecimal(r.released, r.set_cur.trim()),
    balance: toDecimal(r.held - r.released, r.set_cur.trim()),
  }));
  // Schedules with a reserve but nothing held yet still show their terms.
  for (const f of fees.rows) {
    if (!lines.some((l) => l.busLine === f.bus_line)) {
      lines.push({
        busLine: f.bus_line,
        currency: cur,
        reserveRate: pct(f.reserve_bp),
        reserveHoldDays: f.reserve_hold_days,
        held: toDecimal(0, cur),
        released: toDecimal(0, cur),
        balance: toDecimal(0, cur),
      });
    }
  }
  const next = await q.query<{ txn_set_date: string; bus_line: string; set_cur: string; amount: number; release_date: string }>(
    `SELECT txn_set_date, bus_line, set_cur, amount, release_date FROM reserve
      WHERE mer_id = $1 AND NOT released AND amount > 0 ORDER BY release_date, bus_line, set_cur LIMIT 20`,
    [merId],
  );
  return {
    merId,
    lines,
    nextReleases: next.rows.map((r) => ({
      txnSetDate: r.txn_set_date,
      busLine: r.bus_line,
      currency: r.set_cur.trim(),
      amount: toDecimal(r.amount, r.set_cur.trim()),
      releaseDate: r.release_date,
    })),
  };
}

export interface MerchantInfoRow {
  mer_id: string;
  name: string;
  channels: string[];
  currencies: string[];
  contractor: number;
  default_currency: string;
}

/** The merchants `scope` reaches, the caller's own (`own`) first: /merchant/info. */
export async function merchantsOfScope(q: Queryable, scope: string[], own: string): Promise<MerchantInfoRow[]> {
  const { rows } = await q.query<MerchantInfoRow>(
    `SELECT mer_id, name, channels, currencies, contractor, default_currency FROM merchant WHERE mer_id = ANY($1::text[])
      ORDER BY (mer_id = $2) DESC, mer_id`,
    [scope, own],
  );
  return rows;
}
