import type { AnyEndpoint } from './endpoint';
import { AccountApi, AuthApi, SessionApi, UsersApi } from './user';
import { HomeApi, MerchantApi, NoticeApi } from './merchant';
import { FilesApi, ReportApi, TrailApi, TxnApi } from './txn';
import { CashierApi, CheckoutApi, PayByLinkApi, PayInStoreApi } from './paybylink';
import { ScimApi, TeamApi } from './team';
import { SsoApi } from './sso';
import { ApiKeysApi, WebhooksApi } from './developer';
import { DevApi, ScheduleApi, ViewsApi } from './work';
import { BankrecApi } from './bankrec';
import { DisputesApi } from './disputes';
import { OpsApi, OpsMerchantsApi, OpsWorkApi } from './ops';

/** Every area of the portal's endpoint table, by name (the route-table suite walks them); the back office's apart (OPS_AREAS). */
export const ENDPOINT_AREAS: Record<string, Record<string, AnyEndpoint>> = {
  AuthApi,
  AccountApi,
  UsersApi,
  SessionApi,
  MerchantApi,
  NoticeApi,
  HomeApi,
  TxnApi,
  TrailApi,
  ReportApi,
  FilesApi,
  PayByLinkApi,
  CheckoutApi,
  PayInStoreApi,
  CashierApi,
  TeamApi,
  ScimApi,
  SsoApi,
  WebhooksApi,
  ApiKeysApi,
  ScheduleApi,
  ViewsApi,
  DevApi,
  BankrecApi,
  DisputesApi,
};

const named = (areas: Record<string, Record<string, AnyEndpoint>>) =>
  Object.entries(areas).flatMap(([area, eps]) => Object.entries(eps).map(([key, endpoint]) => ({ name: `${area}.${key}`, endpoint })));

/** Every descriptor of the portal's /api face, named `Area.key`. */
export const ALL_ENDPOINTS: { name: string; endpoint: AnyEndpoint }[] = named(ENDPOINT_AREAS);

/** The back office's areas (/api/ops, its own realm and suite: test/security/ops-routes.test.ts). */
export const OPS_AREAS: Record<string, Record<string, AnyEndpoint>> = { OpsApi, OpsMerchantsApi, OpsWorkApi };
export const OPS_ENDPOINTS: { name: string; endpoint: AnyEndpoint }[] = named(OPS_AREAS);
