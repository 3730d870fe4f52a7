/** A merchant as the back office reads and writes it: its editable fields and their columns, the row read, the audit actions. */
import type { z } from 'zod';
import type { opsMerchantFieldsSchema, opsMerchantListQuerySchema } from '@portal/contract';
import type { Operator } from './ops.auth';

export type Fields = z.infer<typeof opsMerchantFieldsSchema>;
export type ListQuery = z.infer<typeof opsMerchantListQuerySchema>;

export const OpsMerchantAudit = {
  created: 'ops.merchant.create',
  edited: 'ops.merchant.edit',
  locked: 'ops.merchant.lock',
  unlocked: 'ops.merchant.unlock',
  mainUserCreated: 'ops.merchant.main_user',
  feeSchedule: 'ops.merchant.fee_schedule',
} as const;

export const who = (by: Operator) => ({ operatorId: by.id, username: by.username });

/** The column of each editable field. */
export const COLUMNS: Record<keyof Fields, string> = {
  name: 'name',
  webStoreName: 'web_store_name',
  corporationName: 'corporation_name',
  companyAddress: 'company_address',
  country: 'country',
  city: 'city',
  postcode: 'postcode',
  mcc: 'mcc',
  legalRegNo: 'legal_reg_no',
  merchantUrl: 'merchant_url',
  defaultCurrency: 'default_currency',
  settleCurrency: 'settle_currency',
  channels: 'channels',
  currencies: 'currencies',
  principalName: 'principal_name',
  principalEmail: 'principal_email',
  principalTel: 'principal_tel',
  dailyLimit: 'daily_limit',
};
export const FIELD_NAMES = Object.keys(COLUMNS) as (keyof Fields)[];
export const SELECT_FIELDS = FIELD_NAMES.map((f) => `m.${COLUMNS[f]} AS "${f}"`).join(', ');

/** The platform's calendar day of an instant (fee schedules take effect on platform days). */
export function platformDay(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

type Nullable<T> = { [K in keyof T]-?: Exclude<T[K], undefined> | null };
export interface OpsMerchantRow
  extends Omit<Nullable<Fields>, 'name' | 'defaultCurrency' | 'settleCurrency' | 'channels' | 'currencies'>,
    Pick<Fields, 'name' | 'defaultCurrency' | 'settleCurrency' | 'channels' | 'currencies'> {
  merId: string;
  attribute: 'GROUP' | 'SUB' | 'INDEPENDENT';
  parentId: string | null;
  parentName: string | null;
  locked: boolean;
  lockReason: string | null;
  createdAt: string;
}

export function rowOf(r: Record<string, unknown>): OpsMerchantRow {
  return {
    ...(r as unknown as OpsMerchantRow),
    dailyLimit: r.dailyLimit == null ? null : Number(r.dailyLimit),
    createdAt: new Date(r.createdAt as string).toISOString(),
  };
}

export const BASE = `SELECT m.mer_id AS "merId", m.attribute, m.parent_id AS "parentId", p.name AS "parentName", m.locked, m.lock_reason AS "lockReason",
                     m.created_at AS "createdAt", ${SELECT_FIELDS}
                FROM merchant m LEFT JOIN merchant p ON p.mer_id = m.parent_id`;

export const fieldValues = (v: Fields) => FIELD_NAMES.map((f) => (v[f] === undefined ? null : v[f]));
