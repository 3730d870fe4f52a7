import { createClient, type RequestUi } from './request';
import { cookieTokens } from './tokens';
import { currentLanguage } from './i18n';
import { displayOffsetHours } from './time';
import { lightUi } from './light-ui';

/**
 * How failures look: drawn by light-ui.ts until the antd providers mount (the sign-in page loads no
 * antd, issue 16), then by antd's message and modal (app/antd-ui.tsx).
 */
let ui: RequestUi = lightUi;

export function setRequestUi(next: RequestUi): void {
  ui = next;
}

/** How requests travel: the browser's fetch, or on the server the API in-process (decision 050). */
let transport: typeof fetch = (...args) => fetch(...args);

export function setHttpTransport(next: typeof fetch | null): void {
  transport = next ?? ((...args) => fetch(...args));
}

/** The app's request client (see request.ts for the rules). */
export const http = createClient({
  fetch: (...args) => transport(...args),
  tokens: cookieTokens,
  ui: {
    showError: (msg) => ui.showError(msg),
    showTransportError: (err) => ui.showTransportError(err),
    confirmLogout: () => ui.confirmLogout(),
  },
  language: currentLanguage,
  timezoneOffset: () => displayOffsetHours(),
});

export { RequestError } from './request';
export { saveFile } from './download';
