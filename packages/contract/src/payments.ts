/** Payment-domain helpers shared by web and api (domain.md: channels, settling types). */
import { TXN_SIGN, TXN_TYPES, type TxnType } from './txn';

/**
 * Business line (channel group) of a channel (`paymentSchema`): UP, APP, EXUP, UP_B2B → UP;
 * AP, APDP, APMP → AP; PPRO* → PPRO; every other channel is its own group.
 */
export function busLineOf(channel: string): string {
  const c = channel.trim().toUpperCase();
  if (c === 'UP' || c === 'APP' || c === 'EXUP' || c === 'UP_B2B') return 'UP';
  if (c === 'AP' || c === 'APDP' || c === 'APMP') return 'AP';
  if (c.startsWith('PPRO')) return 'PPRO';
  return c;
}

/** Types the settlement run picks up (result '00' only); PAUT and DECL never settle. */
export const SETTLING_TYPES: readonly TxnType[] = TXN_TYPES.filter((t) => TXN_SIGN[t] !== 0);

/** Summary-report-only pseudo types: the day's reserve held and released (not transactions). */
export const DEPOSIT_TYPES = ['M-DEPOSIT', 'M-DEPOSIT-RELEASE'] as const;

/** Transfer period of a fee schedule: D daily, W1..W7 weekly on an ISO weekday (1 = Monday), M1..M28 monthly. */
export const TRANSFER_PERIOD_RE = /^(D|W[1-7]|M([1-9]|1[0-9]|2[0-8]))$/;
