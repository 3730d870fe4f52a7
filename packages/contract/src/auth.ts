import { z } from 'zod';

export const USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/;

export const getEmailCodeSchema = z.object({ username: z.string().trim().min(1).max(128) });
export const loginSchema = z.object({
  username: z.string().trim().min(1).max(128),
  password: z.string().min(1).max(256),
  verifyCode: z.string().trim().max(16).default(''),
});
export const refreshTokenSchema = z.object({ refreshToken: z.string().min(1).max(256) });
export const checkPasswordSchema = z.object({ password: z.string().min(1).max(256) });

export interface LoginResult {
  token: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

export interface RouterItem {
  /** Route path of the SPA, e.g. /txn/list. */
  path: string;
  /** i18n key of the menu title under the `menu` namespace. */
  name: string;
  /** antd icon name. */
  icon?: string;
  /** Not shown in the menu (detail pages). */
  hidden?: boolean;
  children?: RouterItem[];
}

export interface UserInfo {
  username: string;
  userAdmin: boolean;
  merName: string;
  merId: string;
  routers: RouterItem[];
  permissions: string[];
  email: string;
}

export interface MerchantInfo {
  subMerIdList: string[];
  subMerIdAndNameList: { mid: string; name: string }[];
  channelList: string[];
  currencyList: string[];
  contractor: number;
}
