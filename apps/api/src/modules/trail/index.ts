/**
 * The money trail (issue 49, decision 061): the payout proof of every transfer and one timeline per
 * order. Other modules add lines to the proof and entries to the timeline through the source lists
 * exported here (`PROOF_SOURCES` / `proofSources`, see proof.sources.ts).
 */
import { defineModule } from '../contract';
import { proofRoutes, proofV1Routes } from './proof.routes';
import { timelineRoutes } from './timeline.routes';

export const trailModule = defineModule({
  name: 'trail',
  routes: (app, deps) => {
    proofRoutes(app, deps);
    timelineRoutes(app, deps);
  },
  v1: proofV1Routes,
});

export { PROOF_SOURCES, proofSources, type ProofSource, type ProofRowDb } from './proof.sources';
export { loadProof, parseTransferId, transferIdOf, type Proof, type ProofLine } from './proof.service';
export { TIMELINE_SOURCES, type TimelineSource, type TimelineEventDb } from './timeline.sources';
