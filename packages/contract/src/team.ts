import { z } from 'zod';
import { pageQuerySchema } from './api';
import { USERNAME_RE } from './auth';
import { ADMIN_ONLY_PERMISSIONS, MENU, Perm, type MenuEntry, type Permission } from './permissions';
import { BEGIN_END, isoDate, optText, refuseReversed, textInput } from './input';
import { accessEndsOnField } from './access';

/**
 * Team (issue 12): the merchant's users, their roles and merchant scope, and the audit log viewer.
 *
 * Roles: presets a merchant understands, each a set of permission codes (always cut down to what
 * the granting user holds), or CUSTOM (codes picked one by one). Administrator = everything the
 * granting user holds; an administrator is a main user of its merchant.
 */
export const ROLES = ['ADMIN', 'FINANCE', 'REFUNDS', 'SUPPORT', 'READONLY', 'CUSTOM'] as const;
export type Role = (typeof ROLES)[number];

const P = Perm;
/** The preset roles' permission codes (ADMIN: all the granting user holds). */
export const ROLE_PRESETS: Record<Exclude<Role, 'ADMIN' | 'CUSTOM'>, Permission[]> = {
  /** Transactions, settlement, reports and exports; no refund. */
  FINANCE: [
    P.dashboard,
    P.noticeList,
    P.txnList,
    P.txnDetail,
    P.txnExport,
    P.txnQueryResult,
    P.settleList,
    P.settleDetail,
    P.reportTxn,
    P.reportBill,
    P.reportTransfer,
    P.reportReserve,
    P.reportFile,
    P.filesDownload,
  ],
  /** Transactions and refunds. */
  REFUNDS: [P.noticeList, P.txnList, P.txnDetail, P.txnQueryResult, P.txnRefund],
  /** Read-only transactions; pay by link. */
  SUPPORT: [P.noticeList, P.txnList, P.txnDetail, P.txnQueryResult, P.payByLinkList, P.payByLinkDetail, P.payByLinkCreate, P.payByLinkUpdate, P.payByLinkClose],
  /** Every screen that only reads, nothing that writes or manages users. */
  READONLY: [
    P.dashboard,
    P.noticeList,
    P.txnList,
    P.txnDetail,
    P.txnQueryResult,
    P.settleList,
    P.settleDetail,
    P.logisticsList,
    P.reportTxn,
    P.reportBill,
    P.reportTransfer,
    P.reportReserve,
    P.reportFile,
    P.payByLinkList,
    P.payByLinkDetail,
    P.payInStoreList,
    P.merchantList,
    P.merchantDetail,
    P.filesDownload,
  ],
};

/** The codes a role gives when granted by a user holding `held` (presets cut down to it). */
export function rolePermissions(role: Role, held: readonly string[], custom: readonly string[] = []): string[] {
  const all = Object.values(Perm) as string[];
  const wanted: readonly string[] = role === 'ADMIN' ? held : role === 'CUSTOM' ? custom : ROLE_PRESETS[role];
  // Stored in the contract's order, each once.
  return all.filter((p) => wanted.includes(p) && (role === 'CUSTOM' || held.includes(p)));
}

/** Permission codes a custom role may hold: all but user management and the audit log (administrators'). */
export const GRANTABLE_PERMISSIONS: Permission[] = (Object.values(Perm) as Permission[]).filter((p) => !ADMIN_ONLY_PERMISSIONS.includes(p));

/** Permission codes grouped by the menu entry they belong to (the custom-role picker's groups). */
export interface PermissionGroup {
  /** `menu` namespace key. */
  menu: string;
  permissions: Permission[];
}
export function permissionGroups(codes: readonly string[] = GRANTABLE_PERMISSIONS): PermissionGroup[] {
  const groups: PermissionGroup[] = [];
  const seen = new Set<string>();
  const groupOf = (e: MenuEntry) => e.name;
  const add = (menu: string, p: Permission) => {
    if (!codes.includes(p) || seen.has(p)) return;
    seen.add(p);
    let g = groups.find((x) => x.menu === menu);
    if (!g) groups.push((g = { menu, permissions: [] }));
    g.permissions.push(p);
  };
  // Codes with no menu entry of their own, grouped with the screen they act on.
  const extra: Record<string, string> = {
    [P.txnRefund]: 'txn',
    [P.txnExport]: 'txn',
    [P.txnQueryResult]: 'txn',
    [P.manualBlend]: 'txn',
    [P.logisticsImport]: 'txn',
    [P.payByLinkCreate]: 'payByLink',
    [P.payByLinkUpdate]: 'payByLink',
    [P.payByLinkClose]: 'payByLink',
    [P.merchantUserManage]: 'merchant',
  };
  for (const top of MENU) {
    add(groupOf(top), top.permission);
    // A screen opened by a code that belongs elsewhere (the approvals list, opened by the refund
    // permission) does not move that code out of its own area.
    for (const c of top.children ?? []) if (!extra[c.permission] || extra[c.permission] === groupOf(top)) add(groupOf(top), c.permission);
  }
  for (const [p, menu] of Object.entries(extra)) add(menu, p as Permission);
  for (const p of codes) if (!seen.has(p)) add('other', p as Permission);
  return groups;
}

/** User status on the wire (spec §6 "status (enable/disable)"), plus not yet activated. */
export const USER_STATUSES = ['ACTIVE', 'INACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface TeamUserRow {
  id: number;
  userID: number;
  userName: string;
  userType: 'MAIN' | 'SUB';
  role: Role | null;
  /** A named role of the merchant's (role CUSTOM, permissions the named role's), else null. */
  roleId: number | null;
  roleName: string | null;
  merId: string;
  merName: string;
  /** The merchants the user may see (its stored scope, or the derived one). */
  merIds: string[];
  /** The permission codes the user holds (what its role gave it, or the custom set). */
  permissions: string[];
  email: string;
  /** Masked: the last four digits only. */
  phone: string | null;
  status: UserStatus;
  twoFactor: boolean;
  lastLoginTime: string | null;
  createTime: string;
  self: boolean;
  /** The last day of the user's access (platform zone), or null (decision 048). */
  accessEndsOn: string | null;
}

const opt = <T extends z.ZodTypeAny>(s: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());
const merId = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');
/** A list given as an array or a comma-joined string (form posts). */
const list = <T extends z.ZodTypeAny>(item: T) => z.preprocess((v) => (typeof v === 'string' ? (v.trim() ? v.split(',').map((x) => x.trim()) : []) : v), z.array(item));
const userId = z.coerce.number().int().positive().max(2_147_483_647);

const roleIdField = z.coerce.number().int().positive().max(2_147_483_647);
/** CUSTOM takes either its own permissions or a named role, never both; a preset takes neither roleId. */
const customGrant = (v: { role: Role; permissions?: string[]; roleId?: number }) => (v.role === 'CUSTOM' ? (v.roleId !== undefined) !== (v.permissions?.length ?? 0) > 0 : v.roleId === undefined);

export const teamListQuerySchema = pageQuerySchema.extend({
  merId: opt(merId),
  status: opt(z.enum(USER_STATUSES)),
  /** Part of the user name or e-mail. */
  text: optText(64),
});

export const PHONE_RE = /^\+[1-9]\d{6,14}$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const generateUserNameQuerySchema = z.object({ base: optText(40) });
export const checkUserExistQuerySchema = z.object({
  userName: optText(64),
  email: optText(254),
  phone: optText(20),
});

export const addUserSchema = z
  .object({
    userName: textInput(64).pipe(z.string().regex(USERNAME_RE, 'user name: 3–64 letters, digits, _ . @ -')),
    email: textInput(254).pipe(z.string().regex(EMAIL_RE, 'e-mail')),
    phone: opt(textInput(20).pipe(z.string().regex(PHONE_RE, 'phone'))),
    /** The merchants the new user may see: the caller's merchant or its sub-merchants. */
    merIds: list(merId).pipe(z.array(merId).min(1, 'merchant').max(200)),
    role: z.enum(ROLES),
    /** CUSTOM only: the permission codes. */
    permissions: opt(list(textInput(64)).pipe(z.array(z.string()).max(64))),
    /** CUSTOM only, instead of permissions: one of the merchant's named roles (its permissions). */
    roleId: opt(roleIdField),
    /** The last day of the user's access (yyyy-MM-dd, platform zone; not in the past), or none (decision 048). */
    accessEndsOn: accessEndsOnField,
  })
  .refine(customGrant, { message: 'permissions', path: ['permissions'] });
export type AddUserInput = z.infer<typeof addUserSchema>;

export const userIdSchema = z.object({ userId });

/**
 * Edit a user (issue 28): its role, custom permissions and merchants — the same rules as adding
 * (grants within the editor's own, merchants within the editor's scope).
 */
export const updateUserSchema = z
  .object({
    userId,
    merIds: list(merId).pipe(z.array(merId).min(1, 'merchant').max(200)),
    role: z.enum(ROLES),
    permissions: opt(list(textInput(64)).pipe(z.array(z.string()).max(64))),
    roleId: opt(roleIdField),
    /** The last day of the user's access; absent or blank: none (an edit sets the whole grant). */
    accessEndsOn: accessEndsOnField,
  })
  .refine(customGrant, { message: 'permissions', path: ['permissions'] });
export type UpdateUserInput = z.infer<typeof updateUserSchema>;
export const updateUserStatusSchema = z.object({ userId, status: z.enum(['ACTIVE', 'DISABLED']) });

/** Audit event types (filter): each a set of action prefixes. */
export const AUDIT_EVENT_TYPES = {
  signIn: ['auth.login', 'auth.lockout', 'auth.email_code'],
  session: ['auth.logout', 'auth.refresh', 'session.'],
  password: ['auth.password', 'account.password', 'account.reset', 'account.activate', 'auth.password_check'],
  twoFactor: ['account.totp', 'account.2fa', 'auth.totp'],
  refund: ['txn.refund'],
  export: ['export.', 'audit.export'],
  payByLink: ['paybylink.'],
  user: ['user.', 'role.'],
  account: ['account.'],
} as const;
export type AuditEventType = keyof typeof AUDIT_EVENT_TYPES;
export const AUDIT_EVENT_TYPE_KEYS = Object.keys(AUDIT_EVENT_TYPES) as AuditEventType[];

const auditFilterShape = {
  /** Days in the platform zone, inclusive (as the other lists). */
  beginDate: opt(isoDate),
  endDate: opt(isoDate),
  /** Exact user name (case-insensitive). */
  userName: optText(64),
  eventType: opt(z.enum(AUDIT_EVENT_TYPE_KEYS as [AuditEventType, ...AuditEventType[]])),
};
export const auditFilterSchema = z.object(auditFilterShape).superRefine(refuseReversed(BEGIN_END));
export const auditListQuerySchema = pageQuerySchema.extend(auditFilterShape).superRefine(refuseReversed(BEGIN_END));
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export interface AuditRow {
  id: number;
  time: string;
  userName: string | null;
  merId: string | null;
  action: string;
  outcome: 'success' | 'failure';
  target: string | null;
  ip: string | null;
}

/** Audit rows are kept this long (PCI DSS 10.5.1), then purged by the job runner. */
export const AUDIT_RETENTION_MONTHS = 12;

/**
 * Named custom roles (issue 28, decision 041): a role a merchant defines once — name, description,
 * permission codes — and assigns to many users; changing it changes all of them at once.
 */
export const REFUND_CAP_RE = /^([A-Z]{3}):(\d{1,12}(?:\.\d{1,3})?)?:(\d{1,12}(?:\.\d{1,3})?)?$/;
export interface TeamRoleRow {
  id: number;
  /** The merchant that owns the role. */
  merId: string;
  name: string;
  description: string;
  permissions: string[];
  /** Refund caps of the role's holders by currency (decimal strings; null: no cap of that kind). */
  refundCaps: Record<string, { perRefund: string | null; perDay: string | null }>;
  /** How many (not removed) users hold the role. */
  users: number;
  updateTime: string;
}
export const roleSaveSchema = z.object({
  /** Absent: a new role; present: the role to change. */
  roleId: opt(roleIdField),
  name: textInput(40, { min: 1 }),
  description: z.preprocess((v) => (v === undefined || v === null ? '' : v), textInput(200)),
  permissions: list(textInput(64)).pipe(z.array(z.string()).min(1, 'permissions').max(64)),
  /** Refund caps: "CUR:perRefund:perDay", either amount may be empty (no cap of that kind), e.g. "USD:500:2000,EUR::800". */
  refundCaps: z.preprocess(
    (v) => (v === undefined || v === null ? [] : typeof v === 'string' ? (v.trim() ? v.split(',').map((x) => x.trim()) : []) : v),
    z
      .array(
        z
          .string()
          .regex(REFUND_CAP_RE, 'CUR:perRefund:perDay')
          .refine((x) => !x.endsWith('::') && /\d/.test(x), 'a cap'),
      )
      .max(40),
  ),
});
export type RoleSaveInput = z.infer<typeof roleSaveSchema>;
export const roleIdSchema = z.object({ roleId: roleIdField });
