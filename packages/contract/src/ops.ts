import { z } from 'zod';
import { isoDate, textInput } from './input';
import { TRANSFER_PERIOD_RE } from './payments';
import { USERNAME_RE } from './auth';
import { EMAIL_RE } from './team';

/**
 * The provider's back office (issue 26, decision 038): operator roles and the ops API's inputs.
 * Operators are not merchant users; their roles are checked by the server on every /api/ops/ call.
 */
export const OPS_ROLES = ['administrator', 'onboarding', 'risk', 'support', 'read-only'] as const;
export type OpsRole = (typeof OPS_ROLES)[number];

/** Every role: routes any signed-in operator may call (their own account, reading). */
export const ANY_OPS_ROLE: readonly OpsRole[] = OPS_ROLES;

const password = textInput(256, { min: 1, trim: false });

export const opsLoginSchema = z.object({
  username: textInput(128, { min: 1 }),
  password,
  /** The authenticator's 6 digits, or a recovery code: mandatory for operators. */
  verifyCode: textInput(16, { min: 1 }),
});

export const opsRefreshSchema = z.object({ refreshToken: textInput(256, { min: 1, trim: false }) });

export const opsLinkToken = textInput(100, { min: 20 }).pipe(z.string().regex(/^[A-Za-z0-9_-]+$/, 'token'));

export const opsActivateSchema = z.object({
  token: opsLinkToken,
  newPassword: password,
  confirmPassword: password,
  /** A code of the authenticator just set up with the secret shown: proves the enrolment. */
  totpCode: textInput(6, { min: 6 }).pipe(z.string().regex(/^\d{6}$/, 'code')),
});

export const opsUsername = textInput(64, { min: 3 }).pipe(z.string().regex(USERNAME_RE, 'user name'));
export const opsEmail = textInput(254, { min: 3 }).pipe(z.string().regex(EMAIL_RE, 'e-mail'));

export const opsInviteSchema = z.object({
  username: opsUsername,
  email: opsEmail,
  role: z.enum(OPS_ROLES),
});

export const opsRoleSchema = z.object({ role: z.enum(OPS_ROLES) });

export interface OpsMe {
  id: number;
  username: string;
  email: string;
  role: OpsRole;
}

// ——— Merchants (issue 26: the back office puts merchants into the portal).

const optionalText = (max: number) => z.preprocess((v) => (v === '' || v === null ? undefined : v), textInput(max).optional());
const code = (re: RegExp, what: string) => z.string().trim().toUpperCase().regex(re, what);
const CURRENCY = /^[A-Z]{3}$/;
export const BUS_LINE_RE = /^[A-Z][A-Z0-9_]{1,19}$/;
const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** One business line's fee schedule (money in minor units of the settlement currency; rates in basis points). */
export const opsFeeLineSchema = z.object({
  busLine: code(BUS_LINE_RE, 'business line'),
  mdrBp: int(0, 10000),
  fixedFee: int(0, 1e12),
  cycleDays: int(0, 60),
  reserveBp: int(0, 10000),
  reserveHoldDays: int(0, 720),
  tranThreshold: int(0, 1e15),
  tranFee: int(0, 1e12),
  transferPeriod: z.string().regex(TRANSFER_PERIOD_RE, 'transfer period'),
  /** Issue 48: the fee of each dispute (chargeback, pre-arbitration) that arrives, in minor units; kept when the dispute is won. */
  disputeFee: int(0, 1e12).default(0),
});
export type OpsFeeLine = z.infer<typeof opsFeeLineSchema>;

export const opsBankAccountSchema = z.object({
  beneficiaryBank: textInput(120, { min: 2 }),
  swiftCode: code(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'SWIFT code'),
  bankAddress: optionalText(200),
  accountName: textInput(120, { min: 2 }),
  accountNumber: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,34}$/, 'account number'),
  country: code(/^[A-Z]{2}$/, 'country'),
  currency: code(CURRENCY, 'currency'),
});

/** The fields of a merchant the back office sets (create and edit). */
export const opsMerchantFieldsSchema = z.object({
  name: textInput(120, { min: 2 }),
  webStoreName: optionalText(120),
  corporationName: textInput(200, { min: 2 }),
  companyAddress: optionalText(300),
  country: code(/^[A-Z]{2}$/, 'country'),
  city: optionalText(100),
  postcode: optionalText(20),
  mcc: z
    .string()
    .trim()
    .regex(/^\d{4}$/, 'MCC'),
  legalRegNo: optionalText(60),
  merchantUrl: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(300)
      .regex(/^https?:\/\/[^\s]+$/, 'URL')
      .optional(),
  ),
  defaultCurrency: code(CURRENCY, 'currency'),
  settleCurrency: code(CURRENCY, 'currency'),
  channels: z.array(code(BUS_LINE_RE, 'channel')).min(1).max(30),
  currencies: z.array(code(CURRENCY, 'currency')).min(1).max(40),
  principalName: optionalText(100),
  principalEmail: z.preprocess((v) => (v === '' || v === null ? undefined : v), opsEmail.optional()),
  principalTel: optionalText(40),
  dailyLimit: int(0, 1e15).nullish(),
});

const distinct = (xs: string[]) => new Set(xs).size === xs.length;

export const opsCreateMerchantSchema = opsMerchantFieldsSchema
  .extend({
    attribute: z.enum(['GROUP', 'SUB', 'INDEPENDENT']),
    /** The group of a sub-merchant (only then). */
    parentId: z
      .string()
      .regex(/^\d{15}$/, 'merchant id')
      .optional(),
    fees: z.array(opsFeeLineSchema).min(1).max(30),
    bankAccount: opsBankAccountSchema,
    /** The main user, sent an activation e-mail (a sub-merchant may have none: the group's users see it). */
    mainUser: z.object({ username: opsUsername, email: opsEmail }).optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.attribute === 'SUB') !== !!v.parentId) ctx.addIssue({ code: 'custom', path: ['parentId'], message: 'a sub-merchant, and only it, names its group' });
    if (v.attribute !== 'SUB' && !v.mainUser) ctx.addIssue({ code: 'custom', path: ['mainUser'], message: 'a group or independent merchant needs a main user' });
    if (!distinct(v.fees.map((f) => f.busLine))) ctx.addIssue({ code: 'custom', path: ['fees'], message: 'one schedule per business line' });
    if (!distinct(v.channels) || !distinct(v.currencies)) ctx.addIssue({ code: 'custom', path: ['channels'], message: 'no repeats' });
  });
export type OpsCreateMerchant = z.infer<typeof opsCreateMerchantSchema>;

export const opsMerchantListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(100000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  search: optionalText(100),
  status: z.enum(['ACTIVE', 'LOCKED']).optional(),
  attribute: z.enum(['GROUP', 'SUB', 'INDEPENDENT']).optional(),
  groupId: z
    .string()
    .regex(/^\d{15}$/, 'merchant id')
    .optional(),
  channel: z.preprocess((v) => (v === '' ? undefined : v), code(BUS_LINE_RE, 'channel').optional()),
  createdFrom: isoDate.optional(),
  createdTo: isoDate.optional(),
});

/** Opening a support "view as" of a merchant's portal (decision 046): the reason is audited on both sides. */
export const opsViewAsSchema = z.object({ reason: textInput(500, { min: 5 }) });
/** The longest a view-as lasts (absolute, server-enforced). */
export const VIEW_AS_MINUTES = 30;

export const opsLockSchema = z.object({ reason: textInput(300, { min: 3 }) });

/** New fee schedules from a day on (issue 26): never back in time; one per business line. */
export const opsFeeScheduleSchema = z
  .object({ effectiveFrom: isoDate, fees: z.array(opsFeeLineSchema).min(1).max(30) })
  .refine((v) => new Set(v.fees.map((f) => f.busLine)).size === v.fees.length, { path: ['fees'], message: 'one schedule per business line' });
