import { formatMoney, toMinor } from '@portal/contract';
import { useTranslation } from 'react-i18next';

/** Formats a decimal wire amount ('1234.50') in its currency's decimals with grouping for `lang`. */
export function formatAmount(value: string | null | undefined, currency: string, lang = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  try {
    return formatMoney(toMinor(value, currency), currency, lang);
  } catch {
    return value;
  }
}

/** A money amount: currency-aware decimals, grouped, right-aligned with tabular digits. */
export function Money({ value, currency, showCurrency = true, strong }: { value: string | null | undefined; currency: string; showCurrency?: boolean; strong?: boolean }) {
  const { i18n } = useTranslation();
  const text = formatAmount(value, currency, i18n.language);
  return (
    <span className="money" style={{ display: 'inline-block', width: '100%', textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', fontWeight: strong ? 600 : undefined }}>
      {text}
      {showCurrency && text ? <span style={{ marginLeft: 4, color: 'rgba(0,0,0,0.55)', fontSize: '0.9em' }}>{currency}</span> : null}
    </span>
  );
}
