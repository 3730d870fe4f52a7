import { defineModule } from '../contract';
import { bankrecRoutes } from './bankrec.routes';

/**
 * Bank statements matched to transfers (issue 49 §2, decision 062): camt.053, MT940 and CSV
 * statements imported per merchant, their credits matched to the transfers the settlement run
 * made, confirmed or undone by hand. Other modules use only what this file exports.
 */
export const bankrecModule = defineModule({ name: 'bankrec', routes: bankrecRoutes });

export { bankCreditsForTransfers, runMatching, type TransferBankCredit } from './bankrec.service';
export { readStatementFile } from './parse/detect';
export { checkBalances } from './parse/balance';
export type { ParsedStatement, ParsedEntry } from './parse/types';
