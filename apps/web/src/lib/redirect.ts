/** Sign-in redirects (spec §4): /login?redirect={path}, and back there after sign-in. */

export function loginPath(location: { pathname: string; search: string }): string {
  return `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;
}

/** A safe place to return to after sign-in: a path on this site, never another origin, never /login. */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /^\/login(\/|\?|$)/.test(raw)) return '/';
  return raw;
}
