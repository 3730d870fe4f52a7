import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './lib/i18n';
import { AppRoot } from './app/app-root';
import { loadSession } from './app/session-bootstrap';
import { cookieTokens } from './lib/tokens';
import './app/global.css';

const lng = initialLanguage();
// Signed in: the session's first call (merchant and user info) goes out now, beside the locale
// files, not after the shell and page chunks (issue 16: no waterfall before the first request).
// The route guard shares this load, and handles its failure.
if (cookieTokens.getToken()) loadSession().catch(() => undefined);
await initI18n(lng);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
);
