import { z } from 'zod';
import { isCidr } from './developer';
import { hasControlChars, textInput } from './input';

/**
 * Team → Provisioning and the sign-in IP allow-list (issue 51, decision 065): the SCIM bearer
 * tokens an identity provider provisions with (shown once), the group → named-role mappings, and
 * the addresses sign-ins may come from. Form posts: lists as arrays or comma/line-joined strings.
 */

/** A SCIM token as handed out: `scim_` + 12 characters (its public prefix) + `_` + 43 secret characters. */
export const SCIM_TOKEN_RE = /^scim_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/;
/** At most this many addresses or ranges in a merchant's sign-in allow-list. */
export const SIGNIN_IP_MAX = 50;

export const scimTokenCreateSchema = z.object({ name: textInput(64, { min: 1 }) });
export const scimIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const scimTokenRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'revoked']),
});
export type ScimTokenRow = z.infer<typeof scimTokenRowSchema>;
export const scimTokenCreatedSchema = z.object({ token: scimTokenRowSchema, secret: z.string().describe('the bearer token: shown in this answer only') });

/** A group's display name as the identity provider sends it (matched case-insensitively). */
const groupName = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .refine((s) => !hasControlChars(s), 'no control characters');

export const scimMappingSaveSchema = z.object({
  groupName,
  roleId: z.coerce.number().int().positive().max(2_147_483_647),
});
export const scimMappingRowSchema = z.object({
  id: z.number(),
  groupName: z.string(),
  roleId: z.number(),
  roleName: z.string(),
  /** Provisioned users in a group of that name now. */
  members: z.number(),
  createdAt: z.string(),
});
export type ScimMappingRow = z.infer<typeof scimMappingRowSchema>;

/** A provisioned group as the screen lists it. */
export const scimGroupRowSchema = z.object({ id: z.string(), displayName: z.string(), members: z.number(), roleName: z.string().nullable() });
export type ScimGroupRow = z.infer<typeof scimGroupRowSchema>;

const lines = (v: unknown) =>
  typeof v === 'string'
    ? v.trim()
      ? v
          .split(/[,\s]+/)
          .map((x) => x.trim())
          .filter(Boolean)
      : []
    : v;

export const signInIpSaveSchema = z.object({
  ranges: z.preprocess((v) => (v === undefined || v === null ? [] : lines(v)), z.array(z.string().trim().max(64).refine(isCidr, 'an IP address or CIDR range')).max(SIGNIN_IP_MAX)),
});
export type SignInIpSave = z.infer<typeof signInIpSaveSchema>;

export const signInIpSchema = z.object({
  ranges: z.array(z.string()).describe('addresses or CIDR ranges (IPv4, IPv6); empty: sign-ins from anywhere'),
  yourIp: z.string().describe('the address this request came from, as the server sees it (its trusted-proxy rules)'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type SignInIp = z.infer<typeof signInIpSchema>;
