import type { RequestError, RequestUi } from './request';
import { i18n } from './i18n';
import { cookieTokens } from './tokens';
import { ERROR_DELAY_MS, ERROR_SECONDS, transportErrorText } from './message-rules';
import './light-ui.css';

/**
 * Feedback for the screens that load before antd (the sign-in page, issue 16: its JavaScript
 * stays small): the same rules as the antd messages of spec §8 — an error appears after 500 ms and
 * stays 30 s, a transport error stays until closed, the 'Confirm logout' box asks once — drawn
 * with a few DOM nodes. Once the signed-in shell has loaded antd, its own message and modal take over.
 */
const SUCCESS_MS = 3_000;

let host: HTMLElement | null = null;
const shown = new Map<string, { el: HTMLElement; timer?: ReturnType<typeof setTimeout> }>();

function container(): HTMLElement {
  if (host?.isConnected) return host;
  host = document.createElement('div');
  host.className = 'light-toasts';
  document.body.appendChild(host);
  return host;
}

/** A status line at the top of the page; `ms` 0 keeps it until closed. The same key replaces, never stacks. */
export function toast(kind: 'error' | 'success', text: string, { key = `${kind}:${text}`, ms = kind === 'error' ? ERROR_SECONDS * 1000 : SUCCESS_MS, closable = false } = {}): void {
  close(key);
  const el = document.createElement('div');
  el.className = `light-toast light-toast--${kind}`;
  // Errors are announced at once; a success politely.
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const mark = document.createElement('span');
  mark.className = 'light-toast__mark';
  mark.setAttribute('aria-hidden', 'true');
  const body = document.createElement('span');
  body.textContent = text;
  el.append(mark, body);
  if (closable) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'light-toast__close';
    button.setAttribute('aria-label', i18n.t('common:close'));
    button.addEventListener('click', () => close(key));
    el.append(button);
  }
  container().appendChild(el);
  shown.set(key, { el, timer: ms > 0 ? setTimeout(() => close(key), ms) : undefined });
}

function close(key: string): void {
  const entry = shown.get(key);
  if (!entry) return;
  clearTimeout(entry.timer);
  entry.el.remove();
  shown.delete(key);
}

/** Closes every status line (a page that hands over to antd's messages). */
export function clearToasts(): void {
  // A copy of the keys: close() deletes from the map while this walks it.
  for (const key of Array.from(shown.keys())) close(key);
}

let logoutOpen = false;

/** The 'Confirm logout' box as a native modal dialog: sign in again, or stay. */
function confirmLogout(): void {
  if (logoutOpen) return;
  logoutOpen = true;
  const dialog = document.createElement('dialog');
  dialog.className = 'light-dialog';
  const titleId = 'light-dialog-title';
  dialog.setAttribute('aria-labelledby', titleId);
  const title = document.createElement('h2');
  title.id = titleId;
  title.textContent = i18n.t('common:logout.title');
  const content = document.createElement('p');
  content.textContent = i18n.t('common:logout.content');
  const actions = document.createElement('div');
  actions.className = 'light-dialog__actions';
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'light-button';
  cancel.textContent = i18n.t('common:logout.cancel');
  const ok = document.createElement('button');
  ok.type = 'button';
  ok.className = 'light-button light-button--primary';
  ok.textContent = i18n.t('common:logout.relogin');
  actions.append(cancel, ok);
  dialog.append(title, content, actions);
  cancel.addEventListener('click', () => dialog.close());
  ok.addEventListener('click', () => {
    cookieTokens.clear();
    location.reload();
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    logoutOpen = false;
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  ok.focus();
}

export const lightUi: RequestUi = {
  showError(msg) {
    setTimeout(() => toast('error', msg || i18n.t('common:error.generic'), { key: `err:${msg}` }), ERROR_DELAY_MS);
  },
  showTransportError(err: RequestError) {
    const text = transportErrorText(err);
    toast('error', text, { key: `transport:${text}`, ms: 0, closable: true });
  },
  confirmLogout,
};
