/** A SCIM User body read into the state the portal keeps: a create's or replace's attributes, a PATCH's operations. */
import { USERNAME_RE } from '@portal/contract';
import { hasControlChars } from '@portal/contract';
import { ScimError, invalidValue } from './scim.errors';
import { scimBool } from './scim.filter';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** The state of a user that SCIM sets: what a create or replace carries, what PATCH changes. */
export interface UserState {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  email: string | null;
  active: boolean;
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A text attribute: a string of at most `max` characters without control characters, or null. */
function text(v: unknown, field: string, max = 256): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string' || v.length > max || hasControlChars(v)) throw invalidValue(field);
  return v.trim() || null;
}

function userName(v: unknown): string {
  if (typeof v !== 'string' || !USERNAME_RE.test(v.trim())) throw invalidValue('userName');
  return v.trim();
}

function email(v: unknown): string {
  if (typeof v !== 'string' || v.length > 254 || !EMAIL_RE.test(v.trim())) throw invalidValue('emails');
  return v.trim();
}

/** The primary (else the first) of a SCIM `emails` array. */
function primaryEmail(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) throw invalidValue('emails');
  const list = v as { value?: unknown; primary?: unknown }[];
  const pick = list.find((e) => e && (e.primary === true || e.primary === 'true' || e.primary === 'True')) ?? list[0];
  return pick ? email(pick.value) : null;
}

function object(v: unknown, field: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidValue(field);
  return v as Record<string, unknown>;
}

/** The state a POST or PUT body describes (attributes it leaves out are cleared, as a replace does). */
export function parseUserBody(body: unknown): UserState {
  const b = object(body, 'body');
  const name = b.name === undefined || b.name === null ? {} : object(b.name, 'name');
  return {
    userName: userName(b.userName),
    externalId: text(b.externalId, 'externalId'),
    givenName: text(name.givenName, 'name.givenName', 128),
    familyName: text(name.familyName, 'name.familyName', 128),
    displayName: text(b.displayName, 'displayName'),
    email: primaryEmail(b.emails),
    active: b.active === undefined || b.active === null ? true : scimBool(b.active, 'active'),
  };
}

/** Attributes of the core schema the portal does not keep: accepted and ignored (RFC 7644 lets a service provider do so). */
const IGNORED = new Set([
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'password',
  'phonenumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509certificates',
  'name.formatted',
  'name.middlename',
  'name.honorificprefix',
  'name.honorificsuffix',
  'schemas',
  'id',
  'meta',
  'groups',
]);

/** Sets one attribute (a PATCH path, or a key of a path-less PATCH value); `remove` clears it. */
function setUserAttr(s: UserState, rawPath: string, v: unknown, remove: boolean): void {
  if (/^urn:ietf:params:scim:schemas:extension:/i.test(rawPath)) return; // the enterprise extension: not kept
  const path = rawPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '');
  const p = path
    .toLowerCase()
    .replace(/\[\s*type\s+eq\s+"\w+"\s*\]/, '')
    .replace(/\[\s*primary\s+eq\s+true\s*\]/, '');
  switch (p) {
    case 'active':
      if (remove) throw invalidValue('active');
      s.active = scimBool(v, 'active');
      return;
    case 'username':
      if (remove) throw new ScimError(400, 'scimInvalidValue', 'mutability', { field: 'userName' });
      s.userName = userName(v);
      return;
    case 'externalid':
      s.externalId = remove ? null : text(v, 'externalId');
      return;
    case 'displayname':
      s.displayName = remove ? null : text(v, 'displayName');
      return;
    case 'name.givenname':
      s.givenName = remove ? null : text(v, 'name.givenName', 128);
      return;
    case 'name.familyname':
      s.familyName = remove ? null : text(v, 'name.familyName', 128);
      return;
    case 'name': {
      if (remove) {
        s.givenName = s.familyName = null;
        return;
      }
      const n = object(v, 'name');
      for (const [k, x] of Object.entries(n)) setUserAttr(s, `name.${k}`, x, false);
      return;
    }
    case 'emails':
    case 'emails.value':
      if (remove) throw invalidValue('emails');
      s.email = p === 'emails' ? primaryEmail(v) : email(v);
      return;
    default:
      if (IGNORED.has(p) || IGNORED.has(p.split('.')[0])) return;
      throw new ScimError(400, 'scimInvalidPath', 'invalidPath', { path: path.slice(0, 100) });
  }
}

/**
 * Applies PATCH operations (RFC 7644 §3.5.2) to the state: `add`, `replace`, `remove` in any case
 * (Entra ID writes "Replace"), with a path (`active`, `name.givenName`, `emails[type eq "work"].value`,
 * a schema-qualified one) or without (Okta's `{"op":"replace","value":{"active":false}}`).
 */
export function patchUserState(s: UserState, body: unknown): void {
  const ops = object(body, 'body').Operations;
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > 100) throw invalidValue('Operations');
  for (const raw of ops) {
    const op = object(raw, 'Operations');
    const kind = typeof op.op === 'string' ? op.op.toLowerCase() : '';
    if (!['add', 'replace', 'remove'].includes(kind)) throw invalidValue('op');
    const path =
      op.path === undefined || op.path === null
        ? null
        : typeof op.path === 'string'
          ? op.path.trim()
          : (() => {
              throw invalidValue('path');
            })();
    if (path) setUserAttr(s, path, op.value, kind === 'remove');
    else {
      if (kind === 'remove') throw new ScimError(400, 'scimInvalidPath', 'noTarget', { path: '' });
      for (const [k, v] of Object.entries(object(op.value, 'value'))) {
        if (k === ENTERPRISE || k.toLowerCase() === 'schemas') continue;
        setUserAttr(s, k, v, false);
      }
    }
  }
}
