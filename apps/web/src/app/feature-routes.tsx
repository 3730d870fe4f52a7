import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Perm, type Permission } from '@portal/contract';
import { pathMatches } from '../lib/permissions';
import { preloadTexts } from '../lib/i18n';

/**
 * The feature-route registry: every screen of the signed-in shell. Add one entry per screen
 * (one line each, keep the list sorted by path); the shell routes it when the user holds its
 * permission. Every menu entry the server sends has its screen here; a path the server sends
 * without a registered screen answers as not found (the shell's 404).
 */
export interface FeatureRoute {
  /** React Router pattern, e.g. `/txn/detail/:id` (the server's router path for menu screens). */
  path: string;
  /** The screen, loaded on first visit: `lazyPage(() => import('…').then((m) => m.XxxPage))`. */
  element: LazyPage;
  /** Text namespaces the screen shows besides `common`/`layout`: loaded with it when it is the first page (issue 16). */
  ns?: string[];
  /** The user must hold one of these; null = anybody signed in. */
  permission: Permission | Permission[] | null;
  /** `menu` namespace key for the title and breadcrumb, when the path is not one of the server's routers. */
  title?: string;
  /** Breadcrumb parent path (e.g. a detail page's list), when the path is not one of the server's routers. */
  parent?: string;
}

type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

const lazyPage = (load: () => Promise<ComponentType>): LazyPage =>
  Object.assign(
    lazy(async () => ({ default: await load() })),
    { preload: load },
  );

export const featureRoutes: FeatureRoute[] = [
  { path: '/dashboard', element: lazyPage(() => import('../features/dashboard/dashboard-page').then((m) => m.DashboardPage)), permission: Perm.dashboard, ns: ['disputes'] },
  { path: '/developers/webhooks', element: lazyPage(() => import('../features/developers/webhooks/webhooks-page').then((m) => m.WebhooksPage)), permission: Perm.developerManage, ns: ['webhooks'] },
  { path: '/files', element: lazyPage(() => import('../features/files/documents-page').then((m) => m.DocumentsPage)), permission: Perm.filesDownload },
  { path: '/merchant/audit', element: lazyPage(() => import('../features/team/audit-page').then((m) => m.AuditPage)), permission: Perm.merchantAudit },
  {
    path: '/merchant/approvals',
    element: lazyPage(() => import('../features/team/approvals-page').then((m) => m.ApprovalsPage)),
    permission: [Perm.txnRefund, Perm.merchantUserManage, Perm.merchantBankChange],
    ns: ['approvals', 'team'],
  },
  {
    path: '/merchant/team/review',
    element: lazyPage(() => import('../features/team/access-review-page').then((m) => m.AccessReviewPage)),
    permission: Perm.merchantUserManage,
    ns: ['access', 'team', 'permissions'],
    title: 'accessReview',
    parent: '/merchant/user',
  },
  { path: '/merchant/user', element: lazyPage(() => import('../features/team/team-user-page').then((m) => m.TeamUserPage)), permission: Perm.merchantUser },
  {
    path: '/merchant/detail/:id',
    element: lazyPage(() => import('../features/merchant/merchant-detail-page').then((m) => m.MerchantDetailPage)),
    permission: Perm.merchantDetail,
    parent: '/merchant/list',
  },
  { path: '/merchant/list', element: lazyPage(() => import('../features/merchant/merchant-list-page').then((m) => m.MerchantListPage)), permission: Perm.merchantList },
  {
    path: '/notice/detail/:id',
    element: lazyPage(() => import('../features/notice/notice-detail-page').then((m) => m.NoticeDetailPage)),
    permission: Perm.noticeList,
    title: 'noticeDetail',
    parent: '/notice/list',
  },
  { path: '/notice/list', element: lazyPage(() => import('../features/notice/notice-list-page').then((m) => m.NoticeListPage)), permission: Perm.noticeList },
  { path: '/report/bill', element: lazyPage(() => import('../features/report/bill-report-page').then((m) => m.BillReportPage)), permission: Perm.reportBill },
  { path: '/payByLink/detail/:id', element: lazyPage(() => import('../features/paybylink/pbl-detail-page').then((m) => m.PblDetailPage)), permission: Perm.payByLinkDetail },
  { path: '/payByLink/list', element: lazyPage(() => import('../features/paybylink/pbl-list-page').then((m) => m.PblListPage)), permission: Perm.payByLinkList },
  { path: '/payInStore/cashier', element: lazyPage(() => import('../features/payinstore/cashier-page').then((m) => m.CashierPage)), permission: Perm.cashierManage },
  { path: '/payInStore/detail/:id', element: lazyPage(() => import('../features/payinstore/pis-detail-page').then((m) => m.PisDetailPage)), permission: Perm.payInStoreList },
  { path: '/payInStore/list', element: lazyPage(() => import('../features/payinstore/pis-list-page').then((m) => m.PisListPage)), permission: Perm.payInStoreList },
  { path: '/payInStore/store', element: lazyPage(() => import('../features/payinstore/store-list-page').then((m) => m.StoreListPage)), permission: Perm.payInStoreList },
  { path: '/report/file', element: lazyPage(() => import('../features/files/file-report-page').then((m) => m.FileReportPage)), permission: Perm.reportFile },
  { path: '/report/schedules', element: lazyPage(() => import('../features/schedule/schedules-page').then((m) => m.SchedulesPage)), permission: Perm.reportFile },
  { path: '/report/reserve', element: lazyPage(() => import('../features/report/reserve-report-page').then((m) => m.ReserveReportPage)), permission: Perm.reportReserve },
  { path: '/report/transfer', element: lazyPage(() => import('../features/report/transfer-report-page').then((m) => m.TransferReportPage)), permission: Perm.reportTransfer },
  { path: '/report/txn', element: lazyPage(() => import('../features/report/summary-report-page').then((m) => m.SummaryReportPage)), permission: Perm.reportTxn, ns: ['report', 'txn'] },
  { path: '/txn/detail/:id', element: lazyPage(() => import('../features/txn/txn-detail-page').then((m) => m.TxnDetailPage)), permission: Perm.txnDetail, title: 'txnDetail', parent: '/txn/list' },
  { path: '/txn/list', element: lazyPage(() => import('../features/txn/txn-list-page').then((m) => m.TxnListPage)), permission: Perm.txnList, ns: ['txn', 'views', 'schedule'] },
  { path: '/txn/logistics', element: lazyPage(() => import('../features/txn/logistics-page').then((m) => m.LogisticsPage)), permission: Perm.logisticsList },
  { path: '/txn/manualBlend', element: lazyPage(() => import('../features/settle/manual-blend-page').then((m) => m.ManualBlendPage)), permission: Perm.manualBlend },
  { path: '/txn/settleDetail', element: lazyPage(() => import('../features/settle/settle-detail-page').then((m) => m.SettleDetailPage)), permission: Perm.settleDetail },
  { path: '/txn/settleList', element: lazyPage(() => import('../features/txn/settle-list-page').then((m) => m.SettleListPage)), permission: Perm.settleList, title: 'settleList' },
  { path: '/user/security', element: lazyPage(() => import('../features/account/security-page').then((m) => m.SecurityPage)), permission: null, title: 'userSecurity' },
  { path: '/developers/keys', element: lazyPage(() => import('../features/developers/keys/keys-page').then((m) => m.KeysPage)), permission: Perm.developerManage, ns: ['developer', 'team'] },
  { path: '/user/info', element: lazyPage(() => import('../features/user/user-info-page').then((m) => m.UserInfoPage)), permission: null, title: 'userInfo' },
  // Issue 51: Team → Sign-in (SSO).
  { path: '/merchant/sso', element: lazyPage(() => import('../features/sso/sso-page').then((m) => m.SsoPage)), permission: Perm.teamSsoManage, ns: ['sso'] },
  // Bank statements and matching (issue 49 §2).
  { path: '/bankrec', element: lazyPage(() => import('../features/bankrec/bankrec-page').then((m) => m.BankrecPage)), permission: Perm.bankStatement, ns: ['bankrec'] },
  // Issue 48: disputes.
  { path: '/disputes/list', element: lazyPage(() => import('../features/disputes/disputes-list-page').then((m) => m.DisputesListPage)), permission: Perm.disputeView, ns: ['disputes', 'views'] },
  {
    path: '/disputes/detail/:id',
    element: lazyPage(() => import('../features/disputes/dispute-detail-page').then((m) => m.DisputeDetailPage)),
    permission: Perm.disputeView,
    ns: ['disputes'],
    title: 'disputeDetail',
    parent: '/disputes/list',
  },
  // issue 49: the money trail (payout proof)
  {
    path: '/report/transfer/proof/:id',
    element: lazyPage(() => import('../features/trail/proof-page').then((m) => m.ProofPage)),
    permission: Perm.reportTransfer,
    ns: ['trail'],
    title: 'transferProof',
    parent: '/report/transfer',
  },
  {
    path: '/trail/order',
    element: lazyPage(() => import('../features/trail/timeline-page').then((m) => m.TimelinePage)),
    permission: Perm.txnDetail,
    ns: ['trail'],
    title: 'orderTimeline',
    parent: '/txn/list',
  },
];

/**
 * The screen at `pathname` and its texts start loading now (the shell calls this as soon as it is
 * loaded itself, beside the session's first call: issue 16, no chain of requests before the first page).
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  const route = featureRoutes.find((r) => pathMatches(r.path, pathname));
  if (!route) return Promise.resolve();
  const loaded = route.element.preload();
  loaded.catch(() => undefined);
  if (route.ns) preloadTexts(route.ns);
  return loaded;
}
