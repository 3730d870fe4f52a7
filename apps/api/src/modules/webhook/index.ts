/**
 * The webhook module's door (issue 45 §1–2): its manifest and what other modules may use of it —
 * the merchant API face's /v1/webhook_endpoints and /v1/events among them (issue 50). A module
 * imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { webhookRoutes } from './webhook.routes';
import { setUpWebhookJobs } from './webhook.deliver';

/** Webhook endpoints and the delivery of their events (the outbox). */
export const manifest = defineModule({ name: 'webhook', routes: webhookRoutes, jobs: [setUpWebhookJobs] });

export {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  setEnabled,
  updateEndpoint,
  type VersionedEndpoint,
} from './webhook.service';
export { eventRowId, getEvent, listEvents, type DeliveredEvent } from './webhook.events.service';
export { standardSignatureHeader, signatureHeader } from './webhook.sign';
export { eventBody } from './webhook.render';
export { purgeEvents, EVENT_KEEP_MS } from './webhook.deliver';
