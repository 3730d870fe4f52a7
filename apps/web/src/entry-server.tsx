/**
 * The portal's screens rendered on the server (decision 050, issue 30): the API's ssr plugin loads
 * this module's build (dist-ssr/entry-server.js) and calls `renderPage` for a signed-in visitor's
 * document request. It renders the tree the browser renders — the same routes, shell, screens and
 * request client — with the visitor's cookies, language and zone, every API call made in-process
 * through `transport` (the API's own checks, with the visitor's token). The browser paints the
 * result at once and renders its own tree over it with the answers given here (main.tsx): the same
 * markup, no second data request.
 *
 * The app keeps its state in modules (session store, chosen zone, i18next's language, the query
 * client, antd's locale): one render at a time per process, each setting that state for its
 * visitor and clearing it after.
 */
import { StrictMode, Suspense } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { dehydrate, type DehydratedState } from '@tanstack/react-query';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import hash from '@emotion/hash';
import type { MerchantInfo, RenderInput, RenderResult as ContractRenderResult, UserInfo } from '@portal/contract';
import { initReactI18next } from 'react-i18next';
import { i18n, LANGUAGES, reportMissingKey, type Language } from './lib/i18n';
import { AppRoutes } from './app/router';
import { FullPageSpin } from './components/full-page-spin';
import { featureRoutes } from './app/feature-routes';
import { loadSession } from './app/session-bootstrap';
import { getSession, resetSession } from './lib/session';
import { setHttpTransport, setRequestUi } from './lib/http';
import { setBrowserZone, setChosenZone } from './lib/time';
import { setServerRequest } from './lib/ssr-env';
import { loadLocales } from './lib/locale';
import { hasAny, pathMatches } from './lib/permissions';
import type { RequestUi } from './lib/request';

/** What the browser needs to take the page over without asking again (main.tsx reads it). */
export interface SsrState {
  lang: Language;
  /** The browser zone rendered for (its `mp_tz` cookie). */
  zone: string;
  /** The viewport width rendered for (its `mp_vw` cookie): the browser hydrates as that width, then its own (issue 53). */
  width: number;
  session: { merchant: MerchantInfo | null; user: UserInfo | null };
  /** The query client's answers (TanStack's dehydrated form). */
  queries: DehydratedState;
  /** The texts the render used, per namespace. */
  texts: Record<string, Record<string, unknown>>;
}

export type { RenderInput } from '@portal/contract';
export type RenderResult = ContractRenderResult<SsrState>;

const texts = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, data] of Object.entries(texts)) {
  const [, lng, ns] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
  (resources[lng] ??= {})[ns] = data;
}

const ready = i18n.use(initReactI18next).init({
  lng: 'en',
  resources,
  supportedLngs: [...LANGUAGES],
  fallbackLng: false,
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: true },
  saveMissing: true,
  missingKeyHandler: reportMissingKey,
});

/** The request client's failures are the render's to judge (below), never drawn on the server. */
const silent: RequestUi = { showError: () => undefined, showTransportError: () => undefined, confirmLogout: () => undefined };

/** Screens rendered on the server: the lists and reports (issue 30, target 1). */
export const RENDERED_PATHS = [
  '/txn/list',
  '/txn/settleList',
  '/report/txn',
  '/report/bill',
  '/report/transfer',
  '/report/reserve',
  '/payByLink/list',
  '/payInStore/list',
  '/notice/list',
  '/merchant/user',
  '/txn/logistics',
  '/txn/settleDetail',
  '/merchant/list',
  '/merchant/audit',
  '/files',
  // Issue 48: the disputes inbox.
  '/disputes/list',
];

/** At most this many render passes: each one finds the queries the one before made possible. */
const MAX_PASSES = 4;

let queue: Promise<unknown> = Promise.resolve();

/** Renders `input.url` for its visitor, one render at a time; `ok: false` means "send the plain page". */
export function renderPage(input: RenderInput): Promise<RenderResult> {
  const run = queue.then(() => {
    // A render that never ends (a promise that never settles) must not hold every later one.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<RenderResult>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, reason: `no answer in ${RENDER_LIMIT_MS} ms` }), RENDER_LIMIT_MS);
    });
    return Promise.race([render(input), limit]).finally(() => clearTimeout(timer));
  });
  queue = run.catch(() => undefined);
  return run;
}

/** The longest one render may hold the queue. */
const RENDER_LIMIT_MS = 8000;

async function render(input: RenderInput): Promise<RenderResult> {
  await ready;
  const { queryClient, setAntdLocale } = await import('./app/providers');
  const pathname = new URL(input.url, 'http://portal').pathname;
  const route = featureRoutes.find((r) => pathMatches(r.path, pathname));
  if (!route || !RENDERED_PATHS.includes(route.path)) return { ok: false, reason: 'not a rendered screen' };
  try {
    setServerRequest({ cookies: input.cookies, width: input.width });
    setHttpTransport(input.transport);
    setRequestUi(silent);
    setBrowserZone(input.zone);
    resetSession();
    setChosenZone(null);
    queryClient.clear();
    await i18n.changeLanguage(input.language);
    (i18n as unknown as { reportNamespaces?: { usedNamespaces: Record<string, boolean> } }).reportNamespaces = undefined;
    setAntdLocale(await loadLocales(input.language));
    await route.element.preload();

    try {
      await loadSession();
    } catch (e) {
      return { ok: false, reason: `session: ${(e as Error).message}` };
    }
    const { user, merchant } = getSession();
    if (!user) return { ok: false, reason: 'no session' };
    if (user.mustEnrolTotp) return { ok: false, reason: 'second factor to set up' };
    if (!hasAny(user.permissions, route.permission)) return { ok: false, reason: 'no permission' };

    let html = '';
    const styles = createCache();
    for (let pass = 0; ; pass++) {
      html = await renderHtml(input.url, styles);
      const waiting = queryClient
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.status === 'pending' && q.state.fetchStatus === 'idle' && (q.options as { enabled?: unknown }).enabled !== false);
      if (!waiting.length) break;
      if (pass + 1 >= MAX_PASSES) return { ok: false, reason: 'queries still waiting after the last pass' };
      await Promise.all(waiting.map((q) => q.fetch().catch(() => undefined)));
    }
    // The screen must say when it has hydrated (PageContainer, lib/ssr-env.ts), or its page would never take input.
    if (!html.includes('class="page-container"')) return { ok: false, reason: 'no page container' };
    const failed = queryClient
      .getQueryCache()
      .getAll()
      .find((q) => q.state.status === 'error');
    if (failed) return { ok: false, reason: `query ${JSON.stringify(failed.queryKey)} failed` };

    const used = (i18n as unknown as { reportNamespaces?: { getUsedNamespaces(): string[] } }).reportNamespaces?.getUsedNamespaces() ?? [];
    const namespaces = [...new Set(['common', ...used])];
    const heading = /<h1[^>]*class="[^"]*page-container__title[^"]*"[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    const product = i18n.t('layout:product');
    return {
      ok: true,
      html,
      // Already HTML-escaped by React (it came out of the markup).
      title: heading ? `${heading} · ${escapeHtml(product)}` : escapeHtml(product),
      lang: input.language,
      styles: themeVariables(styles),
      state: {
        lang: input.language,
        zone: input.zone,
        width: input.width,
        session: { merchant, user },
        queries: dehydrate(queryClient),
        texts: Object.fromEntries(namespaces.filter((ns) => resources[input.language]?.[ns]).map((ns) => [ns, resources[input.language][ns]])),
      },
    };
  } finally {
    queryClient.clear();
    resetSession();
    setChosenZone(null);
    setBrowserZone(undefined);
    setHttpTransport(null);
    setServerRequest(null);
  }
}

type StyleCache = ReturnType<typeof createCache>;

// Each render has its own style cache: what antd registered for this page, and only that, goes with it.
const tree = (url: string, styles: StyleCache) => (
  <StyleProvider cache={styles}>
    <StrictMode>
      <StaticRouter location={url}>
        <Suspense fallback={<FullPageSpin />}>
          <AppRoutes />
        </Suspense>
      </StaticRouter>
    </StrictMode>
  </StyleProvider>
);

/**
 * antd's theme variables as the render registered them, as `<style>` elements in antd's own form
 * (decision 050): the browser's antd finds each by its `data-css-hash` and inserts none of its own,
 * so the takeover changes no stylesheet (each insertion restyled the whole page: ~50 ms at 4× CPU).
 * Component styles are in the build-time stylesheet (decision 031) and not registered here.
 */
function themeVariables(styles: StyleCache): string {
  const cachePath = /<style[^>]*data-ant-cssinjs-cache-path[^>]*>[\s\S]*?<\/style>/g;
  // The theme's own variables: cssinjs 2.1 marks them in the browser with hash(`css-var-${key}`),
  // but its extractStyle writes the token's key instead; written as the browser looks for them.
  const theme = extractStyle(styles, { types: 'token' })
    .replace(cachePath, '')
    .replace(/data-token-hash="([^"]+)" data-css-hash="[^"]+"/g, (_, key: string) => `data-token-hash="${key}" data-css-hash="${hash(`css-var-${key}`)}"`);
  return theme + extractStyle(styles, { types: 'cssVar' }).replace(cachePath, '');
}

/**
 * The page's markup. Once every lazy part of the tree has loaded (after the first render of a screen
 * in this process), `renderToString` does it in one synchronous pass; while a part still loads it
 * leaves a boundary unfinished (`<!--$!-->`), and the render that waits for everything is used.
 */
async function renderHtml(url: string, styles: StyleCache): Promise<string> {
  const quick = renderToString(tree(url, styles));
  if (!quick.includes('<!--$!-->') && !quick.includes('<!--$?-->')) return quick;
  let error: unknown = null;
  const { prelude } = await prerenderToNodeStream(tree(url, styles), {
    // Every Suspense boundary inline: the page needs no script of React's (the CSP allows none inline).
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError(e) {
      error ??= e;
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return Buffer.concat(chunks).toString('utf8');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
