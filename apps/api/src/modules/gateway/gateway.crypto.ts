import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Code } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';

/** The development key: used only outside production, when PROVIDER_KEY_ENCRYPTION_KEY is unset. */
const DEV_KEY = createHash('sha256').update('merchant-portal development provider key — never for production').digest();

/**
 * The secret-sealing key is missing or does not open what is stored: a configuration fault of the
 * server, answered 503 with what the operator must do (issues 46, 47) — never a bare 500. Every
 * feature sealing secrets with PROVIDER_KEY_ENCRYPTION_KEY (gateway connection keys, webhook
 * signing secrets) goes through `encryptionKey` and `openSecret`.
 */
const unavailable = (key: 'secretKeyMissing' | 'secretKeyMismatch') =>
  // (Its message in words too: the job runner's log and the CLI show it, not the key.)
  Object.assign(new AppError(Code.SERVICE_UNAVAILABLE, key, {}, 503), { message: t('en', key) });
const keyMissing = () => unavailable('secretKeyMissing');
const keyMismatch = () => unavailable('secretKeyMismatch');

/** The 32-byte key encrypting signing secrets at rest; in production without it: the 503 AppError. */
export function encryptionKey(cfg: { env: string; providerKeyEncryptionKey?: string }): Buffer {
  const k = cfg.providerKeyEncryptionKey;
  if (!k) {
    if (cfg.env === 'production') throw keyMissing();
    return DEV_KEY;
  }
  const key = /^[0-9a-fA-F]{64}$/.test(k) ? Buffer.from(k, 'hex') : Buffer.from(k, 'base64');
  if (key.length !== 32) throw keyMismatch();
  return key;
}

/** `decryptSecret` with the configured key; a key that cannot open it → the 503 AppError. */
export function openSecret(cfg: { env: string; providerKeyEncryptionKey?: string }, stored: string, keyId: string): string {
  const key = encryptionKey(cfg);
  try {
    return decryptSecret(key, stored, keyId);
  } catch {
    throw keyMismatch();
  }
}

/** AES-256-GCM: base64 of iv (12) | tag (16) | ciphertext. The key id is the associated data. */
export function encryptSecret(key: Buffer, secret: string, keyId: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(keyId));
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

export function decryptSecret(key: Buffer, stored: string, keyId: string): string {
  const b = Buffer.from(stored, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAAD(Buffer.from(keyId));
  d.setAuthTag(b.subarray(12, 28));
  return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
}

/** The signed string: `timestamp.METHOD.path.body` (path as sent, with its query string). */
const signingString = (timestamp: string, method: string, path: string, body: string) => `${timestamp}.${method.toUpperCase()}.${path}.${body}`;

/** Hex HMAC-SHA256 of the signing string with the secret. */
export function sign(secret: string, timestamp: string, method: string, path: string, body: string): string {
  return createHmac('sha256', secret)
    .update(signingString(timestamp, method, path, body))
    .digest('hex');
}

/** Constant-time comparison of two hex signatures (a length mismatch is simply false). */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A fresh signing secret (shown once) and key id. */
export const newSecret = () => randomBytes(32).toString('base64url');
export const newKeyId = () => `gk_${randomBytes(9).toString('base64url')}`;
