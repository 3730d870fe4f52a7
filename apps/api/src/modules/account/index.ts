/**
 * The account module's door (issue 45 §1–2): what other modules may use of a user's own account
 * and security settings. A module imports it from here, never from its files (`npm run lint:deps`).
 */
export { setRequireTotp } from './security.service';
