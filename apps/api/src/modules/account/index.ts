import { defineModule } from '../contract';
import { accountModule } from './account.module';

/**
 * The account module's door (issue 45 §1–2): what other modules may use of a user's own account
 * and security settings. A module imports it from here, never from its files (`npm run lint:deps`).
 */
export { setRequireTotp } from './security.service';
// Issue 51 (SSO): the browser-bound one-time states of OAuth round trips (as WeChat's).
export { consumeOAuthState, createOAuthState, peekOAuthState } from './wechat.client';
// Issue 51: a user signed in by SSO or provisioned by SCIM has no usable password; deactivation ends its sessions.
export { endUserSessions, UNUSABLE_PASSWORD } from './links.service';

/** The user's own account: activation, password, phone, WeChat, TOTP, passkeys, sessions. */
export const manifest = defineModule({ name: 'account', routes: accountModule });

// What other modules use of it (issue 45 §2: through this door only).
export { AccountAudit } from './account.audit';
export { maskEmail } from './account.service';
export { consumeLink, createLink, findLink, linkUsable, publicBase, sendActivation, sendPasswordReset } from './links.service';
export { checkPasswordRules, hashPassword, passwordExpired } from './password.policy';
export { readSmsOutbox, smsOutboxDir } from './sms';
export { RECOVERY_RE, acceptTotp, newRecoveryCodes, newTotpSecret, storeRecoveryCodes, totpCodeUsed, totpFor, useRecoveryCode } from './totp';
export { OAUTH_STATE_SECONDS, wechatClientOf } from './wechat.client';
