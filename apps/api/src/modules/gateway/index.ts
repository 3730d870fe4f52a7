import { defineModule } from '../contract';
import { gatewayRoutes } from './gateway.routes';
import { setUpGatewayJobs } from './gateway.background';
import { assertProviderKey } from './gateway.service';

/**
 * The gateway module's door (issue 45 §1–2): what other modules may use of the provider feed and
 * its files. A module imports it from here, never from its files (`npm run lint:deps`).
 */
export { fileHash } from '../../lib/crypto';
// Issue 51 (SSO): identity providers' client secrets are sealed like gateway keys and webhook secrets.
export { encryptSecret, encryptionKey, openSecret } from './gateway.crypto';
// Issue 48: the sandbox's own gateway connection for dispute notifications (development and tests).
export { addConnection, addKey, listConnections } from './gateway.service';

/**
 * Gateway connections, the provider feed and reconciliation. Its start-up check (issues 25, 46, 47):
 * every sealed secret needs its key — production refuses to start without a usable one.
 */
export const manifest = defineModule({
  name: 'gateway',
  routes: gatewayRoutes,
  jobs: [setUpGatewayJobs],
  checks: [(deps) => assertProviderKey(deps.db, deps.config)],
});

// What other modules use of it (issue 45 §2: through this door only).
// Issue 48: files of the inbox another module reads (the disputes module's daily file).
export { addInboxFileHandler, type InboxFileHandler } from './gateway.background';
