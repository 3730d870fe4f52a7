import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import type { Locale } from 'antd/es/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { bindFeedback } from '../lib/feedback';

/** Errors are shown once by the request client (spec §8): queries never retry behind its back. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
    mutations: { retry: false },
  },
});

/** People who ask their system for less motion get none (also makes automated runs deterministic). */
const reducedMotion = typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

export const theme = {
  algorithm: antTheme.defaultAlgorithm,
  token: {
    motion: !reducedMotion,
    colorPrimary: '#1456d9',
    colorInfo: '#1456d9',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', 'Malgun Gothic', sans-serif",
  },
  components: {
    Layout: { siderBg: '#0b1f3a', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px', bodyBg: '#f3f5f9', footerBg: '#f3f5f9' },
    Menu: { darkItemBg: '#0b1f3a', darkSubMenuItemBg: '#081830', darkItemSelectedBg: '#1456d9' },
  },
};

/** Hands antd's context-bound message and modal to non-React code (the request client). */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  bindFeedback(message, modal);
  return null;
}

export function Providers({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  return (
    <ConfigProvider locale={antdLocale} theme={theme}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
