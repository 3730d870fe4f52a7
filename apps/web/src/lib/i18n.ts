import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COOKIE, DAY_SECONDS, getCookie, setCookie } from './cookies';

/**
 * i18n (spec §2 Language switcher): zh, en, ko, ja; one JSON per feature namespace in
 * `src/locales/<lng>/<ns>.json`, loaded on demand (the login page fetches only what it shows).
 * Initial language: the `mp_lang` cookie, else the first browser language among the four, else en.
 */
export const LANGUAGES = ['zh', 'en', 'ko', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_LABELS: Record<Language, string> = { zh: '简体中文', en: 'English', ko: '한국어', ja: '日本語' };
const LANGUAGE_COOKIE_DAYS = 30;

const isLanguage = (x: unknown): x is Language => (LANGUAGES as readonly unknown[]).includes(x);

export function initialLanguage(cookie = getCookie(COOKIE.language), browser: readonly string[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])): Language {
  if (isLanguage(cookie)) return cookie;
  for (const tag of browser) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

function saveLanguage(lng: Language): void {
  setCookie(COOKIE.language, lng, LANGUAGE_COOKIE_DAYS * DAY_SECONDS);
}

/** The UI's language; before i18n has started (the session's first call goes out beside it), the one it starts in. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : initialLanguage();
}

/**
 * Each namespace's texts, as a JSON file of the build fetched when needed (issue 16: data, not
 * JavaScript to parse, and a map of URLs instead of one loader module per file and language).
 */
const urls = import.meta.glob<string>('../locales/*/*.json', { query: '?url', import: 'default', eager: true });

/** One fetch per file: a text prefetched before i18n asked for it is not fetched again. */
const fetched = new Map<string, Promise<Record<string, unknown>>>();

function fetchTexts(lng: string, ns: string): Promise<Record<string, unknown>> {
  const url = urls[`../locales/${lng}/${ns}.json`];
  if (!url) return Promise.reject(new Error(`missing locale ${lng}/${ns}`));
  let p = fetched.get(url);
  if (!p) {
    p = fetch(url).then((res) => {
      if (!res.ok) throw new Error(`locale ${lng}/${ns}: HTTP ${res.status}`);
      return res.json() as Promise<Record<string, unknown>>;
    });
    fetched.set(url, p);
    // A failed fetch is tried again the next time (i18next reports it; a retry must not reuse it).
    p.catch(() => fetched.delete(url));
  }
  return p;
}

function urlsOf(lng: string, namespaces: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const ns of namespaces) {
    const url = urls[`../locales/${lng}/${ns}.json`];
    if (url) out[ns] = url;
  }
  return out;
}

/** Starts fetching namespaces' texts now (issue 16, target 6: no chain of requests). */
function prefetchTexts(lng: Language, namespaces: readonly string[]): void {
  for (const ns of namespaces) fetchTexts(lng, ns).catch(() => undefined);
}

/**
 * A page's texts, before the page asks for them: fetched now (beside the common ones), handed to
 * i18n once it has started — never into its first load, which the first render waits for.
 */
export function preloadTexts(namespaces: string[]): void {
  prefetchTexts(currentLanguage(), namespaces);
  const load = () => void i18n.loadNamespaces(namespaces).catch(() => undefined);
  if (i18n.isInitialized) load();
  else i18n.on('initialized', load);
}

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    fetchTexts(lng, ns).then(
      (data) => callback(null, data as never),
      (err: Error) => callback(err, false),
    );
  },
};

/** i18next's missing-key handler: a key without text and without a default given is reported. */
export function reportMissingKey(lngs: readonly string[], ns: string, key: string, _fallback?: unknown, _update?: unknown, options?: unknown): void {
  if (options && (options as { defaultValue?: unknown }).defaultValue !== undefined) return;
  console.error(`i18n: no text for ${ns}:${key} (${lngs.join(', ')})`);
}

export async function initI18n(lng: Language, resources?: Record<string, Record<string, unknown>>): Promise<typeof i18n> {
  document.documentElement.lang = lng;
  // A page rendered on the server (decision 050) brings the texts it was rendered with: no fetch before the first render.
  if (resources) for (const [ns, url] of Object.entries(urlsOf(lng, Object.keys(resources)))) fetched.set(url, Promise.resolve(resources[ns]));
  await i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng,
      supportedLngs: [...LANGUAGES],
      fallbackLng: false,
      ns: resources ? ['common', ...Object.keys(resources).filter((n) => n !== 'common')] : ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
      // A key with no text (and no default given at the call) is a defect: say so on the console,
      // where the e2e suite's console guard fails the spec that showed it (the bare key would
      // otherwise reach the screen).
      saveMissing: true,
      missingKeyHandler: reportMissingKey,
    });
  return i18n;
}

/** After a language is chosen, the page reloads in it (long enough to read the confirmation). */
const RELOAD_AFTER_MS = 900;

/**
 * The language switch of spec §2, for both selectors (the shell's antd dropdown and the sign-in
 * page's menu): saves the cookie, has `say` confirm it in the new language, then reloads.
 */
export async function switchLanguage(next: Language, say: (text: string) => void): Promise<void> {
  saveLanguage(next);
  await i18n.loadLanguages(next).catch(() => undefined);
  say(i18n.getFixedT(next, 'common')('switchLanguageSuccess'));
  setTimeout(() => location.reload(), RELOAD_AFTER_MS);
}

export { i18n };
