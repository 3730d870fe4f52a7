import { z } from 'zod';
import { pageQuerySchema } from './api';
import { isoDate, optText, textInput } from './input';

/**
 * Developers → Keys (issue 31, decision 039): API keys for the merchant REST API (/v1). A key acts
 * for the merchants and with the permissions it was given — both within its creator's — and its
 * secret is shown once. Form posts: lists as arrays or comma-joined strings.
 */

/** A key's secret as handed out: `mpk_` + 12 characters (its public prefix) + `_` + 43 secret characters. */
export const API_KEY_RE = /^mpk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/;
/** Days without use after which a key is flagged in the list. */
export const API_KEY_UNUSED_DAYS = 90;
/** At most this many addresses or ranges in a key's allow-list. */
export const API_KEY_MAX_IPS = 20;

const blank = <T extends z.ZodTypeAny>(s: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());
const list = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v.trim()
          ? v
              .split(/[,\s]+/)
              .map((x) => x.trim())
              .filter(Boolean)
          : []
        : v,
    z.array(item),
  );

const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_CIDR = new RegExp(`^${octet}(?:\\.${octet}){3}(?:/(?:3[0-2]|[12]?\\d))?$`);
/** An IPv4 address or range (`203.0.113.7`, `203.0.113.0/24`) or an IPv6 one (`2001:db8::/32`). */
export function isCidr(s: string): boolean {
  if (IPV4_CIDR.test(s)) return true;
  const m = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/.exec(s);
  if (!m || !m[1].includes(':')) return false;
  if (m[2] !== undefined && Number(m[2]) > 128) return false;
  const parts = m[1].split('::');
  if (parts.length > 2) return false;
  const groups = parts.flatMap((p) => (p ? p.split(':') : []));
  if (groups.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return parts.length === 2 ? groups.length < 8 : groups.length === 8;
}

export const apiKeyCreateSchema = z.object({
  name: textInput(64, { min: 1 }),
  merIds: list(
    z
      .string()
      .trim()
      .regex(/^\d{15}$/, 'merchant id'),
  ).pipe(z.array(z.string()).min(1).max(200)),
  permissions: list(z.string().trim().min(1).max(64)).pipe(z.array(z.string()).min(1).max(100)),
  ipAllow: blank(list(z.string().trim().max(64).refine(isCidr, 'an IP address or CIDR range')).pipe(z.array(z.string()).max(API_KEY_MAX_IPS))),
  /** Last day the key works (inclusive, in the platform's zone); none = until revoked. */
  expiresOn: blank(isoDate),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export const apiKeyListQuerySchema = pageQuerySchema.extend({
  status: blank(z.enum(['active', 'revoked', 'expired'])),
  name: optText(64),
});
export const apiKeyIdSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const apiKeyRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  merIds: z.array(z.string()),
  permissions: z.array(z.string()),
  ipAllow: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  lastIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
  /** Not used (or never used) for API_KEY_UNUSED_DAYS days. */
  unused: z.boolean(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRowSchema>;
/** The creation's answer: the row and the secret, shown this once. */
export const apiKeyCreatedSchema = z.object({ key: apiKeyRowSchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
