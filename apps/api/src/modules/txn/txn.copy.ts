/**
 * The transaction exports' cells in SQL, for the CSV written by COPY (export.copy.ts): each
 * expression computes what the JS column (txn.exports.ts) computes — `money()`, `brandName()`, the
 * labels of txn.labels.ts in the export's language — so both paths write the same bytes
 * (txn.copy.test.ts compares them). Labels and names are inlined as literals from the same maps.
 */
import { BRANDS, CURRENCY_EXPONENT, type Language } from '@portal/contract';
import { sqlLiteral } from '../../db/sql-inline';
import { textCellLiteral, textCellSql, type ColumnSql } from '../export';
import { neutralise } from '../export';
import { RESULT_LABELS, SETTLE_LABELS, TYPE_LABELS } from './txn.labels';

const byExponent = new Map<number, string[]>();
for (const [cur, e] of Object.entries(CURRENCY_EXPONENT)) byExponent.set(e, [...(byExponent.get(e) ?? []), cur]);

/**
 * `money(minor, cur)` in SQL, for a char(3) currency column `cur`: '0' when either is NULL, the
 * currency's decimals from CURRENCY_EXPONENT (numeric with that scale: '-0.05', '0.00'); an unknown
 * currency fails the statement, as `money()` throws (toDecimal's 'unknown currency …'). So once a
 * row is written, its currency is one of CURRENCY_EXPONENT's codes (the JS path would have thrown
 * too): the currency cells need no padding, neutralising or blank handling.
 * `o.checked`: the same row's amount cell already fails on an unknown `cur`, and `minor` and `cur`
 * are never NULL — only the decimals are left to choose. `o.zeroFirst`: most values are 0.
 */
function moneySql(minor: string, cur: string, o: { checked?: boolean; zeroFirst?: boolean } = {}): string {
  const m = `(${minor})`;
  const groups = [...byExponent].sort((a, b) => b[1].length - a[1].length); // the longest list first: most rows
  const text = (e: number, v: string) => (e === 0 ? `${v}::text` : `(${v} * 0.${'0'.repeat(e - 1)}1)::text`);
  const zero = (e: number) => sqlLiteral(e === 0 ? '0' : `0.${'0'.repeat(e)}`);
  const branches = groups.map(([e, curs], i) => {
    const value = o.zeroFirst ? `CASE WHEN ${m} = 0 THEN ${zero(e)} ELSE ${text(e, m)} END` : text(e, m);
    if (o.checked && i === groups.length - 1) return `ELSE ${value}`;
    return `WHEN ${cur} IN (${curs.map(sqlLiteral).join(', ')}) THEN ${value}`;
  });
  const head = o.checked ? '' : `WHEN ${m} IS NULL OR ${cur} IS NULL THEN '0' `;
  const tail = o.checked ? '' : ` ELSE (('unknown currency ' || ${cur})::int4)::text`;
  return `CASE ${head}${branches.join(' ')}${tail} END`;
}

/** `resultStateOf(gw_response)` → its label. */
function resultSql(lang: Language): string {
  const L = (s: keyof typeof RESULT_LABELS) => textCellLiteral(RESULT_LABELS[s][lang]);
  return `CASE WHEN t.gw_response = '00' THEN ${L('S')} WHEN t.gw_response IS NULL OR t.gw_response IN ('', '04') THEN ${L('P')} ELSE ${L('F')} END`;
}

/** `typeLabel(tran_type, lang)`: the label, else the type itself. */
function typeSql(lang: Language): string {
  const whens = Object.entries(TYPE_LABELS).map(([k, l]) => `WHEN ${sqlLiteral(k)} THEN ${textCellLiteral(l[lang])}`);
  return `CASE t.tran_type ${whens.join(' ')} ELSE ${textCellSql('t.tran_type')} END`;
}

/** `settleStateOf(settle_flag, gw_response)` → its label, blank for ''. */
function settleStateSql(lang: Language): string {
  const L = (s: keyof typeof SETTLE_LABELS) => textCellLiteral(SETTLE_LABELS[s][lang]);
  return `CASE WHEN t.settle_flag = 'T' THEN ${L('T')} WHEN t.gw_response IS DISTINCT FROM '00' THEN NULL
               WHEN t.settle_flag = 'N' THEN ${L('N')} WHEN t.settle_flag IN ('Y', 'S') THEN ${L('W')} ELSE NULL END`;
}

// A blank name would be a blank cell in JS; BRAND_SQL would print `""` for it.
if (BRANDS.some((b) => !b.name)) throw new Error('a brand without a name');
/** code → display name as a text cell (neutralised), a JSON object: one binary search per row. */
// Built on first use, not while this file loads: `sqlLiteral`, `neutralise` and `textCellSql` come
// through the export module's door, which a circle of doors may not have run yet (decision 066).
let brandSql: string | undefined;
const brandCells = () => sqlLiteral(JSON.stringify(Object.fromEntries(BRANDS.map((b) => [b.code, neutralise(b.name)]))));

/** `brandName(payment_brand)`: the name of a known code, else the code; blank for NULL or '' (no such key). */
const BRAND_SQL = () => (brandSql ??= `COALESCE(${brandCells()}::jsonb ->> t.payment_brand, ${textCellSql('t.payment_brand')})`);

/** SQL of every column of `txnColumns` (txn t joined to merchant m), by key. */
export function txnColumnSql(lang: Language): Record<string, ColumnSql> {
  return {
    orderNo: 't.order_no',
    txnTime: 't.txn_time',
    result: { cell: resultSql(lang) },
    // 15 digits (merchant's CHECK, txn's foreign key): never blank, never a formula start.
    merId: { cell: 't.mer_id' },
    merName: 'm.name',
    originOrderNo: 't.origin_order_no',
    type: { cell: typeSql(lang) },
    amount: moneySql(`CASE WHEN t.tran_type = 'MANENTD' THEN t.amount * t.amount_sign ELSE t.amount END`, 't.currency'),
    // A known code whenever the row is written (see moneySql): char(3) printed as the driver reads it.
    currency: { cell: 't.currency' },
    // The amount cell (same row, same currency) fails on an unknown currency; both columns NOT NULL.
    returnAmount: moneySql('t.return_amount', 't.currency', { checked: true, zeroFirst: true }),
    brand: { cell: BRAND_SQL() },
    channel: 't.payment_schema',
    settleFlag: { cell: settleStateSql(lang) },
  };
}

/** SQL of every column of the settle export, by key. */
export function settleColumnSql(lang: Language): Record<string, ColumnSql> {
  return {
    ...txnColumnSql(lang),
    settleDate: 't.settle_date::text',
    settleCurrency: { cell: 't.settle_currency' }, // NULL or a known code (moneySql)
    settleAmount: moneySql('t.settle_amount', 't.settle_currency'),
    settleFee: moneySql('t.settle_fee', 't.settle_currency'),
    settleNet: moneySql('coalesce(t.settle_amount, 0) - coalesce(t.settle_fee, 0)', 't.settle_currency'),
  };
}
