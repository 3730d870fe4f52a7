/**
 * The user module's door (issue 45 §1–2): what other modules may use of sign-in and sessions.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
export type { Meta } from './login.service';
