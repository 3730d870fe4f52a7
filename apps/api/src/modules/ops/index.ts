import { defineModule, faceRoutes } from '../contract';
import { opsModule } from './ops.module';

/**
 * The ops module's door (issue 45 §1–2): what other modules may use of the back office. A module
 * imports the back office from here, never from its files (`npm run lint:deps`).
 */
export { assertMerchantOpen } from './merchants.service';
// Issue 51 (SSO): the signed-in operator of a module's ops route.
// Issue 48: a module's back-office routes read the signed-in operator.
export { operatorOf } from './ops.auth';

/** The back office: its own routes, then the modules' `ops` routes inside its scope. */
export const manifest = defineModule({ name: 'ops', routes: (app, deps, modules) => opsModule(app, deps, faceRoutes('ops', modules)) });
