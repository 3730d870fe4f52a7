/**
 * The payments module's door (issue 45 §1–2): what other modules may use of the ledger's money —
 * exchange rates and the settlement run. A module imports payments from here, never from its files
 * (`npm run lint:deps`); the older imports past it are in the boundaries' baseline, to be moved here.
 */
export { importRatesFile, isRatesFile, type RatesFileReport } from './rates.file';
export { listRates, parseRateRow, rateHistory, saveRates, settledWith, trimRate } from './rates.service';
export { waitingForRate } from './rates.waiting';
export { registerFxMetrics } from './rates.metrics';
