import type { PayMethod } from '@portal/contract';
import { methodsFor } from '@portal/contract';
import type { StoreDbRow } from './store.repo';

/**
 * The payment methods a store can take in `currency`: the brands the provider enabled for the
 * store whose channel the merchant has (and which accept the currency). Empty = the store has not
 * enabled this function ('You have not enabled this function, please contact sales').
 */
export function storeMethods(s: Pick<StoreDbRow, 'brands' | 'channels' | 'enabled'>, currency: string): PayMethod[] {
  if (!s.enabled) return [];
  return methodsFor(currency, s.channels).filter((m) => s.brands.includes(m.code));
}

/** The merchant currencies (default first) in which the store can take at least one method. */
export function storeCurrencies(s: Pick<StoreDbRow, 'brands' | 'channels' | 'enabled' | 'currencies' | 'default_currency'>): string[] {
  const all = [s.default_currency, ...s.currencies.map((c) => c.trim())].filter((c, i, a) => a.indexOf(c) === i);
  return all.filter((c) => storeMethods(s, c).length > 0);
}

/** Any method in any currency: the store's pay-in-store function is enabled. */
export const storeEnabled = (s: Pick<StoreDbRow, 'brands' | 'channels' | 'enabled' | 'currencies' | 'default_currency'>) => storeCurrencies(s).length > 0;
