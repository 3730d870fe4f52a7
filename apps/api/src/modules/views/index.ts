/**
 * The views module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { viewsRoutes } from './views.routes';

/** Saved views of list and report screens (issue 13). */
export const manifest = defineModule({ name: 'views', routes: viewsRoutes });
