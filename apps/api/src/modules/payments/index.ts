import { defineModule } from '../contract';
import { setUpPaymentJobs } from './payments.background';
import { registerFxMetrics } from './rates.metrics';
import { SETTLEMENT_EVENTS } from './settlement/settle.events';

/**
 * The payments module's door (issue 45 §1–2): what other modules may use of the ledger's money —
 * exchange rates and the settlement run. A module imports payments from here, never from its files
 * (`npm run lint:deps`); the older imports past it are in the boundaries' baseline, to be moved here.
 */
export { importRatesFile, isRatesFile, type RatesFileReport } from './rates.file';
export { listRates, parseRateRow, rateHistory, saveRates, settledWith, trimRate } from './rates.service';
export { waitingForRate } from './rates.waiting';
export { registerFxMetrics } from './rates.metrics';
// Issue 48: the disputes module writes its ledger rows through the one ingestion path and reads the
// platform-zone calendar.
export { ingestTransaction } from './ingest.service';
export { addDays, daysBetween, platformDate, zonedInstant } from './time';

/** The ledger's money: ingest, settlement runs, exchange rates (issue 46: transactions waiting for a rate, on /metrics). */
export const manifest = defineModule({ name: 'payments', metrics: [registerFxMetrics], jobs: [setUpPaymentJobs], webhookEvents: SETTLEMENT_EVENTS });

// What other modules use of it (issue 45 §2: through this door only).
export { ingestBatch, ingestEach } from './ingest.service';
export type { IngestInput, TxnRow } from './ingest.service';
export { shapeRow } from './ingest.validate';
export { queueLate } from './late';
export { isProcessing } from './processing';
export { SANDBOX_MESSAGES, createSandboxAcquirer, sandboxOutcome, sandboxResolution } from './sandbox.acquirer';
export type { SandboxAcquirer } from './sandbox.acquirer';
export { assertDayOver, lastRunDate, lastSettleableDate, settleRange } from './settlement/settle.run';
export type { RunResult } from './settlement/settle.run';
export { settlementJob } from './settlement/settle.schedule';
export { compact, datesBetween, isDate, isoDow, nextBusinessDay, zoneOffsetMs } from './time';
