/**
 * The chat module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { chatRoutes } from './chat.routes';

/** The live-chat widget's sign-on. */
export const manifest = defineModule({ name: 'chat', routes: chatRoutes });
