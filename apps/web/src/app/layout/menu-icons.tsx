import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  DashboardOutlined,
  DownloadOutlined,
  LinkOutlined,
  NotificationOutlined,
  ShopOutlined,
  TeamOutlined,
  TransactionOutlined,
  // Issue 49 §2.
  BankOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * antd icons the server's routers may name (packages/contract MENU). Imported one by one so the
 * bundle holds only these (decorative: hidden from screen readers, the label names the entry); a new icon name in MENU needs a line here (unknown names fall back).
 */
const ICONS: Record<string, ReactNode> = {
  // Issue 48: disputes.
  AlertOutlined: <AlertOutlined aria-hidden />,
  ApiOutlined: <ApiOutlined aria-hidden />,
  AppstoreOutlined: <AppstoreOutlined aria-hidden />,
  BarChartOutlined: <BarChartOutlined aria-hidden />,
  DashboardOutlined: <DashboardOutlined aria-hidden />,
  DownloadOutlined: <DownloadOutlined aria-hidden />,
  LinkOutlined: <LinkOutlined aria-hidden />,
  NotificationOutlined: <NotificationOutlined aria-hidden />,
  ShopOutlined: <ShopOutlined aria-hidden />,
  TeamOutlined: <TeamOutlined aria-hidden />,
  TransactionOutlined: <TransactionOutlined aria-hidden />,
  // Issue 49 §2.
  BankOutlined: <BankOutlined aria-hidden />,
};

export function menuIcon(name: string | undefined): ReactNode {
  if (!name) return undefined;
  return ICONS[name] ?? <AppstoreOutlined aria-hidden />;
}
