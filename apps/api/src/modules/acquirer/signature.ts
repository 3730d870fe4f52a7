import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers of a signed gateway request (docs/acquirer-adapter.md, "Signing"). */
export const SIGNATURE_HEADERS = {
  keyId: 'x-portal-key-id',
  timestamp: 'x-portal-timestamp',
  signature: 'x-portal-signature',
  idempotencyKey: 'idempotency-key',
} as const;

/**
 * HMAC-SHA256 over `timestamp.METHOD.path.body` (path with its query string, body as sent, empty
 * for a GET), as lowercase hex. The timestamp is Unix seconds.
 */
export function signRequest(key: string, timestamp: string, method: string, path: string, body: string): string {
  return createHmac('sha256', key).update(`${timestamp}.${method.toUpperCase()}.${path}.${body}`).digest('hex');
}

/** Constant-time check of a signature (the gateway's side; the fake gateway uses it). */
export function verifySignature(key: string, timestamp: string, method: string, path: string, body: string, signature: string): boolean {
  const want = Buffer.from(signRequest(key, timestamp, method, path, body), 'hex');
  const got = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
