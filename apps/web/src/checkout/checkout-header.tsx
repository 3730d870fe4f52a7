import { LANGS, LANG_LABELS, type Lang } from './i18n';

/** The public pages' top bar (checkout, a store's QR, the cashier view): title, optional lock, language picker. */
export function CheckoutHeader({ title, lock = false, lang, onLang, languageLabel }: { title: string; lock?: boolean; lang: Lang; onLang: (l: Lang) => void; languageLabel: string }) {
  return (
    <header className="co-header">
      <div className="co-brand">
        {lock && (
          <svg className="co-lock" width="16" height="16" viewBox="0 0 16 16" aria-hidden>
            <path fill="currentColor" d="M4 7V5a4 4 0 1 1 8 0v2h.5A1.5 1.5 0 0 1 14 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 13.5v-5A1.5 1.5 0 0 1 3.5 7H4Zm1.5 0h5V5a2.5 2.5 0 0 0-5 0v2Z" />
          </svg>
        )}
        <span>{title}</span>
      </div>
      <label className="co-lang">
        <span className="co-visually-hidden">{languageLabel}</span>
        <select value={lang} onChange={(e) => onLang(e.target.value as Lang)} aria-label={languageLabel}>
          {LANGS.map((l) => (
            <option key={l} value={l}>
              {LANG_LABELS[l]}
            </option>
          ))}
        </select>
      </label>
    </header>
  );
}
