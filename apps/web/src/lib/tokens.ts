import type { LoginResult } from '@portal/contract';
import { COOKIE, getCookie, removeCookie, setCookie } from './cookies';

/** Where the request client keeps the token pair (cookies in the browser, memory in tests). */
export interface TokenStore {
  getToken(): string | undefined;
  getRefreshToken(): string | undefined;
  setTokens(pair: Pick<LoginResult, 'token' | 'refreshToken'>): void;
  clear(): void;
}

/** The session's absolute limit (12 h): no token cookie outlives it. */
const TOKEN_COOKIE_SECONDS = 12 * 3600;

export const cookieTokens: TokenStore = {
  getToken: () => getCookie(COOKIE.token) || undefined,
  getRefreshToken: () => getCookie(COOKIE.refreshToken) || undefined,
  setTokens(pair) {
    setCookie(COOKIE.token, pair.token, TOKEN_COOKIE_SECONDS);
    setCookie(COOKIE.refreshToken, pair.refreshToken, TOKEN_COOKIE_SECONDS);
  },
  clear() {
    removeCookie(COOKIE.token);
    removeCookie(COOKIE.refreshToken);
  },
};

export function memoryTokens(initial: { token?: string; refreshToken?: string } = {}): TokenStore {
  let token = initial.token;
  let refreshToken = initial.refreshToken;
  return {
    getToken: () => token,
    getRefreshToken: () => refreshToken,
    setTokens(pair) {
      token = pair.token;
      refreshToken = pair.refreshToken;
    },
    clear() {
      token = undefined;
      refreshToken = undefined;
    },
  };
}
