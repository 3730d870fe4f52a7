/**
 * The ops module's door (issue 45 §1–2): what other modules may use of the back office. A module
 * imports the back office from here, never from its files (`npm run lint:deps`).
 */
export { assertMerchantOpen } from './merchants.service';
