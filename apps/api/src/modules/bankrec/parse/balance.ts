import { minorToText } from './amount';
import { StatementRefused } from './errors';
import type { ParsedStatement } from './types';

/**
 * The statement's own arithmetic: opening balance + Σ booked entries = closing balance, all in the
 * account's currency. Refused naming the element or line that breaks it: a balance or an entry in
 * another currency, a missing balance (camt / MT940 always carry both), or the difference.
 * CSV exports carry no balances: nothing to check.
 */
export function checkBalances(s: ParsedStatement): void {
  if (s.format === 'csv') return;
  if (!s.opening) throw new StatementRefused('bankBalanceMissing', { at: s.at, balance: s.format === 'camt053' ? 'OPBD' : ':60F:' });
  if (!s.closing) throw new StatementRefused('bankBalanceMissing', { at: s.at, balance: s.format === 'camt053' ? 'CLBD' : ':62F:' });
  for (const b of [s.opening, s.closing]) {
    if (b.currency !== s.currency) throw new StatementRefused('bankCurrencyDiffers', { at: b.at, currency: b.currency, account: s.currency });
  }
  let sum = s.opening.amount;
  for (const e of s.entries) {
    if (e.currency !== s.currency) throw new StatementRefused('bankCurrencyDiffers', { at: e.at, currency: e.currency, account: s.currency });
    sum += e.amount;
  }
  if (sum !== s.closing.amount) {
    throw new StatementRefused('bankBalanceMismatch', {
      at: s.closing.at,
      opening: minorToText(s.opening.amount, s.currency),
      entries: minorToText(sum - s.opening.amount, s.currency),
      expected: minorToText(sum, s.currency),
      closing: minorToText(s.closing.amount, s.currency),
      currency: s.currency,
    });
  }
}
