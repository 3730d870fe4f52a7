import { z } from 'zod';
import { textInput } from './input';

/**
 * Webhooks to merchants (issue 31; docs/webhooks.md): endpoints that receive signed events of the
 * merchant's money movements. Screen: Developers → Webhooks; permission developer:manage.
 */
export const WEBHOOK_EVENTS = [
  'transaction.succeeded',
  'transaction.failed',
  'refund.succeeded',
  'refund.failed',
  'paylink.paid',
  'paylink.closed',
  'paylink.expired',
  'instore.paid',
  'settlement.transferred',
  'reserve.released',
  // Issue 47: a refund that waited for four eyes was approved (with the refund made), rejected or expired.
  'refund_approval.decided',
  // Issue 48: disputes (chargebacks) — arrived, changed (answer sent, state), closed with the outcome.
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** Issue 50: an endpoint that wants every event (today's and those added later). */
export const WEBHOOK_ALL_EVENTS = '*';
/** Issue 50: how deliveries to an endpoint are signed — 'stripe' (Portal-Signature, the default) or 'standard' (Standard Webhooks). */
export const WEBHOOK_SIGNATURE_SCHEMES = ['stripe', 'standard'] as const;
export type WebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number];
/** The event a "send test event" delivers (to the one endpoint asked). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + '.' + body)>[,v1=…]`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Portal-Signature';
export const WEBHOOK_MAX_ENDPOINTS = 16;
export const WEBHOOK_URL_MAX = 2048;

const urlInput = textInput(WEBHOOK_URL_MAX, { min: 1 }).refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname && !u.username && !u.password;
  } catch {
    return false;
  }
}, 'an http(s) URL without user name or password');

const eventsInput = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(
    z
      .array(z.union([z.enum(WEBHOOK_EVENTS), z.literal(WEBHOOK_ALL_EVENTS)]))
      .min(1, 'at least one event')
      .max(WEBHOOK_EVENTS.length + 1),
  )
  .transform((v) => [...new Set(v)]);

const idInput = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Create: the merchant (one of the caller's), the URL, the events wanted (array or comma-joined). */
export const webhookEndpointCreateSchema = z.object({
  merId: z.string().regex(/^\d{15}$/, 'a merchant id'),
  url: urlInput,
  events: eventsInput,
  description: textInput(200).optional().default(''),
  /** Issue 50: chosen at creation (the secret's form depends on it). */
  signatureScheme: z.enum(WEBHOOK_SIGNATURE_SCHEMES).optional().default('stripe'),
});
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = z.object({
  id: idInput,
  url: urlInput,
  events: eventsInput,
  description: textInput(200).optional().default(''),
});
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const webhookIdSchema = z.object({ id: idInput });

export const webhookEndpointSchema = z.object({
  id: z.number(),
  merId: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.enum(['user', 'failing']).nullable(),
  disabledAt: z.string().nullable(),
  /** When the secret before the last rotation stops signing (null: none). */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** Deliveries still being tried, and deliveries that failed for good. */
  pending: z.number(),
  failed: z.number(),
  /** Issue 50: how its deliveries are signed. */
  signatureScheme: z.enum(WEBHOOK_SIGNATURE_SCHEMES),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** Create and rotate answer with the secret: shown once, never again. */
export const webhookSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

export const webhookDeliveryQuerySchema = z.object({
  /** The endpoint. */
  id: idInput,
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  /** One event's deliveries (its evt_ id). */
  eventId: z
    .string()
    .regex(/^evt_[0-9a-f]{32}$/, 'an event id evt_…')
    .optional(),
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 30, 50, 100].includes(n), 'size')
    .default(10),
});

/**
 * Why an attempt got no HTTP answer, as a merchant is told it (issue 47): `address` — the host name
 * resolves to no address or to one no webhook may reach; `https` — plain http in production;
 * `timeout` — no answer within 10 s; `tls` — the TLS handshake or certificate failed;
 * `connection` — any other network error. The detail stays with the operators.
 */
export const WEBHOOK_ATTEMPT_REASONS = ['address', 'https', 'timeout', 'tls', 'connection'] as const;
export type WebhookAttemptReason = (typeof WEBHOOK_ATTEMPT_REASONS)[number];

export const webhookAttemptSchema = z.object({
  id: z.number(),
  at: z.string(),
  outcome: z.enum(['sending', 'succeeded', 'failed', 'refused']),
  status: z.number().nullable(),
  latencyMs: z.number().nullable(),
  response: z.string().nullable(),
  /** Why there was no HTTP answer (null: there was one). */
  reason: z.enum(WEBHOOK_ATTEMPT_REASONS).nullable(),
  /** The reason in the caller's language: generic, never the resolver's answer or the network error. */
  error: z.string().nullable(),
  nextRetryAt: z.string().nullable(),
  manual: z.boolean(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number(),
  endpointId: z.number(),
  eventId: z.string(),
  type: z.string(),
  createdAt: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema.extend({
  /** The body as sent (the same on every try). */
  body: z.string(),
  attemptList: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

/** Resend every failed delivery of an endpoint whose event is at or after `since` (ISO time). */
export const webhookResendFailedSchema = z.object({
  id: idInput,
  since: z.string().refine(isIsoInstant, 'an ISO time with its offset'),
});

/** `YYYY-MM-DDTHH:mm[:ss[.sss]](Z|±HH:mm)` naming a real day and time. */
export function isIsoInstant(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d)$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] && !Number.isNaN(Date.parse(s));
}
