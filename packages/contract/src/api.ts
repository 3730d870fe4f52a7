import { z } from 'zod';

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
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Codes that end the session on the client (the 'Confirm logout' box). */
export const LOGOUT_CODES: readonly number[] = [Code.NOT_LOGGED_IN, Code.TOKEN_INVALID, Code.SESSION_ENDED];

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}
export interface Page<T> {
  content: T[];
  totalElements: number;
}

export const LANGUAGES = ['zh', 'en', 'ko', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    const base = tag.split('-')[0] as Language;
    if ((LANGUAGES as readonly string[]).includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Header names (spec §7). */
export const Headers = {
  language: 'Accept-Language',
  token: 'X-Token',
  timezone: 'X-Timezone-Offset',
} as const;

export const PAGE_SIZES = [5, 10, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { message: 'size' })
    .default(DEFAULT_PAGE_SIZE),
});

/** Spec §9 constants. */
export const LIMITS = {
  requestTimeoutMs: 30000,
  exportLockMs: 3000,
  qrPollMs: 3000,
  qrCountdown: 600,
  qrSize: 220,
  logosPerRow: 5,
  attachmentMaxBytes: 5 * 1024 * 1024,
  sideMenuWidth: 210,
  mobileBreakpoint: 992,
  copyrightFrom: 2015,
  languageCookieDays: 30,
  emailCodeResendSeconds: 60,
  emailCodeTtlSeconds: 300,
  emailCodeMaxTries: 5,
  maxPasswordFailures: 5,
  lockMinutes: 30,
  accessTokenSeconds: 15 * 60,
  idleSeconds: 15 * 60,
  absoluteSeconds: 12 * 3600,
  refreshGraceSeconds: 10,
  stepUpSeconds: 5 * 60,
} as const;
