/** Envelope codes, in a module of their own without zod: the sign-in page needs them, not the schemas. */
/** Envelope codes (spec §7, §8). 0 = success. */
export const Code = {
  OK: 0,
  /** No token / not logged in. */
  NOT_LOGGED_IN: -1,
  /** Access token expired: refresh once and replay. */
  TOKEN_EXPIRED: 3,
  /** Token unknown or revoked. */
  TOKEN_INVALID: 50012,
  /** Session ended: idle 15 min, absolute 12 h, logged out, or refresh-token reuse. */
  SESSION_ENDED: 50014,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY: 429,
  SERVER_ERROR: 500,
  /** A feature's server-side configuration is missing (e.g. PROVIDER_KEY_ENCRYPTION_KEY): HTTP 503, retry once fixed. */
  SERVICE_UNAVAILABLE: 503,
  // sign-in (spec §8)
  USER_NOT_EXIST: 1001,
  INVALID_USERNAME: 1002,
  WRONG_PASSWORD: 1003,
  USER_LOCKED: 1004,
  USER_NOT_ACTIVATED: 1005,
  VERIFY_CODE_ERROR: 1006,
  CODE_RESEND_TOO_SOON: 1007,
  SEND_MAIL_FAILED: 1008,
  REFRESH_INVALID: 1009,
  /** 'You have not enabled this function, please contact sales' (spec §6, §9): a store or merchant without the channel. */
  FUNCTION_NOT_ENABLED: 1401,
  // accounts (issue 11)
  PASSWORD_RULES: 1101,
  PASSWORD_MISMATCH: 1102,
  PASSWORD_REUSED: 1103,
  PASSWORD_EXPIRED: 1104,
  LINK_EXPIRED: 1105,
  PHONE_CANNOT_BIND: 1106,
  WECHAT_LOGIN_FAILED: 1107,
  WECHAT_BIND_FAILED: 1108,
  TOTP_REQUIRED: 1109,
  PASSWORD_INCORRECT: 1110,
  /** The authenticator's code is right but was already used in its 30-second step (issue 46): wait for the next one. */
  TOTP_CODE_USED: 1150,
  // team (issue 12)
  USER_EXISTS: 1201,
  GRANT_NOT_HELD: 1202,
  NOT_ON_SELF: 1203,
  LAST_ADMIN: 1204,
  // named roles (issue 28)
  ROLE_NAME_TAKEN: 1221,
  ROLE_IN_USE: 1222,
  // four eyes (issue 28)
  APPROVAL_DECIDED: 1231,
  APPROVAL_EXPIRED: 1232,
  APPROVAL_OWN: 1233,
  APPROVAL_REQUIRED: 1234,
  // enterprise sign-in (issue 51)
  /** The merchant requires SSO: passwords, e-mailed codes and password resets are refused (break-glass administrators excepted). */
  SSO_REQUIRED: 1251,
  /** An SSO sign-in did not complete (the provider refused, a check failed, no role mapped). */
  SSO_FAILED: 1252,
  /**
   * A step-up (the refund password) the password cannot give for this user — one without a portal
   * password (made by SSO), or of a merchant requiring SSO (not break-glass): confirm with the
   * identity provider instead (/api/sso/step-up/start).
   */
  STEP_UP_USE_SSO: 1253,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Codes that end the session on the client (the 'Confirm logout' box). */
export const LOGOUT_CODES: readonly number[] = [Code.NOT_LOGGED_IN, Code.TOKEN_INVALID, Code.SESSION_ENDED];
