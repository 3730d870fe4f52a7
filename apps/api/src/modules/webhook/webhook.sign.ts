import { createHmac, randomBytes } from 'node:crypto';

/**
 * What a receiver gets (docs/webhooks.md): the body — the event as JSON, the same bytes on every
 * try and resend — and the `Portal-Signature` header, Stripe's scheme:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, with a second `v1` made with the
 * previous secret for 24 hours after a rotation.
 */

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
