/**
 * The txn module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { txnModule } from './txn.module';
import { registerApprovalKind } from '../team';
import { refund } from './refund.service';
import { TXN_EVENTS } from './txn.events';

/** Transactions: list, detail, refund, exports, settle list, logistics, manual blend. */
export const manifest = defineModule({
  name: 'txn',
  routes: txnModule,
  webhookEvents: TXN_EVENTS,
  // Four eyes: an approved refund request runs as its approver, with the request's own key (one refund however often it runs).
  init: () =>
    registerApprovalKind('refund', {
      execute: async (deps, approver, r, lang, meta) => {
        const p = r.payload as { id: string; amount: string; txnschema: string | null; metadata?: Record<string, string> };
        return {
          ...(await refund(deps, approver, lang, { id: p.id, amount: p.amount, txnschema: p.txnschema ?? undefined, requestKey: `approval-${r.id}`, metadata: p.metadata }, meta, {
            approvalId: r.id,
          })),
        };
      },
    }),
});

// What other modules use of it (issue 45 §2: through this door only).
export { refund } from './refund.service';
export { metadataOf } from './refund.repo';
export { settleBatches } from './settle-detail.service';
export { csvLine } from './settle-statement.csv';
export { STATEMENT_LABELS, statementTypeLabel } from './settle-statement.labels';
export { daysBetween, formatInZone, offsetLabel, zoneOffsetMinutes, zonedToUtc } from './time';
export type { Zone } from './time';
export { registerTxnExports } from './txn.exports';
export { findDetail, gwTransIdOf, listTxn, txnKey, txnWhere } from './txn.repo';
export { money } from './txn.row';
export type { TxnDbRow } from './txn.row';
export { checkRange } from './txn.service';
export { statusOf, toV1Transaction, v1RefundSchema, v1TransactionSchema, type V1Transaction } from './txn.public';
