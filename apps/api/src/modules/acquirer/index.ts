/**
 * The acquirer module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { setUpAcquirerJobs } from './acquirer.jobs';

export { sandboxInProductionWarning } from './acquirer';

/** The acquirer adapters (sandbox, HTTP) and their pending operations (issue 25). */
export const manifest = defineModule({ name: 'acquirer', jobs: [setUpAcquirerJobs] });

// What other modules use of it (issue 45 §2: through this door only).
export { acquirerOf, firstSendLeaseMs } from './acquirer';
export type { OperationRequest } from './acquirer.types';
// Issue 45 §2: the order a charge paid follows its result through this hook (the paybylink module registers it).
export { registerChargeOrder, type SettledCharge } from './charge-orders';
export { insertOperation, operationOfTxn } from './operations.repo';
export { OperationAudit, completeOperation, resolveOperation, sendOperation } from './operations.service';
// A processing transaction made final by the gateway's answer (its feed): through its operation when the portal asked for it.
export { finishProcessing } from './processing.service';
// Issue 48: the interface's types, for modules that send something outward (disputes).
export type { Acquirer, AcquirerAnswer, DisputeRequest } from './acquirer.types';
