import { z } from 'zod';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  /** On errors only: the request's id (X-Request-Id), for the merchant to quote to support. */
  requestId?: string;
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
