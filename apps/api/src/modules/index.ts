import type { ModuleManifest } from './contract';
import { manifest as user } from './user';
import { manifest as merchant } from './merchant';
import { manifest as notice } from './notice';
import { manifest as files } from './files';
import { manifest as payments } from './payments';
import { manifest as txn } from './txn';
import { manifest as exportModule } from './export';
import { manifest as paybylink } from './paybylink';
import { manifest as checkout } from './checkout';
import { manifest as report } from './report';
import { manifest as team } from './team';
import { manifest as store } from './store';
import { manifest as account } from './account';
import { manifest as chat } from './chat';
import { manifest as gateway } from './gateway';
import { manifest as webhook } from './webhook';
import { manifest as apikey } from './apikey';
import { manifest as ops } from './ops';
import { manifest as schedule } from './schedule';
import { manifest as search } from './search';
import { manifest as views } from './views';
import { manifest as acquirer } from './acquirer';
import { manifest as v1 } from './v1';
import { manifest as dev } from './dev';
import { ssoModule } from './sso';
import { scimModule } from './scim';
import { bankrecModule } from './bankrec';
import { disputesModule } from './disputes';
import { trailModule } from './trail';
import './messages';

/**
 * Every domain module's manifest (issue 45 §1, `modules/contract.ts`), in registration order:
 * `app.ts`, the faces and `startup.ts` walk this list. A new module adds its manifest here — one
 * line — and nothing else central (`apps/api/README.md`, "Adding a module").
 *
 * Order: portal routes are registered in this order (the schedules come after the modules whose
 * export sources they run); the hosted faces (`face`: /v1) after every module's portal routes.
 */
export const MODULES: readonly ModuleManifest[] = [
  user,
  merchant,
  notice,
  files,
  // Exchange rates (issue 46): transactions waiting for a rate, on /metrics.
  payments,
  txn,
  exportModule,
  paybylink,
  checkout,
  report,
  team,
  store,
  account,
  chat,
  gateway,
  webhook,
  apikey,
  // Enterprise sign-in (issue 51): before the back office, whose scope takes its ops routes.
  ssoModule,
  // The back office: its own routes, then the modules' `ops` routes inside its scope.
  ops,
  schedule,
  search,
  views,
  acquirer,
  v1,
  // Issue 51: SCIM 2.0 provisioning (/scim/v2) and the sign-in IP allow-list.
  scimModule,
  // Bank statements and matching (issue 49 §2).
  bankrecModule,
  // Disputes (issue 48).
  disputesModule,
  // The money trail: payout proof, order timeline (issue 49).
  trailModule,
  // Outside production only (its manifest's `enabled`).
  dev,
];
