import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { AccountApi, AuthApi } from '@portal/contract';
import { apiQuery, ofEndpoints } from '../../../lib/api-query';

/** GET /user/activeInfo?token: who is activating (quiet: the page shows 'link expired' itself). */
export const activeInfo = (token: string) => http.call(AccountApi.activeInfo, { token }, { quiet: true });
/** POST /user/active: first password, activates. */
export const activate = (input: { token: string; newPassword: string; confirmPassword: string }) => http.call(AccountApi.active, input);
/** POST /user/updatePassword: signed in (token) or, for an expired password, with username. */
export const updatePassword = (input: { username?: string; oldPassword: string; newPassword: string; confirmPassword: string }) => http.call(AccountApi.updatePassword, input);
/** POST /user/forgotPassword: the answer is the same whether the account exists or not. */
export const forgotPassword = (account: string) => http.callEnvelope(AccountApi.forgotPassword, { account });
export const resetInfo = (token: string) => http.call(AccountApi.resetInfo, { token }, { quiet: true });
export const resetByLink = (input: { token: string; newPassword: string; confirmPassword: string }) => http.call(AccountApi.resetByLink, input);

export const wechatBindUrl = () => http.call(AccountApi.wechatBindUrl);
export const wechatUnbind = () => http.call(AccountApi.wechatUnbind);

/** Keys from the descriptors (['user', 'security'], …): `accountQueries` matches the security screen's five, as the hand-named ['account'] prefix did. */
export const useSecurity = () => useQuery(apiQuery(AccountApi.security, undefined));
export const useSessions = () => useQuery(apiQuery(AccountApi.sessions, undefined));
export const useLoginHistory = () => useQuery(apiQuery(AccountApi.loginHistory, undefined));
export const accountQueries = ofEndpoints(AccountApi.security, AccountApi.sessions, AccountApi.loginHistory, AccountApi.passwordPolicy, AccountApi.passkeys);

export const sendPhoneCode = (phone: string) => http.call(AccountApi.phoneCode, { phone });
export const bindPhone = (phone: string, code: string) => http.call(AccountApi.phoneBind, { phone, code });
export const totpSetup = () => http.call(AccountApi.totpSetup);
export const totpEnable = (code: string) => http.call(AccountApi.totpEnable, { code });
export const totpDisable = (password: string, code: string) => http.call(AccountApi.totpDisable, { password, code });
/** Switching the rule off may wait for a second administrator (code 1234, issue 47): quiet, the screen tells it. */
export const setRequireTotp = (require: boolean) => http.call(AccountApi.requireTotp, { require: require ? 'true' : 'false' }, { quiet: true });
export const revokeSession = (id: number) => http.call(AccountApi.revokeSession, { id });
export const revokeOtherSessions = () => http.call(AccountApi.revokeOtherSessions);

/** GET /user/passwordPolicy: minimum length and history of the password rules. */
export const usePasswordPolicy = () =>
  useQuery({
    ...apiQuery(AccountApi.passwordPolicy, undefined, { quiet: true }),
    staleTime: Infinity,
  });

/** Passkeys (decision 047): the list, registration (options, then the authenticator's answer as JSON text), rename, remove (after a step-up). */
export const usePasskeys = () => useQuery(apiQuery(AccountApi.passkeys, undefined));
/** The server's WebAuthn options are the browser library's JSON shape (the contract does not depend on that library). */
export const passkeyRegisterOptions = async () => (await http.call(AccountApi.passkeyRegisterOptions)) as unknown as PublicKeyCredentialCreationOptionsJSON;
export const passkeyRegister = (name: string, credential: string) => http.call(AccountApi.passkeyRegister, { name, credential });
export const passkeyRename = (id: number, name: string) => http.call(AccountApi.passkeyRename, { id, name });
export const passkeyRemove = (id: number) => http.call(AccountApi.passkeyRemove, { id });
/** POST /user/checkPassword: the step-up a removal needs (5 minutes). */
export const checkPassword = (password: string) => http.call(AuthApi.checkPassword, { password });
