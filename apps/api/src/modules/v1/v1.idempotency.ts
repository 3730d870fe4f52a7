import { sha256 } from '../../lib/crypto';
import type { Deps } from '../../plugins/context';
import { V1Error } from './v1.errors';

const KEY_RE = /^[A-Za-z0-9_-]{8,64}$/;

/** A canonical text of a JSON value (object keys sorted), so the same body hashes alike however written. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * Claims `Idempotency-Key` for this key and operation with the body's hash — one unique insert,
 * committed at once, so of two requests arriving together both see the same row. A key used before
 * with another body (or for another operation) is refused with 409; with the same body the caller
 * goes on, and the operation itself replays its first result (the refund service's request key).
 */
export async function claimIdempotencyKey(deps: Deps, keyId: number, header: unknown, operation: string, body: unknown): Promise<string> {
  if (typeof header !== 'string' || !KEY_RE.test(header)) throw new V1Error(400, 'invalid_request_error', 'idempotency_key_missing', 'v1IdempotencyMissing', {}, 'Idempotency-Key');
  const hash = sha256(`${operation}\n${canonical(body)}`);
  const ins = await deps.db.query(
    `INSERT INTO api_idempotency (key_id, idem_key, operation, body_hash, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key_id, idem_key) DO NOTHING RETURNING key_id`,
    [keyId, header, operation, hash, deps.clock.now()],
  );
  if (ins.rowCount) return header;
  const { rows } = await deps.db.query<{ operation: string; body_hash: string }>('SELECT operation, body_hash FROM api_idempotency WHERE key_id = $1 AND idem_key = $2', [keyId, header]);
  if (!rows[0] || rows[0].operation !== operation || rows[0].body_hash !== hash) {
    throw new V1Error(409, 'idempotency_error', 'idempotency_key_reused', 'v1IdempotencyReused', {}, 'Idempotency-Key');
  }
  return header;
}
