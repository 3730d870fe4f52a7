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

function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value: one v1 per secret that still signs (current first). */
export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signature(s, timestamp, body)}`)].join(',');
}

/**
 * Standard Webhooks (issue 50; standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>">` with the base64-decoded part of the secret after
 * `whsec_` as the key; one `v1,…` per secret that still signs, space-separated (current first).
 */
export function standardSignatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map(
      (s) =>
        `v1,${createHmac('sha256', Buffer.from(s.replace(/^whsec_/, ''), 'base64'))
          .update(`${id}.${timestamp}.${body}`)
          .digest('base64')}`,
    )
    .join(' ');
}

/**
 * A new signing secret (shown once): `whsec_` and 24 random bytes — base64url for the Stripe-like
 * scheme (the whole string is the HMAC key), plain base64 for Standard Webhooks (whose libraries
 * decode it to get the key).
 */
export const newWebhookSecret = (scheme: 'stripe' | 'standard' = 'stripe') => `whsec_${randomBytes(24).toString(scheme === 'standard' ? 'base64' : 'base64url')}`;
export const newSecretKeyId = () => `wk_${randomBytes(9).toString('base64url')}`;
