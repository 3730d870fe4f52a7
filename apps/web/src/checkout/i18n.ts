import { createContext, useContext } from 'react';

/**
 * The checkout's own tiny i18n (its bundle stays small: no i18next, no antd): the four
 * `locales/<lng>/checkout.json` files, the buyer's browser language among zh/en/ko/ja, else en.
 */
export const LANGS = ['zh', 'en', 'ko', 'ja'] as const;
export type Lang = (typeof LANGS)[number];
export const LANG_LABELS: Record<Lang, string> = { zh: '简体中文', en: 'English', ko: '한국어', ja: '日本語' };

const files = import.meta.glob<Record<string, unknown>>('../locales/*/checkout.json', { eager: true, import: 'default' });
const dict = (lng: Lang) => files[`../locales/${lng}/checkout.json`] ?? {};

export function browserLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  for (const tag of languages) {
    const base = tag?.toLowerCase().split('-')[0];
    if ((LANGS as readonly string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

export type T = (key: string, vars?: Record<string, string | number>) => string;

export function translator(lng: Lang): T {
  const d = dict(lng);
  return (key, vars = {}) => {
    const v = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], d);
    const s = typeof v === 'string' ? v : key;
    return s.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
  };
}

export const I18nContext = createContext<{ lang: Lang; t: T }>({ lang: 'en', t: translator('en') });
export const useI18n = () => useContext(I18nContext);

/** A decimal wire amount ('12800', '1234.50') grouped for `lang`, with its currency code. */
export function formatAmount(amount: string, currency: string, lang: Lang): string {
  const [w, f] = amount.split('.');
  const grouped = new Intl.NumberFormat(lang, { useGrouping: true, maximumFractionDigits: 0 }).format(BigInt(w));
  const sep = new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return `${currency} ${grouped}${f ? sep + f : ''}`;
}

/** An ISO instant in the buyer's own zone and language. */
export const formatTime = (iso: string, lang: Lang) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
