import { defineModule } from '../contract';
import { DISPUTE_EVENTS } from './disputes.events';
import { disputeProviderRoutes } from './disputes.provider';
import { disputeRoutes } from './disputes.routes';
import { disputeV1Routes } from './disputes.v1';
import { disputeOpsRoutes } from './disputes.ops';
import { setUpDisputeJobs } from './disputes.jobs';
import { importDisputesFile, isDisputesFile } from './disputes.file';
import { addInboxFileHandler } from '../gateway';
import { seedDemoDisputes } from './disputes.sandbox';

/**
 * The disputes module's door (issue 48, docs/disputes.md): chargebacks, inquiries and
 * pre-arbitrations with their deadlines, evidence and money. Other modules use it only from here.
 */
export const disputesModule = defineModule({
  name: 'disputes',
  // The daily dispute file of the gateway inbox (`*.disputes.jsonl`) goes through the notifications' rules.
  init: () =>
    addInboxFileHandler({
      claims: isDisputesFile,
      importFile: (deps, file, o) => importDisputesFile(deps.db, file, { connectionId: o.connectionId, now: deps.clock.now(), platformTz: deps.config.platformTz }),
    }),
  routes: disputeRoutes,
  v1: disputeV1Routes,
  provider: disputeProviderRoutes,
  ops: disputeOpsRoutes,
  jobs: [setUpDisputeJobs],
  // First start: the sandbox's disputes on the demo merchants' purchases (every kind and state, one due tomorrow).
  seed: async (deps) => void (await seedDemoDisputes(deps)),
  v1Tags: [
    {
      name: 'disputes',
      description:
        'Chargebacks, inquiries and pre-arbitrations of your purchases: list, detail, evidence, submit, accept (docs/disputes.md). Webhook events dispute.created, dispute.updated, dispute.closed.',
    },
  ],
  webhookEvents: DISPUTE_EVENTS,
});

export { disputeLinesOf, movementsOf, type DisputeLines, type DisputeMovement, type LinesQuery } from './disputes.lines';
export { receiveDispute, type DisputeNotice, type ReceiveStatus } from './disputes.receive';
export { reasonOf, REASON_CODES } from './reason-codes';
export { raiseSandboxDisputes, sandboxGatewayKey, sandboxPurchase, seedDemoDisputes } from './disputes.sandbox';
export { disputeTick } from './disputes.jobs';
export { importDisputesFile, isDisputesFile, type DisputesFileReport } from './disputes.file';
