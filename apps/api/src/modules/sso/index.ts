import { defineModule } from '../contract';
import { addAccessGuard, addSignInGuard } from '../user';
import { operatorOf } from '../ops';
import { ssoRoutes } from './sso.routes';
import { ssoOpsRoutes } from './sso.ops';
import { breakGlassGuard, ssoRequiredGuard } from './sso.service';

/**
 * Enterprise sign-in (issue 51, decision 064, docs/sso.md): OIDC identity providers per merchant
 * group, just-in-time users with mapped roles, verified e-mail domains, "SSO required" with
 * break-glass administrators, and the back office's four-eyes lifting of it. The module's door:
 * other modules use only what is exported here.
 */
export const ssoModule = defineModule({
  name: 'sso',
  routes: ssoRoutes,
  ops: (app, deps) => ssoOpsRoutes(app, deps, operatorOf),
  // "SSO required": passwords, e-mailed codes and resets refused (break-glass administrators excepted).
  // The last break-glass administrator of a merchant requiring SSO stays (no lock-out).
  init: () => {
    addSignInGuard((q, user, step) => ssoRequiredGuard(q, user, step));
    addAccessGuard((q, user) => breakGlassGuard(q, user));
  },
});

export { mappedRole, identityOf } from './sso.login';
export { SsoAudit, groupOf } from './sso.service';
