import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Schemas } from './types';

/** A delivery that does not verify: a wrong or missing signature, or a timestamp outside the tolerance. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The event a webhook delivers (the same object as GET /v1/events/{id}). */
export type WebhookEvent = Schemas['Event'];

export interface VerifyOptions {
  /** The largest difference between the signature's timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests). */
  now?: number;
}

type Body = string | Uint8Array;
const text = (b: Body) => (typeof b === 'string' ? b : Buffer.from(b).toString('utf8'));
const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
function fresh(timestamp: number, o: VerifyOptions) {
  const now = o.now ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > (o.toleranceSeconds ?? 300)) throw new WebhookVerificationError('timestamp outside the tolerance');
}
function parse(body: string): WebhookEvent {
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

/**
 * The default scheme (Stripe's): `Portal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<body>")>` — a second `v1` for 24 hours after a secret rotation. Pass the raw body as
 * received (not re-serialised JSON). Returns the event; throws WebhookVerificationError.
 */
export function verifyPortalSignature(body: Body, header: string | null | undefined, secret: string, o: VerifyOptions = {}): WebhookEvent {
  if (!header) throw new WebhookVerificationError('no Portal-Signature header');
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const sigs = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => Buffer.from(v, 'hex'));
  if (!sigs.length) throw new WebhookVerificationError('no v1 signature');
  fresh(t, o);
  const raw = text(body);
  const want = createHmac('sha256', secret).update(`${t}.${raw}`).digest();
  if (!sigs.some((s) => same(s, want))) throw new WebhookVerificationError('no signature matches');
  return parse(raw);
}

/** A header of a request, from a Headers object or Node's `req.headers` (names in any case). */
type HeaderBag = Headers | Record<string, string | string[] | undefined>;
function headerOf(h: HeaderBag, name: string): string | undefined {
  if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined;
  const bag = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Standard Webhooks (an endpoint made with `signature_scheme: "standard"`): `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * keyed with the base64-decoded part of the `whsec_` secret — what the `standardwebhooks` and
 * `svix` libraries check. Returns the event; throws WebhookVerificationError.
 */
export function verifyStandardWebhook(body: Body, headers: HeaderBag, secret: string, o: VerifyOptions = {}): WebhookEvent {
  const id = headerOf(headers, 'webhook-id');
  const ts = headerOf(headers, 'webhook-timestamp');
  const sig = headerOf(headers, 'webhook-signature');
  if (!id || !ts || !sig) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  fresh(Number(ts), o);
  const raw = text(body);
  const want = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${raw}`)
    .digest();
  const sigs = sig
    .split(' ')
    .map((s) => s.split(','))
    .filter(([v, s]) => v === 'v1' && s)
    .map(([, s]) => Buffer.from(s, 'base64'));
  if (!sigs.some((s) => same(s, want))) throw new WebhookVerificationError('no signature matches');
  return parse(raw);
}

/** Either scheme, by the headers the delivery carries (webhook-signature: Standard Webhooks; else Portal-Signature). */
export function verifyWebhook(body: Body, headers: HeaderBag, secret: string, o: VerifyOptions = {}): WebhookEvent {
  if (headerOf(headers, 'webhook-signature') !== undefined) return verifyStandardWebhook(body, headers, secret, o);
  return verifyPortalSignature(body, headerOf(headers, 'portal-signature'), secret, o);
}
