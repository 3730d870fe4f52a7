/**
 * The search module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { searchRoutes } from './search.routes';

/** The top bar's global search (issue 13). */
export const manifest = defineModule({ name: 'search', routes: searchRoutes });
