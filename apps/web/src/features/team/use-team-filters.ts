import { AUDIT_EVENT_TYPE_KEYS, DATE_RE, USER_STATUSES, type AuditEventType, type UserStatus } from '@portal/contract';
import { useUrlFilters } from '../../lib/url-filters';

/** The user list's filters kept in the URL: merchant, status, text. */
export interface UserFilters {
  merId?: string;
  status?: UserStatus;
  text?: string;
}

function readUsers(p: URLSearchParams): UserFilters {
  const f: UserFilters = {};
  const merId = p.get('merId')?.trim();
  if (merId && /^\d{15}$/.test(merId)) f.merId = merId;
  const status = p.get('status');
  if (status && (USER_STATUSES as readonly string[]).includes(status)) f.status = status as UserStatus;
  const text = p.get('text')?.trim();
  if (text && text.length <= 64) f.text = text;
  return f;
}
function writeUsers(f: UserFilters, out: URLSearchParams) {
  for (const k of ['merId', 'status', 'text'] as const) if (f[k]) out.set(k, f[k]!);
}
export const useUserFilters = () => useUrlFilters(readUsers, writeUsers);

/** The audit list's filters kept in the URL: days (platform zone), user, event type. */
export interface AuditFilters {
  beginDate?: string;
  endDate?: string;
  userName?: string;
  eventType?: AuditEventType;
}
function readAudit(p: URLSearchParams): AuditFilters {
  const f: AuditFilters = {};
  for (const k of ['beginDate', 'endDate'] as const) {
    const v = p.get(k);
    if (v && DATE_RE.test(v)) f[k] = v;
  }
  const u = p.get('userName')?.trim();
  if (u && u.length <= 64) f.userName = u;
  const e = p.get('eventType');
  if (e && (AUDIT_EVENT_TYPE_KEYS as string[]).includes(e)) f.eventType = e as AuditEventType;
  return f;
}
function writeAudit(f: AuditFilters, out: URLSearchParams) {
  for (const k of ['beginDate', 'endDate', 'userName', 'eventType'] as const) if (f[k]) out.set(k, f[k]!);
}
export const useAuditFilters = () => useUrlFilters(readAudit, writeAudit);
