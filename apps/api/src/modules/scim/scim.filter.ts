import { ScimError } from './scim.errors';

/**
 * The SCIM filters identity providers send (RFC 7644 §3.4.2.2): one comparison `attribute eq value`
 * — Entra ID's and Okta's `userName eq "…"`, `externalId eq "…"`, Entra's `displayName eq "…"` for
 * groups. Attribute names are case-insensitive; the value is a JSON string (escapes allowed), a
 * boolean or null. Anything else (other operators, `and`/`or`, grouping) answers 400 invalidFilter.
 */
export interface Filter {
  /** The attribute path, lower-cased, its schema URN prefix removed (`emails[type eq "work"].value` → `emails.value`). */
  attr: string;
  value: string | boolean | null;
}

const FILTER_RE = /^\s*([A-Za-z][\w:.$-]*(?:\[\s*type\s+eq\s+"\w+"\s*\])?(?:\.\w+)?)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false|null)\s*$/i;

export function parseFilter(s: string | undefined): Filter | null {
  if (s === undefined || s.trim() === '') return null;
  const m = FILTER_RE.exec(s);
  if (!m) throw new ScimError(400, 'scimInvalidFilter', 'invalidFilter');
  let value: Filter['value'];
  try {
    value = JSON.parse(m[2].startsWith('"') ? m[2] : m[2].toLowerCase()) as Filter['value'];
  } catch {
    throw new ScimError(400, 'scimInvalidFilter', 'invalidFilter');
  }
  const attr = m[1]
    .replace(/^urn:ietf:params:scim:schemas:core:2\.0:(?:User|Group):/i, '')
    .replace(/\[\s*type\s+eq\s+"\w+"\s*\]/i, '')
    .toLowerCase();
  return { attr, value };
}

/** startIndex (1-based) and count of a list request (RFC 7644 §3.4.2.4): bad or missing values take the defaults. */
export function pageOf(query: Record<string, unknown>): { startIndex: number; count: number } {
  const num = (v: unknown) => (typeof v === 'string' && /^-?\d{1,9}$/.test(v) ? Number(v) : undefined);
  const startIndex = Math.max(1, num(query.startIndex) ?? 1);
  const count = Math.min(200, Math.max(0, num(query.count) ?? 100));
  return { startIndex, count };
}

export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** The version in an If-Match header matches `version` (or the header is absent or `*`). */
export function ifMatch(header: string | string[] | undefined, version: number): boolean {
  if (header === undefined) return true;
  const tags = ([] as string[])
    .concat(header)
    .flatMap((h) => h.split(','))
    .map((x) => x.trim());
  return tags.some((t) => t === '*' || t.replace(/^W\//, '') === `"${version}"`);
}

export const etagOf = (version: number) => `W/"${version}"`;

/** A SCIM boolean: JSON's, or the strings Entra ID sends in PATCH ("True", "False"). */
export function scimBool(v: unknown, field: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw new ScimError(400, 'scimInvalidValue', 'invalidValue', { field });
}
