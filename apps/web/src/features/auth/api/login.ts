import { AuthApi, SsoApi, type PasskeyOptionsJson } from '@portal/contract';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { http } from '../../../lib/http';

/**
 * POST /user/getEmailCode (form username, password): the password is checked first (issue 47), then
 * the answer names the second factor — the authenticator, a required passkey, or a code e-mailed.
 */
export const getEmailCode = (username: string, password: string) => http.call(AuthApi.getEmailCode, { username, password });

/** POST /user/login (form username, password, verifyCode). */
export const login = (input: { username: string; password: string; verifyCode: string }) => http.call(AuthApi.login, input);

/** WeChat sign-in (issue 11): whether the server has a provider, where to go, and the way back. Kept here, free of TanStack Query, for the sign-in page. */
export const wechatAvailable = () => http.call(AuthApi.wechatAvailable, undefined, { quiet: true });
export const wechatLoginUrl = () => http.call(AuthApi.wechatLoginUrl);
export const wechatLogin = (ticket: string, verifyCode?: string) => http.call(AuthApi.wechatLogin, verifyCode ? { ticket, verifyCode } : { ticket });

/** "Use a passkey" (decision 047): the password first, then a challenge bound to this attempt; the authenticator's answer (JSON text) trades for tokens. */
export const passkeyLoginOptions = (username: string, password: string) =>
  http.call(AuthApi.passkeyLoginOptions, { username, password }) as Promise<{ attempt: string; options: PublicKeyCredentialRequestOptionsJSON & PasskeyOptionsJson }>;
export const passkeyLogin = (attempt: string, credential: string) => http.call(AuthApi.passkeyLogin, { attempt, credential });

/** Enterprise sign-in (issue 51), e-mail first: is SSO set up for the e-mail's domain; where to go; the way back's ticket traded for tokens. */
export const ssoDiscover = (email: string) => http.call(SsoApi.discover, { email }, { quiet: true });
export const ssoStart = (email: string) => http.call(SsoApi.start, { email });
export const ssoLogin = (ticket: string) => http.call(SsoApi.login, { ticket });
