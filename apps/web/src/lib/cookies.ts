import { serverCookies } from './ssr-env';

/**
 * Browser cookies used by the portal (spec §9 leaves their names to us):
 *
 * | cookie         | holds                                  | lifetime                          |
 * |----------------|----------------------------------------|-----------------------------------|
 * | `mp_token`     | access token, sent as `X-Token`         | 12 h (the session's absolute cap) |
 * | `mp_refresh`   | refresh token for POST /user/refreshToken | 12 h                             |
 * | `mp_lang`      | chosen language: zh, en, ko or ja       | 30 days (spec §9)                 |
 * | `mp_sidebar`   | side menu state: `collapsed` or `open`  | 1 year                            |
 * | `mp_tz`        | the browser's IANA time zone            | 1 year (decision 050)             |
 * | `mp_vw`        | the browser's viewport width in px      | 1 year (decision 050)             |
 *
 * All are `SameSite=Strict; Path=/` (plus `Secure` on https). The tokens are read by the
 * request client to build the `X-Token` header, so they cannot be HttpOnly; the server
 * treats the access token as short-lived (15 min) and rotates the refresh token on each use.
 */
export const COOKIE = {
  token: 'mp_token',
  refreshToken: 'mp_refresh',
  language: 'mp_lang',
  sidebar: 'mp_sidebar',
  /** What a page rendered on the server needs of the browser (decision 050): its zone and width. */
  zone: 'mp_tz',
  width: 'mp_vw',
} as const;

export function getCookie(name: string): string | undefined {
  // On the server (a page rendered there, decision 050) the request's cookies are read.
  const all = typeof document === 'undefined' ? serverCookies() : document.cookie;
  if (all === undefined) return undefined;
  for (const part of all.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function setCookie(name: string, value: string, maxAgeSeconds: number): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${Math.round(maxAgeSeconds)}; Path=/; SameSite=Strict${secure}`;
}

export function removeCookie(name: string): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Strict`;
}

export const DAY_SECONDS = 24 * 3600;
