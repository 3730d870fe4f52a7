/**
 * The store module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { storeModule } from './store.module';

/** Stores, pay in store, the stores' static QR and cashiers. */
export const manifest = defineModule({ name: 'store', routes: storeModule });

// What other modules use of it (issue 45 §2: through this door only).
export { createInStoreOrder, loadInStoreOrder, toPisRow } from './payinstore.service';
export { findStore } from './store.repo';
export { storeMethods } from './store.rules';
/** The store module's door (issue 50): what the merchant API face (/v1/stores) uses of it. */
export { listStores } from './store.repo';
export { storeInScope, toStore } from './payinstore.service';
