import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, theme as antTheme } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { bindFeedback } from '../lib/feedback';
import { setRequestUi } from '../lib/http';
import { clearToasts } from '../lib/light-ui';
import { currentLanguage } from '../lib/i18n';
import { loadLocales } from '../lib/locale';
import { antdUi } from './antd-ui';
import { LazyApp, useApp } from './lazy-app';

/**
 * antd, its locale and dayjs's, and TanStack Query: every screen but sign-in renders inside these
 * (issue 16: the sign-in page loads none of it). A language switch reloads the page, so the
 * locale is read once, when this chunk loads.
 */
const antdLocale = await loadLocales(currentLanguage());

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
    // Hover: antd derives #3978e6 from the primary (4.19:1 under white text); #0e4bbf is 7:1 (WCAG 1.4.3), as on the sign-in page.
    colorPrimaryHover: '#0e4bbf',
    // Secondary text (antd's #8c8c8c is 3.36:1 on white): #616161 is 6.2:1 on white, 5.6:1 on the page background (WCAG 1.4.3).
    colorTextTertiary: '#616161',
    colorTextDescription: '#616161',
    // Placeholders ('All' in a filter) are read as text too: #737373 is 4.7:1 on white (antd's #bfbfbf is 1.8:1).
    colorTextPlaceholder: '#737373',
    // Danger (Disable, Remove, Close order as link buttons): antd's #ff4d4f is 3.26:1 on white; #cf1322 is 5.9:1.
    colorError: '#cf1322',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', 'Malgun Gothic', sans-serif",
  },
  components: {
    Layout: { siderBg: '#0b1f3a', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px', bodyBg: '#f3f5f9', footerBg: '#f3f5f9' },
    Menu: { darkItemBg: '#0b1f3a', darkSubMenuItemBg: '#081830', darkItemSelectedBg: '#1456d9' },
    // Status tags: antd's text colours on their light fills are 2.2–3:1; these darker ones are ≥ 4.5:1 (WCAG 1.4.3).
    Tag: { colorSuccess: '#237804', colorError: '#cf1322', colorWarning: '#ad4e00', colorInfo: '#0e4bbf' },
  },
};

/** Hands antd's context-bound message and modal to non-React code (the request client). */
function FeedbackBridge() {
  const { message, modal } = useApp();
  bindFeedback(message, modal);
  useEffect(() => {
    // From here on the request client's failures are antd messages; the light ones give way.
    setRequestUi(antdUi);
    clearToasts();
  }, []);
  return null;
}

export default function AntdProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={antdLocale} theme={theme} button={{ autoInsertSpace: false }}>
      <LazyApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </LazyApp>
    </ConfigProvider>
  );
}
