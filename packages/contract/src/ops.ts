import { z } from 'zod';
import { textInput } from './input';
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
