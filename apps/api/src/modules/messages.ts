import { addMessages } from '../lib/messages';
import { TXN_MESSAGES } from './txn/txn.messages';
import { PAYMENTS_MESSAGES } from './payments/payments.messages';
import { PBL_MESSAGES } from './paybylink/paybylink.messages';
import { REPORT_MESSAGES } from './report/report.messages';
import { ACCOUNT_MESSAGES } from './account/account.messages';
import { TEAM_MESSAGES } from './team/team.messages';
import { ACCESS_MESSAGES } from './team/access.messages';
import { STORE_MESSAGES } from './store/store.messages';
import { MERCHANT_MESSAGES } from './merchant/merchant.messages';
import { SCHEDULE_MESSAGES } from './schedule/schedule.messages';
import { VIEW_MESSAGES } from './views/views.messages';
import { GATEWAY_MESSAGES } from './gateway/gateway.messages';
import { WEBHOOK_MESSAGES } from './webhook/webhook.messages';
import { APIKEY_MESSAGES } from './apikey/apikey.messages';
import { OPS_MESSAGES } from './ops/ops.messages';
import { OPS_RUNS_MESSAGES } from './ops/runs.messages';
import { OPS_NOTICE_MESSAGES } from './ops/notices.messages';
import { FX_MESSAGES } from './payments/rates.messages';
import { SSO_MESSAGES } from './sso/sso.messages';
import { SCIM_MESSAGES } from './scim/scim.messages';
import { BANKREC_MESSAGES } from './bankrec/bankrec.messages';
import { DISPUTE_MESSAGES } from './disputes/disputes.messages';

/**
 * The modules' message catalogues (issue 45 §1): each module's `<m>.messages.ts`, one import and one
 * spread line here. Added to the server's messages when this file loads (`modules/index.ts`, the
 * test setup, the command-line tools), and their keys to `t()`'s (the interface below).
 */
const MODULE_MESSAGES = {
  ...TXN_MESSAGES,
  ...PAYMENTS_MESSAGES,
  ...PBL_MESSAGES,
  ...REPORT_MESSAGES,
  ...ACCOUNT_MESSAGES,
  ...TEAM_MESSAGES,
  ...ACCESS_MESSAGES,
  ...STORE_MESSAGES,
  ...MERCHANT_MESSAGES,
  ...SCHEDULE_MESSAGES,
  ...VIEW_MESSAGES,
  ...GATEWAY_MESSAGES,
  ...WEBHOOK_MESSAGES,
  ...APIKEY_MESSAGES,
  ...OPS_MESSAGES,
  ...OPS_RUNS_MESSAGES,
  ...OPS_NOTICE_MESSAGES,
  ...FX_MESSAGES,
  // Issue 51 (SSO, SCIM), issue 49 (bank statements), issue 48 (disputes).
  ...SSO_MESSAGES,
  ...SCIM_MESSAGES,
  ...BANKREC_MESSAGES,
  ...DISPUTE_MESSAGES,
};

addMessages(MODULE_MESSAGES);

type ModuleCatalogue = typeof MODULE_MESSAGES;
declare module '../lib/messages' {
  // oxlint-disable-next-line typescript/no-empty-interface, typescript/no-empty-object-type
  interface ModuleMessages extends ModuleCatalogue {}
}
