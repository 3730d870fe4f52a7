import type { LoginHistoryItem, PasskeyItem, SecurityOverview, SessionItem } from '@portal/contract';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';

/** GET /user/activeInfo?token: who is activating (quiet: the page shows 'link expired' itself). */
export const activeInfo = (token: string) => http.get<{ username: string; merName: string; email: string }>('/user/activeInfo', { token }, { quiet: true });
/** POST /user/active: first password, activates. */
export const activate = (input: { token: string; newPassword: string; confirmPassword: string }) => http.post<{ username: string }>('/user/active', input);
/** POST /user/updatePassword: signed in (token) or, for an expired password, with username. */
export const updatePassword = (input: { username?: string; oldPassword: string; newPassword: string; confirmPassword: string }) => http.post<{ sessionsEnded: number }>('/user/updatePassword', input);
/** POST /user/forgotPassword: the answer is the same whether the account exists or not. */
export const forgotPassword = (account: string) => http.envelope<null>({ method: 'POST', url: '/user/forgotPassword', form: { account } });
export const resetInfo = (token: string) => http.get<{ username: string }>('/user/resetInfo', { token }, { quiet: true });
export const resetByLink = (input: { token: string; newPassword: string; confirmPassword: string }) => http.post<{ username: string }>('/user/resetByLink', input);

export const wechatBindUrl = () => http.get<{ url: string }>('/user/wechat/bindUrl');
export const wechatUnbind = () => http.post<null>('/user/wechat/unbind');

export const useSecurity = () => useQuery({ queryKey: ['account', 'security'], queryFn: () => http.get<SecurityOverview>('/user/security') });
export const useSessions = () => useQuery({ queryKey: ['account', 'sessions'], queryFn: () => http.get<SessionItem[]>('/user/sessions') });
export const useLoginHistory = () => useQuery({ queryKey: ['account', 'history'], queryFn: () => http.get<LoginHistoryItem[]>('/user/loginHistory') });

export const sendPhoneCode = (phone: string) => http.post<{ resendAfter: number }>('/user/phone/code', { phone });
export const bindPhone = (phone: string, code: string) => http.post<{ phone: string }>('/user/phone/bind', { phone, code });
export const totpSetup = () => http.post<{ secret: string; otpauthUrl: string }>('/user/totp/setup');
export const totpEnable = (code: string) => http.post<{ recoveryCodes: string[] }>('/user/totp/enable', { code });
export const totpDisable = (password: string, code: string) => http.post<null>('/user/totp/disable', { password, code });
/** Switching the rule off may wait for a second administrator (code 1234, issue 47): quiet, the screen tells it. */
export const setRequireTotp = (require: boolean) => http.post<{ require: boolean }>('/user/requireTotp', { require: String(require) }, { quiet: true });
export const revokeSession = (id: number) => http.post<null>('/user/sessions/revoke', { id });
export const revokeOtherSessions = () => http.post<{ ended: number }>('/user/sessions/revokeOthers');

/** GET /user/passwordPolicy: minimum length and history of the password rules. */
export const usePasswordPolicy = () =>
  useQuery({
    queryKey: ['account', 'policy'],
    queryFn: () => http.get<{ minLength: number; history: number; maxAgeDays: number }>('/user/passwordPolicy', undefined, { quiet: true }),
    staleTime: Infinity,
  });

/** Passkeys (decision 047): the list, registration (options, then the authenticator's answer as JSON text), rename, remove (after a step-up). */
export const usePasskeys = () => useQuery({ queryKey: ['account', 'passkeys'], queryFn: () => http.get<PasskeyItem[]>('/user/passkeys') });
export const passkeyRegisterOptions = () => http.post<PublicKeyCredentialCreationOptionsJSON>('/user/passkey/registerOptions');
export const passkeyRegister = (name: string, credential: string) => http.post<{ id: number; name: string }>('/user/passkey/register', { name, credential });
export const passkeyRename = (id: number, name: string) => http.post<{ id: number; name: string }>('/user/passkey/rename', { id, name });
export const passkeyRemove = (id: number) => http.post<null>('/user/passkey/remove', { id });
/** POST /user/checkPassword: the step-up a removal needs (5 minutes). */
export const checkPassword = (password: string) => http.post<boolean | { remaining: number }>('/user/checkPassword', { password });
