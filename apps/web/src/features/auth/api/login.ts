import type { LoginResult } from '@portal/contract';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { http } from '../../../lib/http';

/**
 * POST /user/getEmailCode (form username, password): the password is checked first (issue 47), then
 * the answer names the second factor — the authenticator, a required passkey, or a code e-mailed.
 */
export const getEmailCode = (username: string, password: string) =>
  http.post<{ resendAfter: number; expiresIn: number; totp?: boolean; passkey?: boolean }>('/user/getEmailCode', { username, password });

/** POST /user/login (form username, password, verifyCode). */
export const login = (input: { username: string; password: string; verifyCode: string }) => http.post<LoginResult>('/user/login', input);

/** WeChat sign-in (issue 11): whether the server has a provider, where to go, and the way back. Kept here, free of TanStack Query, for the sign-in page. */
export const wechatAvailable = () => http.get<{ available: boolean }>('/user/wechat/available', undefined, { quiet: true });
export const wechatLoginUrl = () => http.get<{ url: string }>('/user/wechat/loginUrl');
/** After WeChat the server asks for the user's second factor (issue 28): without a code, which one; with it, the tokens. */
export type WechatStep = { secondFactor: 'totp' | 'email'; resendAfter: number };
export const wechatLogin = (ticket: string, verifyCode?: string) => http.post<LoginResult | WechatStep>('/user/wechat/login', verifyCode ? { ticket, verifyCode } : { ticket });

/** "Use a passkey" (decision 047): the password first, then a challenge bound to this attempt; the authenticator's answer (JSON text) trades for tokens. */
export const passkeyLoginOptions = (username: string, password: string) =>
  http.post<{ attempt: string; options: PublicKeyCredentialRequestOptionsJSON }>('/user/passkey/loginOptions', { username, password });
export const passkeyLogin = (attempt: string, credential: string) => http.post<LoginResult>('/user/passkey/login', { attempt, credential });

/** Enterprise sign-in (issue 51), e-mail first: is SSO set up for the e-mail's domain; where to go; the way back's ticket traded for tokens. */
export const ssoDiscover = (email: string) => http.post<{ sso: boolean }>('/sso/discover', { email }, { quiet: true });
export const ssoStart = (email: string) => http.post<{ url: string }>('/sso/start', { email });
export const ssoLogin = (ticket: string) => http.post<LoginResult>('/sso/login', { ticket });
