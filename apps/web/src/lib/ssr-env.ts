/**
 * What a render on the server (decision 050, entry-server.tsx) knows of the browser it renders for:
 * its cookies, and its viewport width (the `mp_vw` cookie, else a phone's client hint). In the
 * browser none of it is set and every reader falls back to the browser's own value.
 */
interface ServerRequest {
  cookies: string;
  width: number;
}

let current: ServerRequest | null = null;

/**
 * In the browser taking a server-rendered page over: the width the server rendered it for, until the
 * screen has hydrated. A window whose width cookie was stale (another window, resized since) first
 * renders the server's tree — no difference for React to render afresh — then its own (issue 53).
 */
let renderedWidth: number | undefined;

/** Set by main.tsx before hydrating; cleared by `markTakenOver`. */
export function setRenderedWidth(width: number | undefined): void {
  renderedWidth = typeof width === 'number' && Number.isFinite(width) ? width : undefined;
}

/** The width the page was rendered for on the server, while the browser hydrates it; undefined after. */
export function hydratingWidth(): number | undefined {
  return renderedWidth;
}

export const isServer = typeof document === 'undefined';

/** Set by the server for one render, cleared (null) after it. */
export function setServerRequest(req: ServerRequest | null): void {
  current = req;
}

/** The request's Cookie header, on the server during a render. */
export function serverCookies(): string | undefined {
  return current?.cookies;
}

/** The viewport width the page is rendered for, on the server during a render. */
export function serverWidth(): number | undefined {
  return current?.width;
}

/**
 * The viewport's width now: the width rendered for on the server, the window's in the browser.
 * For the first render, before antd's breakpoints have been measured (they start empty, on both sides).
 */
export function viewportWidth(): number {
  return isServer ? (current?.width ?? 1440) : (renderedWidth ?? window.innerWidth);
}

/**
 * A page rendered on the server takes input once the screen itself has hydrated (PageContainer's
 * first effect, inside the screen's Suspense boundary — after the shell's). Until then the root is
 * inert: a click on markup whose code has not run would be lost.
 */
export function markTakenOver(): void {
  if (isServer) return;
  renderedWidth = undefined;
  const root = document.getElementById('root');
  if (!root?.classList.contains('ssr-pending')) return;
  root.removeAttribute('inert');
  root.removeAttribute('aria-busy');
  root.removeAttribute('aria-disabled');
  root.classList.remove('ssr-pending');
}
