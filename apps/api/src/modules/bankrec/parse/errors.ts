/**
 * Why a statement file is refused: a message key of `bankrec.messages.ts` and its parameters
 * (always naming the line or element that breaks it when there is one).
 */
export type RefusalKey =
  | 'bankFileTooLarge'
  | 'bankFileEncoding'
  | 'bankFileUnknownFormat'
  | 'bankXmlMalformed'
  | 'bankXmlDoctype'
  | 'bankCamtVersion'
  | 'bankElementMissing'
  | 'bankElementInvalid'
  | 'bankCurrencyDiffers'
  | 'bankBalanceMismatch'
  | 'bankBalanceMissing'
  | 'bankMt940Line'
  | 'bankMt940TagMissing'
  | 'bankTooManyEntries'
  | 'bankNoStatement'
  | 'bankCsvLine'
  | 'bankCsvColumn';

export class StatementRefused extends Error {
  constructor(
    readonly key: RefusalKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${key} ${JSON.stringify(params)}`);
    this.name = 'StatementRefused';
  }
}
