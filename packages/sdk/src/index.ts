/**
 * @portal/sdk — the merchant API's TypeScript client (issue 50; decision 075). Its types are
 * generated from the API's OpenAPI document (src/generated/v1.ts, `npm run sdk:generate`); no shape
 * here is written by hand. See README.md.
 */
export { createPortalClient, orThrow, PortalApiError, retryDelay, retryingFetch, type PortalClient, type PortalClientOptions, type RetryOptions } from './client';
export { listAll, paginate, paginatePages } from './paginate';
export { verifyPortalSignature, verifyStandardWebhook, verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookEvent } from './webhooks';
export type { ApiVersion, components, CursorPath, ItemOf, operations, PagedPath, paths, Schemas, SdkPaths, WebhookEventType, WebhookPayload, webhooks } from './types';
