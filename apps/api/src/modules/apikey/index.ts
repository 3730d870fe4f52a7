/**
 * The apikey module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { apiKeyRoutes } from './apikey.routes';

/** API keys of the merchant API (/v1). */
export const manifest = defineModule({ name: 'apikey', routes: apiKeyRoutes });

// What other modules use of it (issue 45 §2: through this door only).
export { API_VERSIONS, API_VERSION_CURRENT, authenticateKey, keyAsUser } from './apikey.auth';
export type { ApiVersion } from './apikey.auth';
export type { KeyCaller } from './apikey.auth';
