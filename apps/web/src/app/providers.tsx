import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale } from 'antd/es/locale';
import antdStylesHref from 'virtual:antd-styles';
import { hydrate, QueryClient, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { bindFeedback } from '../lib/feedback';
import { setRequestUi } from '../lib/http';
import { clearToasts } from '../lib/light-ui';
import { currentLanguage } from '../lib/i18n';
import { loadLocales } from '../lib/locale';
import { prependStylesheet } from '../lib/stylesheet';
import { isServer } from '../lib/ssr-env';
import { antdUi } from './antd-ui';
import { LazyApp, useApp } from './lazy-app';
import { portalTheme } from './theme';

/**
 * antd, its locale and dayjs's, and TanStack Query: every screen but sign-in renders inside these
 * (issue 16: the sign-in page loads none of it). A language switch reloads the page, so the
 * locale is read once, when this chunk loads.
 */
let [antdLocale] = await Promise.all([loadLocales(currentLanguage()), prependStylesheet(antdStylesHref)]);

/** On the server each render is in its visitor's language (decision 050): antd's texts for it. */
export function setAntdLocale(locale: Locale): void {
  antdLocale = locale;
}

/**
 * The answers a page rendered on the server came with (decision 050, main.tsx): the screen's first
 * mount uses them instead of asking again; from then on they are stale as any other (staleTime 0).
 */
const seeded = new Set<string>();

export function seedQueries(state: DehydratedState): void {
  hydrate(queryClient, state);
  for (const q of state.queries) seeded.add(q.queryHash);
}

/** Errors are shown once by the request client (spec §8): queries never retry behind its back. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0, refetchOnMount: (q) => !isServer && !seeded.has(q.queryHash) },
    mutations: { retry: false },
  },
});

queryClient.getQueryCache().subscribe((e) => {
  // The first observer has mounted (its mount check has run): the seeded answer is an answer like any other.
  if (e.type === 'observerAdded' && seeded.has(e.query.queryHash)) queueMicrotask(() => seeded.delete(e.query.queryHash));
});

/** People who ask their system for less motion get none (also makes automated runs deterministic). */
const reducedMotion = typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** antd's component styles come from the build's stylesheet (theme.ts): none is generated here. */
export const theme: ThemeConfig = { ...portalTheme, zeroRuntime: true, token: { ...portalTheme.token, motion: !reducedMotion } };

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
