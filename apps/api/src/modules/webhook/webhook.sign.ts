import { createHmac, randomBytes } from 'node:crypto';
import { toDecimal } from '@portal/contract';

/**
 * What a receiver gets (docs/webhooks.md): the body — the event as JSON, the same bytes on every
 * try and resend — and the `Portal-Signature` header, Stripe's scheme:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, with a second `v1` made with the
 * previous secret for 24 hours after a rotation.
 */

export interface StoredEvent {
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  created_at: Date | string;
}

/** Fields of an event's data that hold minor units of `data.currency`: sent as decimal strings. */
const MONEY_FIELDS = ['amount', 'fee', 'netAmount'];

export function eventBody(e: StoredEvent): string {
  const data: Record<string, unknown> = { ...e.data };
  const currency = typeof data.currency === 'string' ? data.currency : null;
  if (currency) for (const f of MONEY_FIELDS) if (typeof data[f] === 'number') data[f] = toDecimal(data[f] as number, currency);
  return JSON.stringify({ id: e.event_id, type: e.type, created: Math.floor(new Date(e.created_at).getTime() / 1000), merId: e.mer_id, data });
}

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value: one v1 per secret that still signs (current first). */
export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signature(s, timestamp, body)}`)].join(',');
}

/** A new signing secret (shown once). */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;
export const newSecretKeyId = () => `wk_${randomBytes(9).toString('base64url')}`;
