import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './lib/i18n';
import { AppRoot } from './app/app-root';
import { preloadLogin, preloadShell } from './app/router';
import { loadSession } from './app/session-bootstrap';
import { cookieTokens } from './lib/tokens';
import { COOKIE, setCookie } from './lib/cookies';
import { setSession } from './lib/session';
import { browserZone, setChosenZone } from './lib/time';
import { markTakenOver, setRenderedWidth } from './lib/ssr-env';
import type { SsrState } from './entry-server';
import { installChunkReloadGuard } from './lib/chunk-reload';
import './app/global.css';

// A chunk gone after a deploy: reload once for the new build (issue 45 §4).
installChunkReloadGuard();

// What a page rendered on the server needs of this browser (decision 050): its zone and width.
setCookie(COOKIE.zone, browserZone(), 365 * 24 * 3600);
const writeWidth = () => setCookie(COOKIE.width, String(window.innerWidth), 365 * 24 * 3600);
writeWidth();
// A window made wider or narrower: the next page is rendered for its new width.
window.addEventListener('resize', writeWidth);

const container = document.getElementById('root')!;
/** Hydrate the server's markup (true) or render over it (false): measured in docs/performance.md. */
const HYDRATE = import.meta.env.VITE_SSR_TAKEOVER !== 'render';
const rendered = readRenderedState();

if (rendered && (await takeOver(rendered))) {
  // Done: the browser's tree is rendering over the server's markup.
} else {
  container.replaceChildren();
  markTakenOver();
  await plainStart();
}

async function takeOver(rendered: SsrState): Promise<boolean> {
  // The server painted the screen (decision 050): its session, texts and answers come with it.
  // The browser renders the same tree over that markup once the shell's and the screen's code
  // has loaded — no request is made again, and nothing shows a spinner meanwhile.
  // Rendered for another zone than this browser's (its zone changed since its last visit, and the
  // user chose none): the times would differ, so the page starts as a plain one.
  if (!rendered.session.user?.timeZone && rendered.zone !== browserZone()) return false;
  setSession(rendered.session);
  setChosenZone(rendered.session.user?.timeZone);
  let providers: typeof import('./app/providers');
  try {
    const [p, shell] = await Promise.all([import('./app/providers'), import('./app/layout/app-shell'), initI18n(rendered.lang, rendered.texts)]);
    await shell.preloadScreen(window.location.pathname);
    providers = p;
  } catch {
    // The code did not load (network): start as a plain page would, which shows what went wrong.
    return false;
  }
  providers.seedQueries(rendered.queries);
  setRenderedWidth(rendered.width);
  const tree = (
    <StrictMode>
      <AppRoot />
    </StrictMode>
  );
  // A transition: React works in slices, yielding to the browser (the page stays painted meanwhile).
  if (HYDRATE) {
    startTransition(() => {
      hydrateRoot(container, tree, {
        // A difference from the server's markup: React renders that part afresh (a repaint, no harm).
        onRecoverableError: (error) => console.warn('ssr: rendered afresh', error),
      });
    });
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(tree));
  }
  return true;
}

async function plainStart() {
  const lng = initialLanguage();
  // Signed in: the session's first call (merchant and user info) goes out now, beside the locale
  // files, not after the shell and page chunks (issue 16: no waterfall before the first request).
  // The route guard shares this load, and handles its failure. The shell's chunks and texts, and the
  // screen's, load beside it (router.tsx).
  const i18nReady = initI18n(lng);
  if (cookieTokens.getToken()) {
    loadSession().catch(() => undefined);
    preloadShell(window.location.pathname);
  } else {
    preloadLogin(window.location.pathname);
  }
  await i18nReady;

  createRoot(container).render(
    <StrictMode>
      <AppRoot />
    </StrictMode>,
  );
}

/** The state the server wrote beside its markup, or null (a plain page). */
function readRenderedState(): SsrState | null {
  const el = document.getElementById('ssr-state');
  if (!el?.textContent) return null;
  el.remove();
  try {
    return JSON.parse(el.textContent) as SsrState;
  } catch {
    return null;
  }
}
