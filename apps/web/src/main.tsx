import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './lib/i18n';
import { AppRoot } from './app/app-root';
import { preloadLogin, preloadShell } from './app/router';
import { loadSession } from './app/session-bootstrap';
import { cookieTokens } from './lib/tokens';
import './app/global.css';

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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
);
