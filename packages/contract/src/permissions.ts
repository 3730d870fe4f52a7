import type { RouterItem } from './auth';

/** Permission codes, written as the spec writes them (`txn:detail:refund`). */
export const Perm = {
  dashboard: 'dashboard:view',
  noticeList: 'notice:list',
  txnList: 'txn:list',
  txnDetail: 'txn:detail',
  txnRefund: 'txn:detail:refund',
  txnExport: 'txn:export',
  txnQueryResult: 'txn:queryResult',
  settleList: 'txn:settle:list',
  settleDetail: 'txn:settle:detail',
  manualBlend: 'txn:manualBlend',
  logisticsList: 'txn:logistics:list',
  logisticsImport: 'txn:logistics:import',
  reportTxn: 'report:txn',
  reportBill: 'report:bill',
  reportTransfer: 'report:transfer',
  reportReserve: 'report:reserve',
  reportFile: 'report:file',
  payByLinkList: 'paybylink:list',
  payByLinkDetail: 'paybylink:detail',
  payByLinkCreate: 'paybylink:create',
  payByLinkUpdate: 'paybylink:update',
  payByLinkClose: 'paybylink:close',
  payInStoreList: 'payinstore:list',
  merchantUser: 'merchant:user',
  merchantUserManage: 'merchant:user:manage',
  merchantList: 'merchant:list',
  merchantDetail: 'merchant:detail',
  filesDownload: 'files:download',
  merchantAudit: 'merchant:audit',
  payInStoreCreate: 'payinstore:create',
  cashierManage: 'payinstore:cashier:manage',
  merchantBankChange: 'merchant:bank:change',
  developerManage: 'developer:manage',
  // Issue 51: Team → Sign-in (identity providers, domains, "SSO required").
  teamSsoManage: 'team:sso:manage',
  // Issue 51 (SCIM provisioning): the identity provider's tokens and group → role mappings.
  teamScimManage: 'team:scim:manage',
  // Bank statements: upload, match to transfers, confirm / undo (issue 49 §2).
  bankStatement: 'bank:statement',
  // Issue 48: disputes inbox and detail; answering (evidence, submit, accept).
  disputeView: 'dispute:view',
  disputeRespond: 'dispute:respond',
  // Issue 50: /v1/webhook_endpoints and /v1/events — a permission a key may carry (developer:manage is administrators' only).
  developerWebhooks: 'developer:webhooks',
} as const;
export type Permission = (typeof Perm)[keyof typeof Perm];
export const ALL_PERMISSIONS: Permission[] = Object.values(Perm);

/** Permissions that change something: a read-only sub-user holds none of them. */
export const WRITE_PERMISSIONS: Permission[] = [
  Perm.txnRefund,
  Perm.manualBlend,
  Perm.logisticsImport,
  Perm.payByLinkCreate,
  Perm.payByLinkUpdate,
  Perm.payByLinkClose,
  Perm.merchantUserManage,
  Perm.payInStoreCreate,
  Perm.cashierManage,
  Perm.merchantBankChange,
  Perm.developerManage,
  // Issue 51.
  Perm.teamSsoManage,
  Perm.teamScimManage,
  // Issue 49 §2.
  Perm.bankStatement,
  // Issue 48.
  Perm.disputeRespond,
  // Issue 50.
  Perm.developerWebhooks,
];
/** Held only by a merchant's main users (administrators): user management and the audit log. */
export const ADMIN_ONLY_PERMISSIONS: Permission[] = ['merchant:user', 'merchant:user:manage', 'merchant:audit', Perm.developerManage, /* issue 51 */ Perm.teamSsoManage, Perm.teamScimManage];
export const READ_ONLY_PERMISSIONS: Permission[] = ALL_PERMISSIONS.filter((p) => !WRITE_PERMISSIONS.includes(p) && !ADMIN_ONLY_PERMISSIONS.includes(p));

/** A menu entry and the permission that grants it (the spec's menu entries, §2). */
export interface MenuEntry extends RouterItem {
  permission: Permission;
  children?: MenuEntry[];
}

export const MENU: MenuEntry[] = [
  { path: '/dashboard', name: 'dashboard', icon: 'DashboardOutlined', permission: Perm.dashboard },
  {
    path: '/txn',
    name: 'txn',
    icon: 'TransactionOutlined',
    permission: Perm.txnList,
    children: [
      { path: '/txn/list', name: 'txnList', permission: Perm.txnList },
      { path: '/txn/detail/:id', name: 'txnDetail', permission: Perm.txnDetail, hidden: true },
      { path: '/txn/settleList', name: 'settleList', permission: Perm.settleList, hidden: true },
      { path: '/txn/settleDetail', name: 'settleDetail', permission: Perm.settleDetail },
      { path: '/txn/logistics', name: 'logistics', permission: Perm.logisticsList },
      { path: '/txn/manualBlend', name: 'manualBlend', permission: Perm.manualBlend },
    ],
  },
  {
    path: '/report',
    name: 'report',
    icon: 'BarChartOutlined',
    permission: Perm.reportBill,
    children: [
      { path: '/report/txn', name: 'reportTxn', permission: Perm.reportTxn },
      { path: '/report/bill', name: 'reportBill', permission: Perm.reportBill },
      { path: '/report/transfer', name: 'reportTransfer', permission: Perm.reportTransfer },
      { path: '/report/reserve', name: 'reportReserve', permission: Perm.reportReserve },
      { path: '/report/file', name: 'reportFile', permission: Perm.reportFile },
      { path: '/report/schedules', name: 'reportSchedules', permission: Perm.reportFile },
    ],
  },
  {
    path: '/payByLink',
    name: 'payByLink',
    icon: 'LinkOutlined',
    permission: Perm.payByLinkList,
    children: [
      { path: '/payByLink/list', name: 'payByLinkList', permission: Perm.payByLinkList },
      { path: '/payByLink/detail/:id', name: 'payByLinkDetail', permission: Perm.payByLinkDetail, hidden: true },
    ],
  },
  {
    path: '/payInStore',
    name: 'payInStore',
    icon: 'ShopOutlined',
    permission: Perm.payInStoreList,
    children: [
      { path: '/payInStore/list', name: 'payInStoreList', permission: Perm.payInStoreList },
      { path: '/payInStore/detail/:id', name: 'payInStoreDetail', permission: Perm.payInStoreList, hidden: true },
      { path: '/payInStore/store', name: 'payInStoreStores', permission: Perm.payInStoreList },
      { path: '/payInStore/cashier', name: 'cashier', permission: Perm.cashierManage },
    ],
  },
  {
    path: '/merchant',
    name: 'merchant',
    icon: 'TeamOutlined',
    permission: Perm.merchantList,
    children: [
      { path: '/merchant/user', name: 'merchantUser', permission: Perm.merchantUser },
      { path: '/merchant/list', name: 'merchantList', permission: Perm.merchantList },
      { path: '/merchant/detail/:id', name: 'merchantDetail', permission: Perm.merchantDetail, hidden: true },
      { path: '/merchant/audit', name: 'merchantAudit', permission: Perm.merchantAudit },
      { path: '/merchant/approvals', name: 'merchantApprovals', permission: Perm.txnRefund },
      // Issue 51: Team → Sign-in.
      { path: '/merchant/sso', name: 'merchantSso', permission: Perm.teamSsoManage },
    ],
  },
  { path: '/files', name: 'files', icon: 'DownloadOutlined', permission: Perm.filesDownload },
  { path: '/notice/list', name: 'notice', icon: 'NotificationOutlined', permission: Perm.noticeList },
  {
    path: '/developers',
    name: 'developers',
    icon: 'ApiOutlined',
    permission: Perm.developerManage,
    children: [
      { path: '/developers/keys', name: 'developerKeys', permission: Perm.developerManage },
      { path: '/developers/webhooks', name: 'developerWebhooks', permission: Perm.developerManage },
    ],
  },
  // Bank statements and matching (issue 49 §2).
  { path: '/bankrec', name: 'bankrec', icon: 'BankOutlined', permission: Perm.bankStatement },
  // Issue 48: the disputes inbox (its detail is a screen of its own, not a menu entry).
  { path: '/disputes/list', name: 'disputes', icon: 'AlertOutlined', permission: Perm.disputeView },
];

/** The routers a user with `perms` may open, with the permission field dropped. */
export function routersFor(perms: readonly string[], entries: MenuEntry[] = MENU): RouterItem[] {
  const out: RouterItem[] = [];
  for (const e of entries) {
    const children = e.children ? routersFor(perms, e.children) : undefined;
    const own = perms.includes(e.permission);
    if (e.children ? children!.length > 0 : own) {
      const { permission: _p, children: _c, ...rest } = e;
      out.push(children ? { ...rest, children } : rest);
    }
  }
  return out;
}
