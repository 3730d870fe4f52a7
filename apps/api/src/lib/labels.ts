import type { Language } from '@portal/contract';

/** A text in the four languages (a column heading, a status name). */
export type Label = Record<Language, string>;

/** A label from its four texts, in the order en, zh, ko, ja (issue 45: one helper, not one per file). */
export function label(en: string, zh: string, ko: string, ja: string): Label {
  return { en, zh, ko, ja };
}
