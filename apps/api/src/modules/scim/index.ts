import { defineModule } from '../contract';
import { scimFace } from './scim.face';
import { scimPortalRoutes } from './scim.routes';
import { registerSignInCheck } from '../user';
import { checkSignInIp } from './signin-ip.service';

/**
 * SCIM 2.0 provisioning and the sign-in IP allow-list per merchant group (issue 51, decision 065).
 * `routes`: the portal's Team → Provisioning and sign-in IP routes (`/api/team/…`), and the SCIM face
 * `/scim/v2` — a scoped plugin with its own bearer-token authentication and error format.
 */
export const scimModule = defineModule({
  name: 'scim',
  // Every merchant sign-in (password, code, TOTP, passkey, WeChat, and any later one) checks the IP allow-list.
  init: () => registerSignInCheck('signin-ip', checkSignInIp),
  routes: (app, deps) => {
    scimPortalRoutes(app, deps);
    scimFace(app, deps);
  },
});

export { checkSignInIp, ipInRanges, SignInIpAudit } from './signin-ip.service';
export { ScimAudit } from './scim.tokens';
