/**
 * The dev module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { devRoutes } from './dev.routes';

/** Development pages (mail and SMS outboxes, demo helpers): absent in production. */
export const manifest = defineModule({ name: 'dev', enabled: (config) => config.env !== 'production', routes: devRoutes });

// What other modules use of it (issue 45 §2: through this door only).
export { localOnly } from './dev.routes';
