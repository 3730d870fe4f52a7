import type { LoginHistoryItem, PasskeyItem, SecurityOverview, SessionItem } from '../account';
import type { LoginResult, MerchantInfo, UserInfo } from '../auth';
import { Perm } from '../permissions';
import type { Page } from '../api';
import type { Role, TeamUserRow } from '../team';
import { get, post, type RedirectAnswer } from './endpoint';
import type { WireQuery } from './wire';

/** A WebAuthn options object as the server sends it (the browser library's *OptionsJSON types). */
export type PasskeyOptionsJson = { challenge: string } & Record<string, unknown>;
/** After WeChat the server asks for the user's second factor (issue 28): without a code, which one; with it, the tokens. */
export type WechatStep = { secondFactor: 'totp' | 'email'; resendAfter: number };
/** GET /user/checkUserExist (spec §7): which of user name, e-mail, phone are taken. */
export interface UserExist {
  userName: boolean;
  email: boolean;
  phone: boolean;
  exists: boolean;
}
export interface AddUserBody {
  userName: string;
  email: string;
  phone?: string;
  merIds: string[];
  role: Role;
  /** CUSTOM only: a named role instead of permissions. */
  roleId?: number;
  permissions?: string[];
  /** The last day of access (yyyy-MM-dd, platform zone); '' for none (decision 048). */
  accessEndsOn?: string;
}
export interface UpdateUserBody extends Omit<AddUserBody, 'userName' | 'email' | 'phone'> {
  userId: number;
}
/** The data of a refused sign-in step (a RequestError's `data`): the tries left, or the user whose password expired. */
export type SignInRefusal = { remaining: number } | { username: string };
type NewPassword = { token: string; newPassword: string; confirmPassword: string };

/** Sign-in, the session and its tokens (spec §4, §7). */
export const AuthApi = {
  getEmailCode: post<{ username: string; password: string }, { resendAfter: number; expiresIn: number; totp?: boolean; passkey?: boolean }, SignInRefusal | { wait: number }>(
    '/api/user/getEmailCode',
    'public',
  ),
  login: post<{ username: string; password: string; verifyCode: string }, LoginResult, SignInRefusal>('/api/user/login', 'public'),
  refreshToken: post<{ refreshToken: string }, { token: string; refreshToken: string }>('/api/user/refreshToken', 'public'),
  logout: post<void, null>('/api/user/logout', 'public'),
  info: get<{ flag?: 'Y' | 'N' }, UserInfo>('/api/user/info', 'signed-in'),
  checkPassword: post<{ password: string }, boolean | { remaining: number }>('/api/user/checkPassword', 'signed-in'),
  wechatAvailable: get<void, { available: boolean }>('/api/user/wechat/available', 'public'),
  wechatLoginUrl: get<void, { url: string }, null>('/api/user/wechat/loginUrl', 'public'),
  wechatCallback: get<{ code?: string; state?: string }, RedirectAnswer>('/api/user/wechat/callback', 'public'),
  wechatLogin: post<{ ticket: string; verifyCode?: string }, LoginResult | WechatStep, { remaining: number } | null>('/api/user/wechat/login', 'public'),
  passkeyLoginOptions: post<{ username: string; password: string }, { attempt: string; options: PasskeyOptionsJson }, SignInRefusal | null>('/api/user/passkey/loginOptions', 'public'),
  passkeyLogin: post<{ attempt: string; credential: string }, LoginResult, null>('/api/user/passkey/login', 'public'),
} as const;

/** The signed-in user's own account: activation, passwords, second factors, sessions (issues 11, 28, 47). */
export const AccountApi = {
  activeInfo: get<{ token: string }, { username: string; merName: string; email: string }, null>('/api/user/activeInfo', 'public'),
  active: post<NewPassword, { username: string }, null>('/api/user/active', 'public'),
  updatePassword: post<{ username?: string; oldPassword: string; newPassword: string; confirmPassword: string }, { sessionsEnded: number }, { remaining: number } | null>(
    '/api/user/updatePassword',
    'public',
  ),
  forgotPassword: post<{ account: string }, null>('/api/user/forgotPassword', 'public'),
  resetInfo: get<{ token: string }, { username: string }, null>('/api/user/resetInfo', 'public'),
  resetByLink: post<NewPassword, { username: string }, null>('/api/user/resetByLink', 'public'),
  passwordPolicy: get<void, { minLength: number; history: number; maxAgeDays: number }>('/api/user/passwordPolicy', 'public'),
  security: get<void, SecurityOverview>('/api/user/security', 'signed-in'),
  updateTimeZone: post<{ timeZone: string }, { timeZone: string | null }>('/api/user/updateTimeZone', 'signed-in'),
  phoneCode: post<{ phone: string }, { resendAfter: number; expiresIn: number }, { wait: number } | null>('/api/user/phone/code', 'signed-in'),
  phoneBind: post<{ phone: string; code: string }, { phone: string }, null>('/api/user/phone/bind', 'signed-in'),
  wechatBindUrl: get<void, { url: string }, null>('/api/user/wechat/bindUrl', 'signed-in'),
  wechatUnbind: post<void, null>('/api/user/wechat/unbind', 'signed-in'),
  totpSetup: post<void, { secret: string; otpauthUrl: string }, null>('/api/user/totp/setup', 'signed-in'),
  totpEnable: post<{ code: string }, { recoveryCodes: string[] }, null>('/api/user/totp/enable', 'signed-in'),
  totpDisable: post<{ password: string; code: string }, null, { remaining: number }>('/api/user/totp/disable', 'signed-in'),
  requireTotp: post<{ require: 'true' | 'false' }, { require: boolean }>('/api/user/requireTotp', 'signed-in'),
  passkeys: get<void, PasskeyItem[]>('/api/user/passkeys', 'signed-in'),
  passkeyRegisterOptions: post<void, PasskeyOptionsJson>('/api/user/passkey/registerOptions', 'signed-in'),
  passkeyRegister: post<{ name: string; credential: string }, { id: number; name: string }, null>('/api/user/passkey/register', 'signed-in'),
  passkeyRename: post<{ id: number; name: string }, { id: number; name: string }>('/api/user/passkey/rename', 'signed-in'),
  passkeyRemove: post<{ id: number }, null>('/api/user/passkey/remove', 'signed-in'),
  sessions: get<void, SessionItem[]>('/api/user/sessions', 'signed-in'),
  revokeSession: post<{ id: number }, null>('/api/user/sessions/revoke', 'signed-in'),
  revokeOtherSessions: post<void, { ended: number }>('/api/user/sessions/revokeOthers', 'signed-in'),
  loginHistory: get<void, LoginHistoryItem[]>('/api/user/loginHistory', 'signed-in'),
} as const;

/** The merchant's users (spec §7, Team → Users). */
export const UsersApi = {
  list: get<WireQuery, Page<TeamUserRow>>('/api/user/list', Perm.merchantUser),
  generateUserName: get<{ base?: string }, string>('/api/user/generateUserName', Perm.merchantUserManage),
  generateUserNamePost: post<{ base?: string }, string>('/api/user/generateUserName', Perm.merchantUserManage),
  checkUserExist: get<{ userName?: string; email?: string; phone?: string }, UserExist>('/api/user/checkUserExist', Perm.merchantUserManage),
  add: post<AddUserBody, TeamUserRow>('/api/user/add', Perm.merchantUserManage),
  update: post<UpdateUserBody, TeamUserRow>('/api/user/update', Perm.merchantUserManage),
  updateUserStatus: post<{ userId: number; status: 'ACTIVE' | 'DISABLED' }, TeamUserRow>('/api/user/updateUserStatus', Perm.merchantUserManage),
  remove: post<{ userId: number }, null>('/api/user/remove', Perm.merchantUserManage),
  resetPassword: post<{ userId: number }, { sent: 'reset' | 'activation' }>('/api/user/resetPassword', Perm.merchantUserManage),
} as const;

/** The merchant behind the session (spec §4). */
export const SessionApi = {
  merchantInfo: get<void, MerchantInfo>('/api/merchant/info', 'signed-in'),
} as const;
