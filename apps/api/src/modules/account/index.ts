import { defineModule } from '../contract';
import { registerApprovalChange, registerUserLinks } from '../team';
import { accountModule } from './account.module';
import { sendActivation, sendPasswordReset } from './links.service';
import { setRequireTotp } from './security.service';

/**
 * The account module's door (issue 45 §1–2): what other modules may use of a user's own account
 * and security settings. A module imports it from here, never from its files (`npm run lint:deps`).
 */
export { setRequireTotp } from './security.service';
// Issue 51 (SSO): the browser-bound one-time states of OAuth round trips (as WeChat's).
export { consumeOAuthState, createOAuthState, peekOAuthState } from './wechat.client';

/** The user's own account: activation, password, phone, WeChat, TOTP, passkeys, sessions. */
export const manifest = defineModule({
  name: 'account',
  routes: accountModule,
  // What the team's user management and four eyes use of the account, registered with them (the team names no module it serves):
  // the activation and reset links it mails, and the merchant's "require TOTP" switched off once a second administrator approved.
  init: () => {
    registerUserLinks({ sendActivation, sendPasswordReset });
    registerApprovalChange('requireTotp', async (deps, approver, r, _lang, meta) => {
      const p = (r.payload as { requireTotp: { merId: string; require: boolean } }).requireTotp;
      const done = await setRequireTotp(deps, approver, p.require, meta, { approvalId: r.id, merId: p.merId });
      return { code: 0, merId: p.merId, require: done.require };
    });
  },
});

// What other modules use of it (issue 45 §2: through this door only).
export { AccountAudit } from './account.audit';
export { maskEmail } from './account.service';
export { consumeLink, createLink, findLink, linkUsable, sendActivation, sendPasswordReset } from './links.service';
export { checkPasswordRules, hashPassword } from './password.policy';
export { readSmsOutbox, smsOutboxDir } from './sms';
export { OAUTH_STATE_SECONDS, wechatClientOf } from './wechat.client';
