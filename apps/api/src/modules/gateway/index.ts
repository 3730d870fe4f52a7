/**
 * The gateway module's door (issue 45 §1–2): what other modules may use of the provider feed and
 * its files. A module imports it from here, never from its files (`npm run lint:deps`).
 */
export { fileHash } from './import.service';
