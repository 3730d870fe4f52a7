import { z } from 'zod';
import { textInput, timeZoneInput } from './input';

/** Inputs of the account calls (activation, passwords, phone, WeChat, TOTP, sessions): text through the strict primitives of input.ts. */
const secret = textInput(256, { min: 1, trim: false });
const token = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'token');

export const activeInfoQuerySchema = z.object({ token: z.string().trim().max(200) });
export const activeSchema = z.object({ token, newPassword: secret, confirmPassword: secret });
export const updatePasswordSchema = z.object({
  /** Only without a session (an expired password). */
  username: textInput(128, { min: 1 }).optional(),
  oldPassword: secret,
  newPassword: secret,
  confirmPassword: secret,
});
/** The zone the portal shows times in: an IANA name; absent or '' for the browser's own (as /views/default clears). */
export const updateTimeZoneSchema = z.object({ timeZone: timeZoneInput({ blank: true }).optional() });
export const forgotPasswordSchema = z.object({ account: textInput(254, { min: 1 }) });
export const resetByLinkSchema = activeSchema;
export const phoneCodeSchema = z.object({
  phone: z
    .string()
    .trim()
    .max(20)
    .regex(/^\+[1-9]\d{6,14}$/, 'E.164 phone number'),
});
export const bindPhoneSchema = phoneCodeSchema.extend({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, '6 digits'),
});
export const totpEnableSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, '6 digits'),
});
export const totpDisableSchema = z.object({
  password: secret,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, '6 digits'),
});
export const revokeSessionSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const requireTotpSchema = z.object({ require: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]) });
/** The WeChat sign-in ticket; with the second factor (authenticator / recovery code, or the e-mailed code) once asked for it. */
export const wechatTicketSchema = z.object({ ticket: token, verifyCode: textInput(16).optional() });
export const wechatCallbackQuerySchema = z.object({
  code: z
    .string()
    .trim()
    .max(256)
    .regex(/^[A-Za-z0-9_-]+$/, 'code')
    .optional(),
  state: z.string().trim().max(200).optional(),
});

export interface SecurityOverview {
  phone: string | null;
  wechat: { available: boolean; bound: boolean; nickname: string | null };
  totp: { enabled: boolean; recoveryCodesLeft: number; required: boolean };
  /** How many passkeys the user has (decision 047). */
  passkeys: number;
  merchantRequireTotp: boolean | null;
}
export interface SessionItem {
  id: number;
  device: string;
  ip: string;
  startedAt: string;
  lastSeenAt: string;
  current: boolean;
}
export interface LoginHistoryItem {
  id: number;
  at: string;
  event: 'login' | 'logout' | 'lockout' | 'failure';
  method: string;
  reason: string;
  ip: string;
  device: string;
}

/** Passkeys (decision 047). The credential is the JSON text @simplewebauthn/browser made, parsed strictly by the server. */
const passkeyCredential = z.string().min(2).max(32768);
export const passkeyNameSchema = textInput(40, { min: 1 });
export const passkeyRegisterSchema = z.object({ name: passkeyNameSchema, credential: passkeyCredential });
export const passkeyRenameSchema = z.object({ id: z.coerce.number().int().positive().max(2147483647), name: passkeyNameSchema });
export const passkeyRemoveSchema = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
export const passkeyLoginOptionsSchema = z.object({ username: textInput(128, { min: 1 }), password: secret });
export const passkeyLoginSchema = z.object({ attempt: token, credential: passkeyCredential });
export interface PasskeyItem {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
