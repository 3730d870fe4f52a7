import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { decryptSecret, encryptSecret, encryptionKey, newKeyId, newSecret, openSecret, sameSignature, sign } from './gateway.crypto';

/**
 * Gateway connections and their signing keys (issue 25 §1). The CLI (`npm run provider`) and, later,
 * the back office call these; the provider face calls `authenticate`. Secrets are encrypted at rest
 * and never logged: `addKey` returns the secret once, to be handed to the gateway team.
 */

export interface KeyConfig {
  env: string;
  providerKeyEncryptionKey?: string;
}

export interface Connection {
  id: string;
  name: string;
  merchants: string[];
  enabled: boolean;
}

export interface ConnectionInfo extends Connection {
  keys: { keyId: string; createdAt: Date; revokedAt: Date | null }[];
}

/** How far a request's timestamp may be from our clock, either way. */
const MAX_SKEW_MS = 5 * 60_000;

/** Header names of a signed provider request. */
export const HEADERS = { keyId: 'x-gateway-key-id', timestamp: 'x-gateway-timestamp', signature: 'x-gateway-signature' } as const;

const CONN_ID = /^[a-z0-9][a-z0-9_-]{1,31}$/;
const MER_ID = /^\d{15}$/;

export async function addConnection(q: Queryable, c: { id: string; name: string; merchants: string[] }, actor = 'cli'): Promise<Connection> {
  if (!CONN_ID.test(c.id)) throw new Error('connection id: 2–32 of a-z 0-9 _ - (starting with a letter or digit)');
  if (!c.name.trim() || c.name.length > 128) throw new Error('name: 1–128 characters');
  const bad = c.merchants.filter((m) => !MER_ID.test(m));
  if (bad.length) throw new Error(`not a merchant id: ${bad.join(', ')}`);
  const { rows: known } = await q.query<{ mer_id: string }>('SELECT mer_id FROM merchant WHERE mer_id = ANY($1::text[])', [c.merchants]);
  const missing = c.merchants.filter((m) => !known.some((k) => k.mer_id === m));
  if (missing.length) throw new Error(`unknown merchant(s): ${missing.join(', ')}`);
  await q.query('INSERT INTO gateway_connection (id, name, merchants) VALUES ($1, $2, $3)', [c.id, c.name.trim(), [...new Set(c.merchants)]]);
  await audit(q, { action: 'gateway.connection.add', username: actor, target: c.id, detail: { name: c.name, merchants: c.merchants } });
  return { id: c.id, name: c.name.trim(), merchants: [...new Set(c.merchants)], enabled: true };
}

/** Sets the merchants a connection may report for (replaces the list). */
export async function setMerchants(q: Queryable, id: string, merchants: string[], actor = 'cli'): Promise<void> {
  const { rowCount } = await q.query('UPDATE gateway_connection SET merchants = $2 WHERE id = $1', [id, [...new Set(merchants)]]);
  if (!rowCount) throw new Error(`no connection ${id}`);
  await audit(q, { action: 'gateway.connection.merchants', username: actor, target: id, detail: { merchants } });
}

export async function listConnections(q: Queryable): Promise<ConnectionInfo[]> {
  const { rows } = await q.query<Connection>('SELECT id, name, merchants, enabled FROM gateway_connection ORDER BY id');
  const { rows: keys } = await q.query<{ key_id: string; connection_id: string; created_at: Date; revoked_at: Date | null }>(
    'SELECT key_id, connection_id, created_at, revoked_at FROM gateway_key ORDER BY created_at, key_id',
  );
  return rows.map((c) => ({
    ...c,
    keys: keys.filter((k) => k.connection_id === c.id).map((k) => ({ keyId: k.key_id, createdAt: k.created_at, revokedAt: k.revoked_at })),
  }));
}

/** A new signing key for the connection: the secret is returned once and stored only encrypted. */
export async function addKey(q: Queryable, cfg: KeyConfig, connectionId: string, actor = 'cli'): Promise<{ keyId: string; secret: string }> {
  const key = encryptionKey(cfg);
  const { rows } = await q.query('SELECT 1 FROM gateway_connection WHERE id = $1', [connectionId]);
  if (!rows.length) throw new Error(`no connection ${connectionId}`);
  const keyId = newKeyId();
  const secret = newSecret();
  await q.query('INSERT INTO gateway_key (key_id, connection_id, secret_enc) VALUES ($1, $2, $3)', [keyId, connectionId, encryptSecret(key, secret, keyId)]);
  await audit(q, { action: 'gateway.key.add', username: actor, target: connectionId, detail: { keyId } });
  return { keyId, secret };
}

export async function revokeKey(q: Queryable, keyId: string, now: Date, actor = 'cli'): Promise<void> {
  const { rows } = await q.query<{ connection_id: string }>('UPDATE gateway_key SET revoked_at = coalesce(revoked_at, $2) WHERE key_id = $1 RETURNING connection_id', [keyId, now]);
  if (!rows.length) throw new Error(`no key ${keyId}`);
  await audit(q, { action: 'gateway.key.revoke', username: actor, target: rows[0].connection_id, detail: { keyId } });
}

/** True when a connection exists (production then needs PROVIDER_KEY_ENCRYPTION_KEY). */
async function anyConnection(q: Queryable): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM gateway_connection LIMIT 1');
  return rows.length > 0;
}

const unauthorized = (reason: string) => new AppError(Code.NOT_LOGGED_IN, 'gwUnauthorized', { reason }, 401);

export interface SignedRequest {
  keyId: unknown;
  timestamp: unknown;
  signature: unknown;
  method: string;
  /** The request target as sent (path and query string). */
  path: string;
  body: string;
}

/**
 * Checks a signed request: known, unrevoked key of an enabled connection; timestamp (Unix seconds)
 * within 5 minutes of `now` either way; HMAC-SHA256 over `timestamp.METHOD.path.body` equal in
 * constant time; signature not seen before (a unique insert, so two copies in parallel cannot both
 * pass). Any failure → 401 with a reason that reveals no secret.
 */
export async function authenticate(q: Queryable, cfg: KeyConfig, r: SignedRequest, now: Date): Promise<Connection & { keyId: string }> {
  if (typeof r.keyId !== 'string' || typeof r.timestamp !== 'string' || typeof r.signature !== 'string' || !r.keyId || !r.signature) {
    throw unauthorized('missing signature headers');
  }
  // The key id's own shape (gateway_key's CHECK): nothing else reaches the database.
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(r.keyId)) throw unauthorized('unknown or revoked key');
  if (!/^\d{9,11}$/.test(r.timestamp)) throw unauthorized('bad timestamp');
  const skew = Math.abs(Number(r.timestamp) * 1000 - now.getTime());
  if (skew > MAX_SKEW_MS) throw unauthorized('timestamp outside 5 minutes');
  if (!/^[0-9a-f]{64}$/.test(r.signature)) throw unauthorized('bad signature');
  const { rows } = await q.query<Connection & { secret_enc: string }>(
    `SELECT c.id, c.name, c.merchants, c.enabled, k.secret_enc FROM gateway_key k JOIN gateway_connection c ON c.id = k.connection_id
      WHERE k.key_id = $1 AND k.revoked_at IS NULL AND c.enabled`,
    [r.keyId],
  );
  const row = rows[0];
  if (!row) throw unauthorized('unknown or revoked key');
  const secret = openSecret(cfg, row.secret_enc, r.keyId);
  if (!sameSignature(sign(secret, r.timestamp, r.method, r.path, r.body), r.signature)) throw unauthorized('signature mismatch');
  const { rows: fresh } = await q.query('INSERT INTO gateway_seen_signature (signature, expires_at) VALUES ($1, $2) ON CONFLICT (signature) DO NOTHING RETURNING 1', [
    r.signature,
    new Date(Number(r.timestamp) * 1000 + MAX_SKEW_MS + 60_000),
  ]);
  if (!fresh.length) throw unauthorized('replayed signature');
  return { id: row.id, name: row.name, merchants: row.merchants, enabled: row.enabled, keyId: r.keyId };
}

/** Forgets signatures past their window (the daily job). */
export async function purgeSeenSignatures(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM gateway_seen_signature WHERE expires_at < $1', [now]);
  return rowCount ?? 0;
}

/**
 * Start-up check (issues 25, 46, 47): every secret sealed with PROVIDER_KEY_ENCRYPTION_KEY — the
 * gateway connections' signing keys and the webhook endpoints' signing secrets — must be readable.
 * In production the server refuses to start without the key while a connection or an endpoint
 * exists, and with a key that does not open one of the stored secrets (one of each kind is tried),
 * rather than refuse requests later. Outside production (the development key when unset) the same
 * finding is returned as a warning for the log. A feature used with no usable key at run time (the
 * first connection added after start-up, say) answers 503 (`encryptionKey`, `openSecret`).
 */
export async function assertProviderKey(q: Queryable, cfg: KeyConfig): Promise<string | null> {
  const { rows } = await q.query<{ kind: 'gateway key' | 'webhook endpoint'; id: string; enc: string; key_id: string }>(
    `(SELECT 'gateway key' AS kind, k.key_id AS id, k.secret_enc AS enc, k.key_id FROM gateway_key k WHERE k.revoked_at IS NULL ORDER BY k.created_at DESC LIMIT 1)
     UNION ALL
     (SELECT 'webhook endpoint', e.id::text, e.secret_enc, e.secret_key_id FROM webhook_endpoint e ORDER BY e.id DESC LIMIT 1)`,
  );
  const connection = rows.some((r) => r.kind === 'gateway key') || (await anyConnection(q));
  const endpoint = rows.some((r) => r.kind === 'webhook endpoint');
  const needs = [connection && 'a gateway connection', endpoint && 'a webhook endpoint'].filter(Boolean).join(' and ');
  let problem: string | null = null;
  if (!cfg.providerKeyEncryptionKey && cfg.env === 'production') {
    if (needs) problem = `PROVIDER_KEY_ENCRYPTION_KEY: required when NODE_ENV=production and ${needs} exists (32 bytes, hex or base64; the key their secrets were sealed with)`;
  } else {
    const key = encryptionKey(cfg);
    const bad = rows.find((r) => {
      try {
        decryptSecret(key, r.enc, r.key_id);
        return false;
      } catch {
        return true;
      }
    });
    if (bad) {
      problem = `PROVIDER_KEY_ENCRYPTION_KEY${cfg.providerKeyEncryptionKey ? '' : ' (unset: the development key)'} does not open the stored secret of ${bad.kind} ${bad.id}: set the key it was sealed with (or issue new secrets)`;
    }
  }
  if (!problem) return null;
  if (cfg.env === 'production') throw new Error(`Invalid environment:\n  ${problem}`);
  return problem;
}
