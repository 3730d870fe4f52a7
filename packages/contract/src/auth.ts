import { z } from 'zod';
import { textInput } from './input';

export const USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/;

/** Passwords are taken as typed (no trimming); control characters are refused like everywhere. */
const password = textInput(256, { min: 1, trim: false });
/** "Send code": with the password (the sign-in screen sends it) the answer names the factor once the password is right (issue 47). */
export const getEmailCodeSchema = z.object({ username: textInput(128, { min: 1 }), password: password.optional() });
export const loginSchema = z.object({
  username: textInput(128, { min: 1 }),
  password,
  verifyCode: textInput(16).default(''),
});
export const refreshTokenSchema = z.object({ refreshToken: textInput(256, { min: 1, trim: false }) });
export const checkPasswordSchema = z.object({ password });

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
  /** The merchant requires a second factor this user has not enrolled yet. */
  mustEnrolTotp?: boolean;
  /** The IANA zone the user chose for every time the portal shows; null: the browser's zone. */
  timeZone?: string | null;
  /** A support "view as" session (decision 046): read-only, shown with a banner on every page. */
  viewAs?: ViewAsInfo | null;
}

/** An operator viewing a merchant's portal read-only (decision 046). */
export interface ViewAsInfo {
  id: number;
  operator: string;
  merName: string;
  /** Absolute end (ISO): 30 minutes after it was opened. */
  expiresAt: string;
}

export interface MerchantInfo {
  subMerIdList: string[];
  subMerIdAndNameList: { mid: string; name: string }[];
  channelList: string[];
  currencyList: string[];
  contractor: number;
}
