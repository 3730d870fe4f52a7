import type { components, operations, paths, webhooks } from './generated/v1';

export type { components, operations, paths, webhooks };

/** The document's named schemas: `Schemas['Transaction']`, `Schemas['Refund']`, `Schemas['Error']` … */
export type Schemas = components['schemas'];

/**
 * An operation whose `Idempotency-Key` header the document requires (every POST): optional here,
 * the client adds one when it is not given (and keeps it for its retries).
 */
type LooseKey<O> = O extends { parameters: { header: { 'Idempotency-Key': string } } }
  ? Omit<O, 'parameters'> & {
      parameters: Omit<O['parameters'], 'header'> & { header?: Omit<O['parameters']['header'], 'Idempotency-Key'> & { 'Idempotency-Key'?: string } };
    }
  : O;

/** The document's paths as the client takes them (the generated `paths`, Idempotency-Key optional). */
export type SdkPaths = { [P in keyof paths]: { [M in keyof paths[P]]: LooseKey<paths[P][M]> } };

/** The JSON answer of an operation's first 2xx. */
type Ok<O> = O extends { responses: infer R } ? (R extends { 200: { content: { 'application/json': infer B } } } ? B : never) : never;

/** Paths whose GET answers a cursor page (`data`, `has_more`, `next_cursor`). */
export type CursorPath = {
  [P in keyof paths]: paths[P] extends { get: infer O } ? (Ok<O> extends { data: unknown[]; has_more: boolean; next_cursor: string | null } ? P : never) : never;
}[keyof paths];

/** The item of a cursor page. */
export type ItemOf<P extends CursorPath> = paths[P] extends { get: infer O } ? (Ok<O> extends { data: (infer I)[] } ? I : never) : never;

/** The query of a cursor list (its filters, `limit`; `cursor` is the paginator's). */
export type CursorQuery<P extends CursorPath> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? Omit<NonNullable<Q>, 'cursor'> : never;

/** Paths whose GET answers a numbered page (`data`, `total`; `page` 0-based, `size`). */
export type PagedPath = {
  [P in keyof paths]: paths[P] extends { get: infer O } ? (Ok<O> extends { data: unknown[]; total: number } ? P : never) : never;
}[keyof paths];

export type PagedItemOf<P extends PagedPath> = paths[P] extends { get: infer O } ? (Ok<O> extends { data: (infer I)[] } ? I : never) : never;
export type PagedQuery<P extends PagedPath> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? Omit<NonNullable<Q>, 'page'> : never;

/** A version of the API (a date), as the document lists them. */
export type ApiVersion = NonNullable<NonNullable<operations['listTransactions']['parameters']['header']>['Portal-Version']>;

/** A webhook event type the document lists (its `webhooks`, decision 079). */
export type WebhookEventType = keyof webhooks;
/**
 * The body a delivery of `T` carries, in either form (the endpoint's `api_version`): narrow on
 * `'created_at' in body` for the 2026-12-03 form — e.g. `WebhookPayload<'transaction.succeeded'>`,
 * whose `data` there is `Schemas['Transaction']`.
 */
export type WebhookPayload<T extends WebhookEventType> = webhooks[T]['post']['requestBody']['content']['application/json'];
