import type { Page } from '../api';
import type { ApiKeyCreated, ApiKeyRow } from '../developer';
import { Perm } from '../permissions';
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookSecret } from '../webhooks';
import { get, post } from './endpoint';

export interface DeliveryFilter {
  id: number;
  state?: WebhookDelivery['state'];
  eventId?: string;
  page: number;
  size: number;
}
export interface CreateKeyForm {
  name: string;
  merIds: string[];
  permissions: string[];
  ipAllow?: string[];
  expiresOn?: string;
}
type Id = { id: number };
const DEV = Perm.developerManage;

/** Developers → Webhooks (issue 31): endpoints, their secrets, the delivery log. */
export const WebhooksApi = {
  endpoints: get<void, WebhookEndpoint[]>('/api/webhooks/endpoint/list', DEV),
  endpoint: get<Id, WebhookEndpoint>('/api/webhooks/endpoint/detail', DEV),
  create: post<{ merId: string; url: string; events: string[]; description: string }, WebhookSecret>('/api/webhooks/endpoint/create', DEV),
  update: post<{ id: number; url: string; events: string[]; description: string }, WebhookEndpoint>('/api/webhooks/endpoint/update', DEV),
  rotate: post<Id, WebhookSecret>('/api/webhooks/endpoint/rotate', DEV),
  endPreviousSecret: post<Id, WebhookEndpoint>('/api/webhooks/endpoint/endPreviousSecret', DEV),
  disable: post<Id, WebhookEndpoint>('/api/webhooks/endpoint/disable', DEV),
  enable: post<Id, WebhookEndpoint>('/api/webhooks/endpoint/enable', DEV),
  test: post<Id, WebhookDeliveryDetail>('/api/webhooks/endpoint/test', DEV),
  resendFailed: post<{ id: number; since: string }, { count: number }>('/api/webhooks/endpoint/resendFailed', DEV),
  deliveries: get<DeliveryFilter, Page<WebhookDelivery>>('/api/webhooks/delivery/list', DEV),
  delivery: get<Id, WebhookDeliveryDetail>('/api/webhooks/delivery/detail', DEV),
  resend: post<Id, WebhookDeliveryDetail>('/api/webhooks/delivery/resend', DEV),
} as const;

/** Developers → API keys (issue 31). */
export const ApiKeysApi = {
  list: get<{ page: number; size: number }, Page<ApiKeyRow>>('/api/developer/keys', DEV),
  create: post<CreateKeyForm, ApiKeyCreated>('/api/developer/keys/create', DEV),
  revoke: post<Id, ApiKeyRow>('/api/developer/keys/revoke', DEV),
} as const;
