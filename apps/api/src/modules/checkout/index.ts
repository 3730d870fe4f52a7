/**
 * The checkout module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { checkoutRoutes } from './checkout.routes';
import { seedPayByLinkDemo } from './paybylink.seed';

/** The buyer's hosted checkout of a payment link (/api/checkout/*); the demo seed's pay-by-link orders in every state, paid through it. */
export const manifest = defineModule({ name: 'checkout', routes: checkoutRoutes, seed: seedPayByLinkDemo });

// What other modules use of it (issue 45 §2: through this door only).
