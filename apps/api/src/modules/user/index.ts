import { defineModule } from '../contract';
import { userRoutes } from './user.routes';

/**
 * The user module's door (issue 45 §1–2): what other modules may use of sign-in and sessions.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
export type { Meta } from './login.service';
// Issue 51 (SSO): sessions started by an SSO sign-in, and the sign-in guards ("SSO required").
export { startSession, type TokenPair } from './session.service';
export { addAccessGuard, addSignInGuard, checkAccessChange, checkSignIn, type AccessChange, type AccessGuard, type SignInGuard, type SignInStep } from './sign-in-guard';
// Issue 51: checks other modules add to every sign-in (the IP allow-list).
export { registerSignInCheck, runSignInChecks, type SignInCheck } from './signin-checks';

/** Sign-in, sessions, the token refresh and sign-out (the merchant realm). */
export const manifest = defineModule({ name: 'user', routes: userRoutes });

// What other modules use of it (issue 45 §2: through this door only).
export {
  checkUsable,
  completeSecondFactor,
  grantStepUp,
  countWrongPassword,
  findUser,
  findUserById,
  hasStepUp,
  login,
  merchantRequiresSecondFactor,
  passwordStep,
  refuseUnusable,
  sendSecondFactor,
  usableAccount,
  verifyPasswordCounted,
} from './login.service';
export type { UserRow } from './login.service';
export { MERCHANT_REALM, OPERATOR_REALM } from './realm';
export type { Realm } from './realm';
export { logout, refresh } from './session.service';
// Issue 45 §2: a user's sessions end here, whoever ends them (a password change, the team, SCIM, the access job).
export { endUserSessions } from './session.service';
// Issue 45 §2: the second factor's secrets and the password's age are the sign-in's (the account module enrols and changes them).
export { acceptTotp, newRecoveryCodes, newTotpSecret, recoveryCodesLeft, storeRecoveryCodes, totpFor } from './totp';
export { maxAgeDaysOf, passwordExpired } from './password-age';
