import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Perm, type Permission } from '@portal/contract';

/**
 * The feature-route registry: every screen of the signed-in shell. Add one entry per screen
 * (one line each, keep the list sorted by path); the shell routes it when the user holds its
 * permission. A menu entry the server sends without a registered screen opens the
 * 'coming soon' page, so there are no dead links.
 */
export interface FeatureRoute {
  /** React Router pattern, e.g. `/txn/detail/:id` (the server's router path for menu screens). */
  path: string;
  /** The screen, loaded on first visit: `lazyPage(() => import('…').then((m) => m.XxxPage))`. */
  element: LazyExoticComponent<ComponentType>;
  /** The user must hold one of these; null = anybody signed in. */
  permission: Permission | Permission[] | null;
  /** `menu` namespace key for the title and breadcrumb, when the path is not one of the server's routers. */
  title?: string;
  /** Breadcrumb parent path (e.g. a detail page's list), when the path is not one of the server's routers. */
  parent?: string;
}

export const lazyPage = (load: () => Promise<ComponentType>) => lazy(async () => ({ default: await load() }));

const comingSoon = lazyPage(() => import('../components/coming-soon').then((m) => m.ComingSoonPage));

export const featureRoutes: FeatureRoute[] = [
  { path: '/dashboard', element: lazyPage(() => import('../features/dashboard/dashboard-page').then((m) => m.DashboardPage)), permission: Perm.dashboard },
  { path: '/notice/detail/:id', element: lazyPage(() => import('../features/notice/notice-detail-page').then((m) => m.NoticeDetailPage)), permission: Perm.noticeList, title: 'noticeDetail', parent: '/notice/list' },
  { path: '/notice/list', element: lazyPage(() => import('../features/notice/notice-list-page').then((m) => m.NoticeListPage)), permission: Perm.noticeList },
  { path: '/report/bill', element: lazyPage(() => import('../features/report/bill-report-page').then((m) => m.BillReportPage)), permission: Perm.reportBill },
  { path: '/payByLink/detail/:id', element: lazyPage(() => import('../features/paybylink/pbl-detail-page').then((m) => m.PblDetailPage)), permission: Perm.payByLinkDetail },
  { path: '/payByLink/list', element: lazyPage(() => import('../features/paybylink/pbl-list-page').then((m) => m.PblListPage)), permission: Perm.payByLinkList },
  { path: '/report/file', element: lazyPage(() => import('../features/files/file-report-page').then((m) => m.FileReportPage)), permission: Perm.reportFile },
  { path: '/report/reserve', element: lazyPage(() => import('../features/report/reserve-report-page').then((m) => m.ReserveReportPage)), permission: Perm.reportReserve },
  { path: '/report/transfer', element: lazyPage(() => import('../features/report/transfer-report-page').then((m) => m.TransferReportPage)), permission: Perm.reportTransfer },
  { path: '/report/txn', element: lazyPage(() => import('../features/report/summary-report-page').then((m) => m.SummaryReportPage)), permission: Perm.reportTxn },
  { path: '/txn/detail/:id', element: lazyPage(() => import('../features/txn/txn-detail-page').then((m) => m.TxnDetailPage)), permission: Perm.txnDetail, title: 'txnDetail', parent: '/txn/list' },
  { path: '/txn/list', element: lazyPage(() => import('../features/txn/txn-list-page').then((m) => m.TxnListPage)), permission: Perm.txnList },
  { path: '/txn/logistics', element: lazyPage(() => import('../features/txn/logistics-page').then((m) => m.LogisticsPage)), permission: Perm.logisticsList },
  { path: '/txn/settleList', element: lazyPage(() => import('../features/txn/settle-list-page').then((m) => m.SettleListPage)), permission: Perm.settleList, title: 'settleList' },
  { path: '/user/info', element: lazyPage(() => import('../features/user/user-info-page').then((m) => m.UserInfoPage)), permission: null, title: 'userInfo' },
];
