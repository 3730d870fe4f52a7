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

/** Every area of the portal's endpoint table, by name (the route-table suite walks them). */
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

/** Every descriptor, named `Area.key`. */
export const ALL_ENDPOINTS: { name: string; endpoint: AnyEndpoint }[] = Object.entries(ENDPOINT_AREAS).flatMap(([area, eps]) =>
  Object.entries(eps).map(([key, endpoint]) => ({ name: `${area}.${key}`, endpoint })),
);
